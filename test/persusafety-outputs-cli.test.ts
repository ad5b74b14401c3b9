import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSUSAFETY_STRATEGIES } from '../src/protocols/persusafety/persusafety-facts.js';
import { runCli } from './cli-helpers.js';
import {
  groupKey,
  type PublishedGroupCounts,
  type PublishedResultsFile,
  publishedGroupCounts,
  publishedResultsFiles,
  publishedScore,
} from './support/persusafety-published-counts.js';
import { describeWithTestData } from './support/test-data.js';

/**
 * `pmiyc report`, `export` and `show` of PersuSafety's published results imported with `pmiyc import persusafety`:
 * every share, score and decision they give is checked against what this test counts in the results files
 * themselves (their `eval_scores`, `final_state` and `decision_list`), never against hard-coded numbers.
 */

const FIXTURE_TREE = fileURLToPath(new URL('./fixtures/persusafety-results', import.meta.url));
const RUN = 'published';

let folder: string;
let store: string;
let files: PublishedResultsFile[];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-persusafety-outputs-'));
  store = join(folder, 'runs.db');
  const imported = await runCli(['import', 'persusafety', FIXTURE_TREE, '--run', RUN, '--store', store]);
  expect(imported.code, imported.stderr).toBe(0);
  files = publishedResultsFiles(FIXTURE_TREE);
}, 60_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

type Share = { share: number | null; count: number; conversations: number; scenes: number };
interface ReportGroup {
  persuader: string;
  study: string;
  condition: string;
  profile: string;
  conversations: number;
  scenes: number;
  strategies: Array<{ strategy: string; clearlyUsed: Share; ambiguous: Share }>;
  accepted: Share;
  rejected: Share;
  undecided: number;
}
interface ReportJson {
  kind: string;
  protocols: Array<{ run: string; protocol: string; conversations: number; figures: { conversations: number; groups: ReportGroup[] } }>;
}

/** Writes the report of the run into its own folder, and reads its files back. */
async function report(storePath: string, run: string, out: string) {
  const result = await runCli(['report', '--store', storePath, '--run', run, '--out', join(folder, out)]);
  expect(result.code, result.stderr).toBe(0);
  return (file: string) => readFileSync(join(folder, out, file), 'utf8');
}

/** report.json's groups against the counts made of the files: every group, every strategy's 2s and 1s, the decisions. */
function expectGroupsOfFiles(groups: readonly ReportGroup[], counts: ReadonlyMap<string, PublishedGroupCounts>): void {
  expect(groups.map((group) => groupKey(group.persuader, group.study, group.condition, group.profile)).sort()).toEqual([...counts.keys()].sort());
  for (const group of groups) {
    const key = groupKey(group.persuader, group.study, group.condition, group.profile);
    const counted = counts.get(key)!;
    expect([group.conversations, group.scenes, group.undecided], key).toEqual([counted.conversations, counted.scenes, counted.undecided]);
    expect(group.strategies.map((entry) => entry.strategy)).toEqual([...PERSUSAFETY_STRATEGIES]);
    for (const { strategy, clearlyUsed, ambiguous } of group.strategies) {
      expect([clearlyUsed.count, ambiguous.count], `${key}: ${strategy}`).toEqual([counted.two.get(strategy), counted.one.get(strategy)]);
      expect(clearlyUsed.share, `${key}: ${strategy}`).toBeCloseTo(counted.two.get(strategy)! / counted.conversations, 12);
      expect(ambiguous.share, `${key}: ${strategy}`).toBeCloseTo(counted.one.get(strategy)! / counted.conversations, 12);
      expect(clearlyUsed.scenes).toBe(counted.scenes);
    }
    expect([group.accepted.count, group.rejected.count], key).toEqual([counted.accepted, counted.rejected]);
    if (counted.accepted + counted.rejected > 0) expect(group.accepted.share, key).toBeCloseTo(counted.accepted / (counted.accepted + counted.rejected), 12);
  }
}

const two = (value: number) => value.toFixed(2);

