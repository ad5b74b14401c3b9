import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultStore } from '../src/store/result-store.js';
import { spawnCli } from './cli-helpers.js';

/** Waits until `ready()` gives a value (polling), or fails after `ms`. */
async function waitFor<T>(ready: () => T | undefined, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = ready();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(process.platform !== 'linux')('pmiyc view opening a browser (Linux: xdg-open)', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-view-open-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('hands the opener a page only this user can read, not the address with its token, and removes the page when it stops', async () => {
    const store = join(folder, 'pmiyc.db');
    ResultStore.open(store).close();
    // An opener that records its arguments, as the process list would show them to any local user.
    const bin = join(folder, 'bin');
    mkdirSync(bin);
    const opened = join(folder, 'opened.txt');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" > "${opened}"\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const viewer = spawnCli(['view', '--store', store, '--port', '0'], { env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
    try {
      const address = await waitFor(() => /(http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(viewer.output().stdout)?.[1], 'the address');
      const token = address.split('#token=')[1]!;
      const argument = (await waitFor(() => (existsSync(opened) ? readFileSync(opened, 'utf8') : undefined), 'the opener')).trim();
      expect(argument).not.toContain(token);
      expect(argument).toMatch(/^file:\/\/.*\/open\.html$/);
      const page = fileURLToPath(argument);
      expect(statSync(page).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(page)).mode & 0o777).toBe(0o700);
      expect(readFileSync(page, 'utf8')).toContain(`<meta http-equiv="refresh" content="0;url=${address}">`);
      viewer.child.kill('SIGINT');
      expect((await viewer.done).code).toBe(130);
      expect(existsSync(page)).toBe(false);
    } finally {
      viewer.child.kill('SIGKILL');
    }
  });
});
