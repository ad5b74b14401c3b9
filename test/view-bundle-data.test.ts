import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationRecord } from '../src/domain/conversation-record.js';
import { ResultStore } from '../src/store/result-store.js';
import { expandListPage, expandRecord } from '../src/web/viewer/browser/bundle-data.js';
import { type BundleClaims, type CompactListPage, conversationFile } from '../src/web/wire/bundle-files.js';
import { runCli } from './cli-helpers.js';
import { handRecord } from './support/hand-records.js';

/** What a data file hands the page: the script's one call of pmiycBundleData, run with a stand-in. */
function readData<T>(bundle: string, name: string): T {
  let data: unknown;
  new Function('pmiycBundleData', readFileSync(join(bundle, 'data', name), 'utf8'))((_name: string, text: string) => {
    data = JSON.parse(text);
  });
  return data as T;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The viewer's order by pair. */
const byPair = (a: ConversationRecord, b: ConversationRecord) =>
  compare(a.persuader, b.persuader) ||
  compare(a.persuadee, b.persuadee) ||
  compare(a.setting, b.setting) ||
  compare(a.domain, b.domain) ||
  a.claimIndex - b.claimIndex ||
  compare(a.conversationId, b.conversationId);

/** Whether a record is in the list a key names (`persuader=...&setting=...`, as the viewer's filters). */
function inList(record: ConversationRecord, key: string): boolean {
  return [...new URLSearchParams(key)].every(([name, value]) => {
    if (name === 'claim') return String(record.claimIndex) === value;
    return String((record as unknown as Record<string, unknown>)[name]) === value;
  });
}

describe("a static bundle's data, written once what repeats", () => {
  let folder: string;
  const bundles = new Map<string, { folder: string; records: ConversationRecord[] }>();

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-bundle-data-'));
    const storePath = join(folder, 'pmiyc.db');
    expect((await runCli(['demo', '--store', storePath], { cwd: folder })).code).toBe(0);
    // A run of odd records: a failure after re-samples, a re-sampled argument, a drift probe, a question, a reply not in its raw text.
    const store = ResultStore.openExisting(storePath);
    const run = store.createRun({ name: 'odd', seed: 1, packageVersion: 'test', config: { command: 'run', design: { persuaders: [], persuadees: [] } } });
    const base = { persuader: 'sim/a', persuadee: 'sim/b', turns: 5, persuadeeScores: [2, 3] as const, final: 4 as const, run: 'odd' };
    const records = [
      handRecord({ ...base, claim: 'c1 First', failure: { reason: 'format', attempts: 2 } }),
      handRecord({ ...base, claim: 'c2 Second', argumentResamples: 2, domain: 'misinformation', question: 'Is the second so?' }),
      {
        ...handRecord({ ...base, claim: 'c3 Third', persuader: 'sim/c' }),
        driftProbe: { score: 3 as const, attempts: 1, raw: '<SCORE>3</SCORE>', callHash: null },
      },
      handRecord({ ...base, claim: 'c4 Fourth', message: (index) => `<b>turn ${index}</b> & "quotes"` }),
    ];
    for (const record of records) await store.saveConversation(run.id, record);
    store.setRunStatus(run.id, 'completed');
    store.close();
    for (const name of ['demo-1', 'odd']) {
      const bundle = join(folder, `bundle-${name}`);
      const made = await runCli(['view', '--store', storePath, '--bundle', bundle, '--run', name], { cwd: folder });
      expect(made.code, made.stderr).toBe(0);
      const exported = await runCli(['export', '--store', storePath, '--run', name, '--format', 'jsonl'], { cwd: folder });
      expect(exported.code, exported.stderr).toBe(0);
      const lines = exported.stdout.split('\n').filter((line) => line.trim() !== '');
      bundles.set(name, { folder: bundle, records: lines.map((line) => JSON.parse(line) as ConversationRecord) });
    }
  }, 120_000);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("gives back every conversation as the run's export has it", () => {
    for (const [name, { folder: bundle, records }] of bundles) {
      expect(records.length, name).toBeGreaterThan(3);
      for (const record of records) {
        const file = readData<{ record: Record<string, unknown> }>(bundle, conversationFile(record.conversationId));
        expect(expandRecord(file.record), `${name} ${record.conversationId}`).toEqual(record);
      }
    }
  });

  it("gives back every list, page by page, as the run's export filtered and sorted by pair", () => {
    for (const [name, { folder: bundle, records }] of bundles) {
      const manifest = readData<{ pageSize: number; lists: Record<string, { id: number; total: number }> }>(bundle, 'lists.js');
      const claims = readData<BundleClaims>(bundle, 'claims.js');
      const sorted = [...records].sort(byPair);
      for (const [key, list] of Object.entries(manifest.lists)) {
        const expected = sorted.filter((record) => inList(record, key)).map(({ turns: _turns, ...summary }) => summary);
        const pages = Math.max(1, Math.ceil(list.total / manifest.pageSize));
        const items = Array.from({ length: pages }, (_, page) =>
          expandListPage(readData<CompactListPage>(bundle, `lists/${list.id}/${page}.js`), claims),
        ).flat();
        expect([list.total, items], `${name}: ${key || 'all'}`).toEqual([expected.length, expected]);
      }
      expect(Object.keys(manifest.lists).length, name).toBeGreaterThan(5);
    }
  });

  it('holds the replies once and what a list page repeats once: records and list pages smaller than the answers they give', () => {
    const { folder: bundle, records } = bundles.get('demo-1')!;
    const size = (value: unknown) => JSON.stringify(value).length;
    const written = records.reduce((sum, record) => sum + size(readData<{ record: unknown }>(bundle, conversationFile(record.conversationId)).record), 0);
    const answered = records.reduce((sum, record) => sum + size(record), 0);
    expect(written / answered).toBeLessThan(0.7);
    const manifest = readData<{ pageSize: number; lists: Record<string, { id: number; total: number }> }>(bundle, 'lists.js');
    const pages = Object.values(manifest.lists).flatMap((list) =>
      Array.from({ length: Math.max(1, Math.ceil(list.total / manifest.pageSize)) }, (_, page) =>
        readData<CompactListPage>(bundle, `lists/${list.id}/${page}.js`),
      ),
    );
    const claims = readData<BundleClaims>(bundle, 'claims.js');
    const listed = pages.reduce((sum, page) => sum + size(page), size(claims));
    const summaries = pages.reduce((sum, page) => sum + size(expandListPage(page, claims)), 0);
    expect(listed / summaries).toBeLessThan(0.5);
  });
});