describe('pmiyc report of imported PersuSafety results', () => {
  it("gives each strategy's shares scored 2 and 1 per profile and over all profiles, and the decisions, as the files count them", async () => {
    const read = await report(store, RUN, 'fixture');
    const json = JSON.parse(read('report.json')) as ReportJson;
    expect(json.kind).toBe('protocols');
    const [section] = json.protocols;
    expect(section).toMatchObject({ run: RUN, protocol: 'persusafety', conversations: 7 });
    const counts = publishedGroupCounts(files, PERSUSAFETY_STRATEGIES);
    expectGroupsOfFiles(section!.figures.groups, counts);

    // The judge is named as the paper's, and the figures as recomputed from its published scores.
    const markdown = read('report.md');
    expect(markdown).toContain('## PersuSafety: how ethically does a model persuade? (run published)');
    expect(markdown).toContain("The judge is the paper's: PersuSafety's published judge (Claude-3.5-Sonnet), published scores, imported.");
    expect(markdown).toContain('every figure below is recomputed here from those published scores');

    // The same shares in every format: the CSV at full precision, report.md and index.html to two places.
    const csv = parse(read(`${RUN}.clearly-used-by-profile.csv`), { columns: true }) as Record<string, string>[];
    expect(Object.keys(csv[0]!).slice(0, 10)).toEqual([
      'persuader',
      'persuaderSimulated',
      'study',
      'condition',
      'strategy',
      'resilient',
      'resilientCiLow',
      'resilientCiHigh',
      'resilientN',
      'resilientThin',
    ]);
    const page = read('index.html');
    for (const file of files) {
      const counted = counts.get(groupKey(file.persuader, file.study, file.condition, file.profile))!;
      const all = counts.get(groupKey(file.persuader, file.study, file.condition, 'all'))!;
      const column = file.profile.charAt(0).toLowerCase() + file.profile.slice(1).replace(/-(.)/g, (_, letter: string) => letter.toUpperCase());
      for (const strategy of PERSUSAFETY_STRATEGIES) {
        const share = counted.two.get(strategy)! / counted.conversations;
        const row = csv.find((entry) => entry['study'] === file.study && entry['strategy'] === strategy)!;
        expect(Number(row[column]), `${file.path}: ${strategy}`).toBeCloseTo(share, 12);
        expect(Number(row[`${column}N`])).toBe(counted.scenes);
        expect(Number(row['allProfiles'])).toBeCloseTo(all.two.get(strategy)! / all.conversations, 12);
        const markdownRow = markdown
          .split('\n')
          .find((line) => line.startsWith(`| example-model | ${file.study.replace(/_/g, '\\_')} | visible | ${strategy} |`))!;
        expect(markdownRow).toContain(`| ${two(share)} `);
        const htmlRow = new RegExp(`<td>${file.study}</td><td>visible</td><td>${strategy}</td>(.*?)</tr>`).exec(page)![1]!;
        expect([...htmlRow.matchAll(/<span class="est">([^<]*)<\/span>/g)].map((match) => match[1])).toContain(two(share));
      }
    }
    const decisions = parse(read(`${RUN}.decisions.csv`), { columns: true }) as Record<string, string>[];
    const anxious = decisions.find((row) => row['profile'] === 'Anxious')!;
    const anxiousCounts = counts.get(groupKey('example-model', 'ethical_personality', 'visible', 'Anxious'))!;
    expect(Number(anxious['accepted'])).toBeCloseTo(anxiousCounts.accepted / (anxiousCounts.accepted + anxiousCounts.rejected), 12);
  }, 60_000);
});

/** What the test reads of an export line. */
interface ExportLine {
  readonly item: string;
  readonly judgement: { readonly scores: unknown };
  readonly messages: ReadonlyArray<{ readonly text: string }>;
}

/** Every record of the files, by the item key pmiyc gives it. */
function recordsByItem(): Map<string, { file: PublishedResultsFile; record: PublishedResultsFile['records'][number] }> {
  const items = new Map<string, { file: PublishedResultsFile; record: PublishedResultsFile['records'][number] }>();
  for (const file of files)
    for (const record of file.records)
      items.set(`${file.persuader}/${file.study}/${file.condition}/${file.persuaderProfile}__${file.profile}/${String(record.id).padStart(4, '0')}`, {
        file,
        record,
      });
  return items;
}

describe('pmiyc export of imported PersuSafety results', () => {
  it("--format jsonl writes a line per conversation with its messages, decisions and the judge's 15 scores as the files give them", async () => {
    const result = await runCli(['export', '--run', RUN, '--format', 'jsonl', '--store', store]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as ExportLine);
    const items = recordsByItem();
    expect(lines.map((line) => line.item)).toEqual([...items.keys()].sort());
    for (const line of lines) {
      const { record } = items.get(line.item)!;
      expect(line).toMatchObject({
        run: RUN,
        protocol: 'persusafety',
        simulated: { persuader: false, judge: false },
        finalDecision: record.final_state === 'n-a' ? null : record.final_state,
      });
      expect(line.judgement.scores).toEqual(
        PERSUSAFETY_STRATEGIES.map((strategy) => {
          const [score, rationale] = publishedScore(record, strategy);
          return { strategy, score, rationale };
        }),
      );
      expect(line.messages.map((message) => message.text)).toEqual(record.conversations.map((message) => message.content));
    }
  }, 60_000);

  it('--format csv writes the conversations with their 15 scores, a row per strategy with its rationale, and the messages with their decisions', async () => {
    const out = join(folder, 'csv');
    const result = await runCli(['export', '--run', RUN, '--format', 'csv', '--out', out, '--store', store]);
    expect(result.code, result.stderr).toBe(0);
    const records = files.flatMap((file) => file.records);
    const messages = records.reduce((total, record) => total + record.conversations.length, 0);
    expect(result.stdout).toBe(
      `wrote persusafety-conversations.csv (${records.length} rows), persusafety-strategies.csv (${records.length * 15} rows), persusafety-messages.csv (${messages} rows) of run ${RUN} to ${out}\n`,
    );
    expect(readdirSync(out).sort()).toEqual(['persusafety-conversations.csv', 'persusafety-messages.csv', 'persusafety-strategies.csv']);
    const read = (name: string) => parse(readFileSync(join(out, name), 'utf8'), { columns: true }) as Record<string, string>[];
    const items = recordsByItem();
    const conversations = read('persusafety-conversations.csv');
    expect(conversations.map((row) => row['item'])).toEqual([...items.keys()].sort());
    for (const row of conversations) {
      const { file, record } = items.get(row['item']!)!;
      expect(row).toMatchObject({ persuader: file.persuader, study: file.study, condition: file.condition, profile: file.profile, sceneId: String(record.id) });
      expect(row['finalDecision']).toBe(record.final_state === 'n-a' ? '' : record.final_state);
      expect(row['fearMongering']).toBe(String(publishedScore(record, 'Fear-mongering')[0]));
      expect(row['exploitingVulnerability']).toBe(String(publishedScore(record, 'Exploiting Vulnerability')[0]));
      expect(Number(row['strategiesClearlyUsed'])).toBe(PERSUSAFETY_STRATEGIES.filter((strategy) => publishedScore(record, strategy)[0] === 2).length);
    }
    for (const row of read('persusafety-strategies.csv')) {
      const [score, rationale] = publishedScore(items.get(row['item']!)!.record, row['strategy']!);
      expect([row['score'], row['rationale']]).toEqual([String(score), rationale]);
    }
    for (const row of read('persusafety-messages.csv')) {
      const { record } = items.get(row['item']!)!;
      expect(row['text']).toBe(record.conversations[Number(row['messageIndex'])]!.content);
      const published = record.decision_list[row['exchange']!];
      const decision = row['role'] === 'persuadee' && published !== undefined ? (published === 1 ? 'ACCEPT' : 'REJECT') : '';
      expect(row['decision'], `${row['item']} message ${row['messageIndex']}`).toBe(decision);
    }
  }, 60_000);
});

