import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INTERVALS } from '../src/metrics/intervals/claim-estimates.js';
import { PERSUSAFETY_STRATEGIES, PERSUSAFETY_STRATEGY_SPELLINGS } from '../src/protocols/persusafety/persusafety-facts.js';
import { type PersusafetyRecord, readPersusafetyRecord } from '../src/protocols/persusafety/persusafety-record.js';
import { persusafetyStrategyShares } from '../src/protocols/persusafety/persusafety-strategy-shares.js';
import { openStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';
import { describeWithTestData } from './support/test-data.js';

/** Published-format results written for these tests, with made-up texts (test/fixtures/README.md). */
const FIXTURE_TREE = fileURLToPath(new URL('./fixtures/persusafety-results', import.meta.url));
const ANXIOUS = join(FIXTURE_TREE, 'example-model', 'ethical_personality_visible', 'scores', 'default__Anxious.json');

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-import-persusafety-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const sha256Of = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Every JSON file under a folder's `scores/` folders. */
function scoresFiles(root: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && basename(dirname(path)) === 'scores' && path.endsWith('.json')) found.push(path);
  }
  return found.sort();
}

/** A run's stored records, read back by PersuSafety's schema, by key; and its stored config. */
function storedRun(store: string, run: string): { records: Map<string, PersusafetyRecord>; config: unknown; status: string } {
  const opened = openStore(store, { access: 'read' });
  try {
    const found = opened.findRun(run);
    const records = new Map([...opened.protocolRecords.list(found.id)].map((stored) => [stored.itemKey, readPersusafetyRecord(run, stored)]));
    return { records, config: found.storedConfig, status: found.status };
  } finally {
    opened.close();
  }
}

interface PublishedRecord {
  id: number;
  final_state: string;
  eval_scores: Record<string, [number, string]>;
}

/**
 * What a results file says, counted by this test from the file itself: per strategy (either spelling of the
 * ninth), how many records its judge scored 2 and 1; how many the persuadee accepted and rejected.
 */
function countedFromFile(path: string) {
  const records = JSON.parse(readFileSync(path, 'utf8')) as PublishedRecord[];
  const byStrategy = new Map<string, { two: number; one: number }>();
  for (const record of records) {
    for (const [key, [score]] of Object.entries(record.eval_scores)) {
      const strategy = PERSUSAFETY_STRATEGY_SPELLINGS[key] ?? key;
      const count = byStrategy.get(strategy) ?? { two: 0, one: 0 };
      byStrategy.set(strategy, { two: count.two + (score === 2 ? 1 : 0), one: count.one + (score === 1 ? 1 : 0) });
    }
  }
  const accepted = records.filter((record) => record.final_state === 'ACCEPT').length;
  const rejected = records.filter((record) => record.final_state === 'REJECT').length;
  return { records: records.length, byStrategy, accepted, rejected };
}

/** Checks the shares pmiyc recomputes from the stored run against the counts this test made of each file. */
function expectSharesOfFiles(records: readonly PersusafetyRecord[], files: readonly string[]): void {
  const groups = persusafetyStrategyShares(records, DEFAULT_INTERVALS);
  for (const file of files) {
    const [profile] = basename(file, '.json').split('__').slice(1);
    const study = basename(dirname(dirname(file))).replace(/_(visible|invisible)$/, '');
    const group = groups.find((candidate) => candidate.study === study && candidate.profile === profile);
    const counted = countedFromFile(file);
    expect(group, file).toBeDefined();
    expect(group!.conversations, file).toBe(counted.records);
    for (const shares of group!.strategies) {
      const count = counted.byStrategy.get(shares.strategy)!;
      expect([shares.clearlyUsed.count, shares.ambiguous.count], `${file}: ${shares.strategy}`).toEqual([count.two, count.one]);
      expect(shares.clearlyUsed.share, `${file}: ${shares.strategy}`).toBeCloseTo(count.two / counted.records, 12);
      expect(shares.ambiguous.share, `${file}: ${shares.strategy}`).toBeCloseTo(count.one / counted.records, 12);
    }
    expect([group!.accepted.count, group!.rejected.count], file).toEqual([counted.accepted, counted.rejected]);
  }
}

async function importInto(store: string, run: string, ...paths: string[]) {
  return runCli(['import', 'persusafety', ...paths, '--run', run, '--store', store]);
}

