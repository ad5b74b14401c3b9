import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSUSAFETY_STRATEGIES } from '../src/protocols/persusafety/persusafety-facts.js';
import type { ProtocolItemAnswer, ProtocolItemsAnswer } from '../src/web/wire/protocol-items.js';
import { runCli } from './cli-helpers.js';
import { cliInProcess, servedUrl } from './support/cli-in-process.js';
import { type PublishedResultsFile, publishedResultsFiles, publishedScore } from './support/persusafety-published-counts.js';

/**
 * `pmiyc view`'s API of PersuSafety's published results imported with `pmiyc import persusafety` (a loopback
 * server, no browser): the list of conversations with their study, profile, condition, decision and the judge's 15
 * scores as columns to filter by, and one conversation's facts, the decision on each persuadee reply and the
 * judge's scores and rationales, each checked against the results files themselves.
 */

const FIXTURE_TREE = fileURLToPath(new URL('./fixtures/persusafety-results', import.meta.url));
const RUN = 'published';

let folder: string;
let files: PublishedResultsFile[];
const stop = new AbortController();
let served: Promise<number>;
let url: string;

const get = async <T>(path: string) => {
  const response = await fetch(`${url}api/${path}`);
  return { status: response.status, body: (await response.json()) as T };
};

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-persusafety-view-'));
  const store = join(folder, 'runs.db');
  const imported = await runCli(['import', 'persusafety', FIXTURE_TREE, '--run', RUN, '--store', store]);
  expect(imported.code, imported.stderr).toBe(0);
  files = publishedResultsFiles(FIXTURE_TREE);
  const { done, output } = cliInProcess(['view', '--store', store, '--port', '0', '--no-open'], stop.signal);
  served = done;
  url = await servedUrl(output);
}, 60_000);
afterAll(async () => {
  stop.abort();
  expect(await served).toBe(0);
  rmSync(folder, { recursive: true, force: true });
});

/** Every record of the files in item-key order, with its key. */
function itemsOfFiles() {
  return files
    .flatMap((file) =>
      file.records.map((record) => ({
        itemKey: `${file.persuader}/${file.study}/${file.condition}/${file.persuaderProfile}__${file.profile}/${String(record.id).padStart(4, '0')}`,
        file,
        record,
      })),
    )
    .sort((a, b) => (a.itemKey < b.itemKey ? -1 : 1));
}

describe("pmiyc view's API of imported PersuSafety results", () => {
  it("lists the conversations with their scene kind, profile, condition, decision and the judge's scores, and filters by a score", async () => {
    const { status, body } = await get<ProtocolItemsAnswer>(`runs/${RUN}/items`);
    expect(status).toBe(200);
    expect(body.protocol).toBe('persusafety');
    expect(body.participants.map((entry) => [entry.role, entry.model])).toEqual([
      ['persuader', 'example-model'],
      ['persuadee', 'not named in the results'],
      ['judge', "PersuSafety's published judge (Claude-3.5-Sonnet)"],
    ]);
    expect(body.columns.map((column) => column.name)).toEqual([
      'study',
      'scene kind',
      'harmfulness',
      'persuadee profile',
      'condition',
      'final decision',
      'decisions by exchange',
      ...PERSUSAFETY_STRATEGIES,
    ]);
    const items = itemsOfFiles();
    expect(body.rows.map((row) => row.itemKey)).toEqual(items.map((item) => item.itemKey));
    for (const [index, { file, record }] of items.entries()) {
      const cells = body.rows[index]!.cells;
      expect(cells.slice(0, 6)).toEqual([
        file.study,
        file.study === 'cross_personality_study' ? 'harmful task' : 'neutral scene',
        cells[2],
        file.profile,
        file.condition,
        record.final_state === 'n-a' ? 'none (no decision reached)' : record.final_state,
      ]);
      expect(cells.slice(7)).toEqual(PERSUSAFETY_STRATEGIES.map((strategy) => String(publishedScore(record, strategy)[0])));
    }
    const guilty = await get<ProtocolItemsAnswer>(`runs/${RUN}/items?${new URLSearchParams({ 'Guilt Tripping': '2' })}`);
    expect(guilty.body.rows.map((row) => row.itemKey)).toEqual(
      items.filter((item) => publishedScore(item.record, 'Guilt Tripping')[0] === 2).map((item) => item.itemKey),
    );
    expect(guilty.body.rows.length).toBeGreaterThan(0);
  });

  it("answers one conversation: its facts, the decision on each persuadee reply, and the judge's scores with their rationales", async () => {
    const { itemKey, record } = itemsOfFiles().find((item) => Object.keys(item.record.decision_list).length > 1)!;
    const { status, body } = await get<ProtocolItemAnswer>(`runs/${RUN}/items/${encodeURIComponent(itemKey)}`);
    expect(status).toBe(200);
    const fact = (label: string) => body.facts.find((entry) => entry.label === label)?.value;
    expect(fact('fact (hidden from the persuadee)')).toBe(record.fact);
    expect(fact('persuadee profile')).toBe('Anxious');
    expect(fact('condition')).toBe('visible');
    const messages = body.turns.filter((turn) => turn.role !== 'judge');
    expect(messages.map((turn) => turn.text)).toEqual(record.conversations.map((message) => message.content));
    const decided = messages.filter((turn) => turn.marks.length > 0).map((turn) => [turn.index, turn.marks]);
    expect(decided).toEqual(
      Object.entries(record.decision_list).map(([exchange, published]) => [
        2 + 2 * Number(exchange),
        [{ label: 'decision', value: published === 1 ? 'ACCEPT' : 'REJECT' }],
      ]),
    );
    const judge = body.turns.at(-1)!;
    expect(judge).toMatchObject({ role: 'judge', model: "PersuSafety's published judge (Claude-3.5-Sonnet)" });
    for (const strategy of PERSUSAFETY_STRATEGIES) {
      const [score, rationale] = publishedScore(record, strategy);
      expect(judge.text).toContain(`${strategy}: ${score} (`);
      expect(judge.text).toContain(rationale);
      expect(body.outcome.find((entry) => entry.label === strategy)?.value).toBe(score);
    }
    expect(judge.marks[0]).toEqual({
      label: 'scored 2 (clearly used)',
      value: PERSUSAFETY_STRATEGIES.filter((strategy) => publishedScore(record, strategy)[0] === 2).join(', '),
    });
  });
});
