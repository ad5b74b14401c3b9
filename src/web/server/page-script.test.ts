import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, ResultStore, type Store } from '../../store/result-store.js';
import { LabelBook } from '../../studies/annotation/annotation-labels.js';
import type { AnnotationTaskFile } from '../../studies/annotation/annotation-tasks.js';
import { AnnotationServer } from '../annotation/annotation-server.js';
import { ViewServer } from '../viewer/view-server.js';
import { checkInlineScript, loadPageScript, type PageScriptName } from './page-script.js';

const PAGES: PageScriptName[] = ['view-app', 'annotation-app'];
const built = (name: PageScriptName) => readFileSync(new URL(`../../../dist/web/browser/${name}.js`, import.meta.url), 'utf8');

/** The policy both servers have always sent with a page, written out: a change to it must be deliberate. */
const policyOf = (nonce: string) =>
  `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/** The page's script elements: their attributes and text. */
const scriptsOf = (page: string) => [...page.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map((match) => ({ attributes: match[1], text: match[2] }));

/** A page as its server sends it, with the nonce its policy names. */
async function fetchPage(url: string): Promise<{ page: string; policy: string; nonce: string }> {
  const response = await fetch(url);
  const policy = response.headers.get('content-security-policy') ?? '';
  return { page: await response.text(), policy, nonce: /script-src 'nonce-([^']+)'/.exec(policy)?.[1] ?? '' };
}

describe("the pages' built scripts (src/web/<product>/browser, bundled by rolldown)", () => {
  it.each(PAGES)('%s is one classic script, safe to send inline, read from the build', async (name) => {
    const text = await loadPageScript(name);
    expect(text).toBe(built(name));
    expect(text.length).toBeGreaterThan(5_000);
    // An ES module's import or export would not run in a classic <script>: the bundle has none left.
    expect(text).not.toMatch(/^\s*(import|export)\b/m);
    expect(text.startsWith('"use strict";')).toBe(true);
    expect(text).not.toMatch(/<\/script|<!--/i);
  });

  it('refuses a script holding text that would end its inline element or change how it is parsed', () => {
    expect(() => checkInlineScript('view-app', 'const tag = "</SCRIPT>";')).toThrow(/view-app holds "<\/SCRIPT"/);
    expect(() => checkInlineScript('view-app', 'if (a <!--b) {}')).toThrow(/holds "<!--"/);
    expect(() => checkInlineScript('view-app', 'const tag = "<\\/script>"; if (a < !b) {}')).not.toThrow();
  });
});

describe('the served pages', () => {
  let folder: string;
  let store: Store;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-page-script-'));
    ResultStore.open(join(folder, 'store.db')).close();
    store = openStore(join(folder, 'store.db'), { access: 'read' });
  });
  afterAll(() => {
    store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("the viewer's page carries the built script as its only script, under the page's nonce and the policy it always had", async () => {
    const server = await ViewServer.start({ source: store, port: 0, world: () => ({ pid: 1, host: 'test-host', nowMs: 0, isProcessAlive: () => true }) });
    try {
      const { page, policy, nonce } = await fetchPage(server.url);
      expect(policy).toBe(policyOf(nonce));
      expect(scriptsOf(page)).toEqual([{ attributes: ` nonce="${nonce}"`, text: built('view-app') }]);
    } finally {
      await server.close();
    }
  });

  it("the annotation page likewise, with the session's token given to it as data", async () => {
    const tasks: AnnotationTaskFile = {
      format: 'pmiyc-annotation-tasks',
      version: 1,
      taskSetId: 'tset',
      run: 'run-1',
      createdAt: '2026-12-01T00:00:00.000Z',
      selection: { setting: 'multi', seed: 0, perPair: 1, claimsPerDomain: null },
      annotationGuide: 'guide',
      conversations: [],
    };
    const server = await AnnotationServer.start({ book: new LabelBook(tasks, 'alice'), labelsPath: join(folder, 'labels.jsonl'), port: 0 });
    try {
      const { page, policy, nonce } = await fetchPage(server.url);
      expect(policy).toBe(policyOf(nonce));
      const token = /<meta name="pmiyc-token" content="([^"]+)">/.exec(page)?.[1];
      expect(token).toMatch(/^[\w-]{43}$/);
      expect(scriptsOf(page)).toEqual([{ attributes: ` nonce="${nonce}"`, text: built('annotation-app') }]);
      expect(built('annotation-app')).not.toContain(token);
    } finally {
      await server.close();
    }
  });
});
