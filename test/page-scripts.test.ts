import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResultStore } from '../src/store/result-store.js';
import type * as PageScript from '../src/web/server/page-script.js';
import { spawnCli } from './cli-helpers.js';
import { servedUrl } from './support/cli-in-process.js';

const built = (name: string) => readFileSync(new URL(`../dist/web/browser/${name}.js`, import.meta.url), 'utf8');

/** The built pages' scripts as the published package finds them (docs/design/view.md): from dist/, not src/. */
describe("the pages' scripts from the build", () => {
  it('are found by the library in dist/web', async () => {
    const library = (await import(new URL('../dist/web/server/page-script.js', import.meta.url).href)) as typeof PageScript;
    expect(await library.loadPageScript('view-app')).toBe(built('view-app'));
    expect(await library.loadPageScript('annotation-app')).toBe(built('annotation-app'));
  });

  it('are found by the bundled CLI in dist/cli: pmiyc view serves its page with the script inline', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pmiyc-page-scripts-'));
    const store = join(folder, 'empty.db');
    ResultStore.open(store).close();
    const viewer = spawnCli(['view', '--store', store, '--port', '0', '--no-open']);
    try {
      const url = await servedUrl(() => viewer.output().stdout);
      const page = await (await fetch(url)).text();
      expect(page).toContain(`">${built('view-app')}</script>`);
    } finally {
      viewer.child.kill('SIGKILL');
      await viewer.done;
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