describe('pmiyc show of an imported PersuSafety conversation', () => {
  it("prints the scene, the condition, each message with the decision of its exchange, the judge's scores and the outcome", async () => {
    const key = 'example-model/ethical_personality/visible/default__Anxious/0000';
    const { record } = recordsByItem().get(key)!;
    const result = await runCli(['show', key, '--store', store]);
    expect(result.code, result.stderr).toBe(0);
    const text = result.stdout;
    expect(text).toContain(`${key} · run ${RUN} · persusafety protocol`);
    expect(text).toContain(`fact (hidden from the persuadee): ${record.fact}`);
    expect(text).toMatch(/^persuadee profile: Anxious$/m);
    expect(text).toMatch(/^condition: visible$/m);
    expect(text).toMatch(/^judge: PersuSafety's published judge \(Claude-3\.5-Sonnet\)$/m);
    for (const [exchange, published] of Object.entries(record.decision_list)) {
      const index = 2 + 2 * Number(exchange);
      expect(text).toContain(`${String(index).padStart(3)}  persuadee · turn ${exchange} · decision: ${published === 1 ? 'ACCEPT' : 'REJECT'}`);
    }
    const twos = PERSUSAFETY_STRATEGIES.filter((strategy) => publishedScore(record, strategy)[0] === 2);
    const lastExchange = Math.floor((record.conversations.length - 2) / 2);
    expect(text).toContain(`judge · turn ${lastExchange} · scored 2 (clearly used): ${twos.join(', ')}`);
    for (const strategy of PERSUSAFETY_STRATEGIES) {
      const [score, rationale] = publishedScore(record, strategy);
      expect(text).toContain(`${strategy}: ${score} (`);
      expect(text).toContain(rationale);
    }
    const decisions = Object.entries(record.decision_list).map(([exchange, published]) => `${exchange}: ${published === 1 ? 'ACCEPT' : 'REJECT'}`);
    expect(text).toContain(
      `Outcome: final decision: ${record.final_state} · decisions by exchange: ${decisions.join(', ')} · Manipulative Emotional Appeals: `,
    );
    const json = await runCli(['show', key, '--json', '--store', store]);
    expect(JSON.parse(json.stdout)).toMatchObject({ item: key, protocol: 'persusafety', finalDecision: record.final_state });
  }, 60_000);
});

describeWithTestData("pmiyc report of PersuSafety's published sample", (data) => {
  it("gives, per strategy and profile, the shares the paper's judge scored 2 and 1 that its 300 conversations' files give", async () => {
    const results = join(data.data, 'benchmarks', 'persusafety', 'results');
    const sampleStore = join(folder, 'sample.db');
    const imported = await runCli(['import', 'persusafety', results, '--run', 'claude', '--store', sampleStore]);
    expect(imported.code, imported.stderr).toBe(0);
    const read = await report(sampleStore, 'claude', 'sample');
    const json = JSON.parse(read('report.json')) as ReportJson;
    const [section] = json.protocols;
    expect(section!.conversations).toBe(300);
    const sampleFiles = publishedResultsFiles(results);
    expect(sampleFiles).toHaveLength(10);
    expectGroupsOfFiles(section!.figures.groups, publishedGroupCounts(sampleFiles, PERSUSAFETY_STRATEGIES));
  }, 120_000);
});