describe('pmiyc import persusafety', () => {
  it("stores each conversation of a results tree with its scene, decisions and the paper judge's scores, and keeps where it came from", async () => {
    const store = join(folder, 'fixture.db');
    const imported = await importInto(store, 'published', FIXTURE_TREE);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('Imported 7 conversations of PersuSafety from 3 results files into the new run published');
    expect(imported.stdout).toContain(
      `${ANXIOUS} (ethical_personality: example-model (default) persuading Anxious, the profile shown to the persuader): 3 records: 3 added`,
    );

    const { records, config, status } = storedRun(store, 'published');
    expect(status).toBe('completed');
    expect([...records.keys()]).toEqual([
      'example-model/cross_personality_study/visible/default__Conflict-Averse/0000',
      'example-model/cross_personality_study/visible/default__Conflict-Averse/0001',
      'example-model/ethical_personality/visible/default__Anxious/0000',
      'example-model/ethical_personality/visible/default__Anxious/0001',
      'example-model/ethical_personality/visible/default__Anxious/0002',
      'example-model/ethical_personality/visible/default__Resilient/0000',
      'example-model/ethical_personality/visible/default__Resilient/0001',
    ]);
    const first = records.get('example-model/ethical_personality/visible/default__Anxious/0000')!;
    expect(first).toMatchObject({
      source: { file: ANXIOUS, sha256: sha256Of(ANXIOUS), recordIndex: 0 },
      persuader: 'example-model',
      study: 'ethical_personality',
      condition: 'visible',
      persuaderProfile: 'default',
      profile: 'Anxious',
      finalDecision: 'ACCEPT',
      decisions: [
        { turn: 0, decision: 'REJECT' },
        { turn: 1, decision: 'ACCEPT' },
      ],
      judgement: { judge: "PersuSafety's published judge (Claude-3.5-Sonnet)", published: true },
    });
    expect(first.scene.fact).toBe('The garden needs help two hours a month; nothing is lost if Sam says no.');
    expect(first.messages.map((message) => message.role)).toEqual(['system', 'persuader', 'persuadee', 'persuader', 'persuadee']);
    // The file spells the ninth strategy "Exploiting Vulnerable Individuals"; it is stored as PersuSafety's checklist names it.
    expect(first.judgement.scores.map((score) => score.strategy)).toEqual([...PERSUSAFETY_STRATEGIES]);
    expect(first.judgement.scores[8]).toEqual({ strategy: 'Exploiting Vulnerability', score: 2, rationale: 'Used plainly more than once.' });

    expect(config).toMatchObject({
      command: 'protocol',
      protocol: 'persusafety',
      simulated: [],
      design: { kind: 'imported', format: 'persusafety-published', judge: "PersuSafety's published judge (Claude-3.5-Sonnet)" },
    });
    const design = (config as { design: { imports: Array<{ importedAt: string; files: unknown[] }> } }).design;
    expect(design.imports).toHaveLength(1);
    expect(design.imports[0]!.files).toContainEqual({
      path: ANXIOUS,
      sha256: sha256Of(ANXIOUS),
      persuader: 'example-model',
      study: 'ethical_personality',
      condition: 'visible',
      persuaderProfile: 'default',
      profile: 'Anxious',
      records: 3,
      added: 3,
    });
    expectSharesOfFiles([...records.values()], scoresFiles(FIXTURE_TREE));
  });

  it('adds nothing when the same files are imported again, or a copy of them, and leaves the run as it was', async () => {
    const store = join(folder, 'twice.db');
    expect((await importInto(store, 'twice', ANXIOUS)).code).toBe(0);
    const before = storedRun(store, 'twice');
    const again = await importInto(store, 'twice', FIXTURE_TREE);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      `${ANXIOUS} (ethical_personality: example-model (default) persuading Anxious, the profile shown to the persuader): 3 records: 0 added, 3 already in the run`,
    );
    const copy = join(folder, 'copy', 'example-model', 'ethical_personality_visible', 'scores', 'default__Anxious.json');
    mkdirSync(dirname(copy), { recursive: true });
    cpSync(ANXIOUS, copy);
    const fromCopy = await importInto(store, 'twice', copy);
    expect(fromCopy.stdout).toContain('Nothing added: all 3 conversations of the 1 results file are already in run twice');
    const after = storedRun(store, 'twice');
    expect(after.records.size).toBe(7);
    const imports = (run: { config: unknown }) => (run.config as { design: { imports: unknown[] } }).design.imports;
    // The second import added the other two files; the copy added nothing and left no entry.
    expect(imports(after)).toHaveLength(2);
    expect(imports(after)[0]).toEqual(imports(before)[0]);
    expect(after.records.get('example-model/ethical_personality/visible/default__Anxious/0000')).toEqual(
      before.records.get('example-model/ethical_personality/visible/default__Anxious/0000'),
    );
  });

  it('refuses malformed records with exit 2, naming the file and each record by index, before a store is made', async () => {
    const broken = join(folder, 'broken', 'example-model', 'ethical_personality_visible', 'scores', 'default__Anxious.json');
    const records = JSON.parse(readFileSync(ANXIOUS, 'utf8')) as Array<Record<string, unknown>>;
    delete (records[1]!['eval_scores'] as Record<string, unknown>)['Social Isolation'];
    records[2]!['final_state'] = 'MAYBE';
    mkdirSync(dirname(broken), { recursive: true });
    writeFileSync(broken, JSON.stringify(records));
    const store = join(folder, 'broken.db');
    const result = await importInto(store, 'broken', broken);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${broken}: record 1: "eval_scores" has no score of Social Isolation: the judge scores all 15 strategies`);
    expect(result.stderr).toContain(`${broken}: record 2: "final_state" is "MAYBE": it must be ACCEPT, REJECT or n-a`);
    expect(existsSync(store)).toBe(false);
    writeFileSync(broken, '[{"id": 0');
    const notJson = await importInto(store, 'broken', broken);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain(`${broken} is not JSON`);
  });

  it("asks for what a file's path does not say, and takes it from the flags", async () => {
    const loose = join(folder, 'loose', 'anxious-results.json');
    mkdirSync(dirname(loose), { recursive: true });
    cpSync(ANXIOUS, loose);
    const store = join(folder, 'loose.db');
    const refused = await importInto(store, 'loose', loose);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `${loose} does not say whose conversations it holds (its path is not PersuSafety's <persuader>/<study>_<visible|invisible>/scores/<persuader profile>__<profile>.json): give --persuader, --study, --condition, --profile`,
    );
    const flagged = await runCli([
      'import',
      'persusafety',
      loose,
      '--run',
      'loose',
      '--store',
      store,
      '--persuader',
      'mine',
      '--study',
      'ethical_personality',
      '--condition',
      'invisible',
      '--profile',
      'Anxious',
    ]);
    expect(flagged.code).toBe(0);
    expect([...storedRun(store, 'loose').records.keys()][0]).toBe('mine/ethical_personality/invisible/Anxious/0000');
    const badProfile = await runCli(['import', 'persusafety', loose, '--run', 'loose', '--store', store, '--profile', 'Stoic']);
    expect(badProfile.code).toBe(2);
    expect(badProfile.stderr).toMatch(/--profile/);
  });

  it('refuses another conversation under a scene the run holds, a run of another kind, and a folder with no scores', async () => {
    const store = join(folder, 'clash.db');
    expect((await importInto(store, 'clash', ANXIOUS)).code).toBe(0);
    const other = join(folder, 'other', 'example-model', 'ethical_personality_visible', 'scores', 'default__Anxious.json');
    const records = JSON.parse(readFileSync(ANXIOUS, 'utf8')) as Array<Record<string, unknown>>;
    records[1]!['final_state'] = 'ACCEPT';
    mkdirSync(dirname(other), { recursive: true });
    writeFileSync(other, JSON.stringify(records, null, 4));
    const clash = await importInto(store, 'clash', other);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain(
      `${other}: record 1: run clash already holds example-model/ethical_personality/visible/default__Anxious/0001 with another conversation (record 1 of ${ANXIOUS}): import this file into another run (--run NEW)`,
    );
    expect(storedRun(store, 'clash').records.get('example-model/ethical_personality/visible/default__Anxious/0001')!.finalDecision).toBe('REJECT');
    const both = await importInto(join(folder, 'both.db'), 'both', ANXIOUS, other);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      `${other}: record 1: it is example-model/ethical_personality/visible/default__Anxious/0001, as is record 1 of ${ANXIOUS}, with another conversation`,
    );

    const official = fileURLToPath(new URL('./fixtures/official-results/experiments', import.meta.url));
    expect((await runCli(['import', 'official', official, '--run', 'official', '--store', store])).code).toBe(0);
    const intoOfficial = await importInto(store, 'official', ANXIOUS);
    expect(intoOfficial.code).toBe(2);
    expect(intoOfficial.stderr).toContain("run official is made by `pmiyc import`, not an import of PersuSafety's results: import into a new run (--run NEW)");

    const empty = join(folder, 'empty');
    mkdirSync(empty, { recursive: true });
    writeFileSync(join(empty, 'notes.json'), '[]');
    const none = await importInto(store, 'clash', empty);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`${empty} holds no scores/*.json`);
  });
});

describeWithTestData("pmiyc import persusafety on PersuSafety's published sample", (data) => {
  it("stores its 300 conversations, and the shares of each strategy the paper's judge scored 2 and 1, per study and profile, are the files' own", async () => {
    const results = join(data.data, 'benchmarks', 'persusafety', 'results');
    const store = join(folder, 'published.db');
    const imported = await importInto(store, 'claude', results);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('Imported 300 conversations of PersuSafety from 10 results files into the new run claude');
    const { records } = storedRun(store, 'claude');
    expect(records.size).toBe(300);
    const files = scoresFiles(results);
    expect(files).toHaveLength(10);
    expectSharesOfFiles([...records.values()], files);
    // One conversation reached no decision (n-a): in neither rate.
    expect([...records.values()].filter((record) => record.finalDecision === null)).toHaveLength(1);
    const again = await importInto(store, 'claude', results);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Nothing added: all 300 conversations of the 10 results files are already in run claude');
  });
});
