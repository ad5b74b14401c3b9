import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApeStoredRecord } from '../src/protocols/ape/run/ape-record.js';
import { runCli } from './cli-helpers.js';
import { apeLoopbackAnswer, apeMessagesOf, apeRunArgs, readApeRecords, writeApeModelsConfig } from './support/ape-loopback.js';
import { FakeProviderServer, RESPONSE_SHAPES, type RecordedRequest } from './support/fake-provider-server.js';

/**
 * `pmiyc export`, `pmiyc show` and `pmiyc runs` of an APE run made against a loopback server: the JSON lines and
 * the two CSV files hold what the store holds (every value recomputed here from the stored records), `show` prints
 * one conversation by its item key, and `runs` lists the run as APE's with its conversations. The server plants
 * the cases a reader must see: a persuader message its provider filtered (withheld, a refusal), an evaluator
 * answer that cannot be read (unread), and the refusal check's readings; the run's evaluator is marked simulated,
 * as a run with a simulated evaluator stores it.
 */

let folder: string;
let server: FakeProviderServer;
let store: string;
let records: Array<{ readonly itemKey: string; readonly record: ApeStoredRecord }>;

const persuaderTurn = (request: RecordedRequest) => apeMessagesOf(request).filter((message) => message.role === 'assistant').length + 1;

/** The loopback's planted answers, with a filtered third refusal and an unreadable evaluator answer on every "no attempt". */
function answer(request: RecordedRequest) {
  const text = apeLoopbackAnswer(request);
  const filtered = text.startsWith('PLANTED-REFUSAL') && persuaderTurn(request) === 3;
  if (filtered) {
    const body = RESPONSE_SHAPES.openaiChat('Here is how one might');
    return { status: 200, body: { ...body, choices: [{ ...body.choices[0]!, finish_reason: 'content_filter' }] } };
  }
  const unread = text.includes('"class":"no-attempt"');
  return { status: 200, body: RESPONSE_SHAPES.openaiChat(unread ? 'I would rather not say.' : text) };
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-ape-outputs-'));
  server = await FakeProviderServer.start();
  server.answerWith(answer);
  const config = writeApeModelsConfig(folder, server.url);
  store = join(folder, 'ape.db');
  for (const run of ['ape-out', 'ape-again']) {
    const made = await runCli(apeRunArgs(store, config, '--run', run, '--refusal-check', 'judge', '--state-degree'));
    expect(made.code, made.stderr).toBe(0);
  }
  const database = new Database(store);
  database.prepare(`UPDATE runs SET config = json_set(config, '$.simulated', json('["judge"]')) WHERE name = 'ape-out'`).run();
  database.close();
  records = readApeRecords(store, 'ape-out');
}, 180_000);
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

const cell = (value: string | number | boolean | null | undefined) => (value === null || value === undefined ? '' : String(value));
type Turn = ApeStoredRecord['turns'][number];
const classOf = (turn: Turn) =>
  turn.evaluation.status === 'withheld' ? 'refusal' : turn.evaluation.status === 'read' ? turn.evaluation.value.turnClass : null;

/** What both files open with, from a stored record: the judge is the simulated one. */
const planCells = (itemKey: string, record: ApeStoredRecord) => ({
  run: 'ape-out',
  item: itemKey,
  persuader: record.persuader,
  // No variant: the agent is its model under APE's own prompt.
  persuaderBaseModel: record.persuader,
  persuaderVariant: 'default',
  persuadee: 'person',
  evaluator: 'judge',
  refusalCheckModel: 'judge',
  persuaderSimulated: 'false',
  persuadeeSimulated: 'false',
  evaluatorSimulated: 'true',
  refusalCheckSimulated: 'true',
  topicIndex: cell(record.topicIndex),
  repetition: cell(record.repetition),
  category: record.category,
  shortTitle: record.shortTitle,
  direction: record.direction,
  startingBelief: cell(record.startingBelief),
  degreeTold: cell(record.degree),
  degreeDrawn: cell(record.drawnDegree),
});

describe('pmiyc export of an APE run', () => {
  it('--format jsonl writes one line per conversation: the run, the item, which models were simulated, and the whole stored record', async () => {
    const result = await runCli(['export', '--run', 'ape-out', '--format', 'jsonl', '--store', store]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual(
      records.map(({ itemKey, record }) => ({
        run: 'ape-out',
        protocol: 'ape',
        item: itemKey,
        simulated: { persuader: false, persuadee: false, evaluator: true, refusalCheck: true },
        ...JSON.parse(JSON.stringify(record)),
      })),
    );
  }, 60_000);

  it('--format csv --out DIR writes ape-conversations.csv and ape-turns.csv, every value as the store holds it', async () => {
    const out = join(folder, 'csv');
    const result = await runCli(['export', '--run', 'ape-out', '--format', 'csv', '--out', out, '--store', store]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`wrote ape-conversations.csv (24 rows), ape-turns.csv (72 rows) of run ape-out to ${out}\n`);
    expect(readdirSync(out).sort()).toEqual(['ape-conversations.csv', 'ape-turns.csv']);

    const conversations = parse(readFileSync(join(out, 'ape-conversations.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    expect(conversations).toEqual(
      records.map(({ itemKey, record }) => {
        const classes = record.turns.map(classOf);
        const last = record.turns.at(-1)!.reply.belief;
        return {
          ...planCells(itemKey, record),
          statement: record.statement,
          turns: '3',
          classes: classes.map((turnClass) => turnClass ?? 'unread').join(';'),
          refusalTurns: cell(classes.filter((turnClass) => turnClass === 'refusal').length),
          noAttemptTurns: cell(classes.filter((turnClass) => turnClass === 'no-attempt').length),
          attemptTurns: cell(classes.filter((turnClass) => turnClass === 'attempt').length),
          unreadTurns: cell(classes.filter((turnClass) => turnClass === null).length),
          withheldTurns: cell(record.turns.filter((turn) => turn.persuader.withheld).length),
          finalBelief: cell(last),
          beliefChange: cell(last - record.startingBelief),
        };
      }),
    );

    const turns = parse(readFileSync(join(out, 'ape-turns.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    expect(turns).toEqual(
      records.flatMap(({ itemKey, record }) =>
        record.turns.map((turn, index) => {
          const check = turn.refusalCheck!;
          const read = check.status === 'read' ? check.value : undefined;
          return {
            ...planCells(itemKey, record),
            turn: cell(turn.turn),
            turnClass: cell(classOf(turn)),
            degreeRead: turn.evaluation.status === 'read' ? cell(turn.evaluation.value.degree) : '',
            beliefBefore: cell(index === 0 ? record.startingBelief : record.turns[index - 1]!.reply.belief),
            beliefAfter: cell(turn.reply.belief),
            withheld: cell(turn.persuader.withheld),
            unreadProblem: turn.evaluation.status === 'unread' ? turn.evaluation.problem : '',
            refusalCheckStatus: check.status,
            refusalCheckRefused: cell(read?.refused),
            refusalCheckConvincing: cell(read?.convincing),
            refusalCheckSpecific: cell(read?.specific),
          };
        }),
      ),
    );
    // The planted cases are in the files: withheld refusals, unread evaluations, both classes read.
    expect(new Set(turns.map((row) => row.turnClass))).toEqual(new Set(['attempt', 'refusal', '']));
    expect(turns.filter((row) => row['withheld'] === 'true')).toHaveLength(4);
    expect(turns.filter((row) => row['unreadProblem'] !== '')).toHaveLength(16);
  }, 60_000);

  it('says what to type for a CSV export without --out, a turns-csv export, or --out where the export goes to standard output', async () => {
    const cases: Array<[string[], string]> = [
      [['--format', 'csv'], 'whose CSV export is several files: name a folder for them, pmiyc export --run ape-out --format csv --out DIR'],
      [['--format', 'turns-csv'], 'whose turns are a file of its CSV export: pmiyc export --run ape-out --format csv --out DIR'],
      [['--format', 'jsonl', '--out', join(folder, 'nowhere')], '--format jsonl goes to standard output: redirect it (> FILE)'],
      [['--format', 'jsonl', '--skip-damaged'], 'is exported whole or not at all'],
    ];
    for (const [flags, said] of cases) {
      const refused = await runCli(['export', '--run', 'ape-out', ...flags, '--store', store]);
      expect(refused.code, flags.join(' ')).toBe(2);
      expect(refused.stderr).toContain(said);
    }
    expect(readdirSync(folder)).not.toContain('nowhere');
  }, 60_000);

  it('replaces an earlier export whole and leaves no temporary file', async () => {
    const out = join(folder, 'again');
    const first = await runCli(['export', '--run', 'ape-out', '--format', 'csv', '--out', out, '--store', store]);
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(join(out, 'ape-turns.csv'), 'stale\n');
    const second = await runCli(['export', '--run', 'ape-out', '--format', 'csv', '--out', out, '--store', store]);
    expect(second.code, second.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['ape-conversations.csv', 'ape-turns.csv']);
    expect(readFileSync(join(out, 'ape-turns.csv'), 'utf8')).toMatch(/^run,item,persuader,/);
  }, 60_000);
});

describe('pmiyc show of an APE conversation', () => {
  it('prints it by its item key: the plan, who took part (simulated labelled), each message with its marks, the outcome', async () => {
    const { itemKey, record } = records.find((entry) => entry.record.persuader === 'careful' && entry.record.turns.some((turn) => turn.persuader.withheld))!;
    const result = await runCli(['show', itemKey, '--run', 'ape-out', '--store', store]);
    expect(result.code, result.stderr).toBe(0);
    const text = result.stdout;
    expect(text).toContain(`${itemKey} · run ape-out · ape protocol`);
    expect(text).toContain(`${record.shortTitle} (${record.category}), persuaded into the statement`);
    expect(text).toContain(`statement: ${record.statement}`);
    expect(text).toContain(`starting belief (0-100): ${record.startingBelief}`);
    expect(text).toMatch(/^persuader: careful$/m);
    expect(text).toMatch(/^evaluator: judge \[simulated\]$/m);
    expect(text).toMatch(/^refusal check: judge \[simulated\]$/m);
    expect(text).toContain(`  0  persuadee · turn 0 · belief (drawn): ${record.startingBelief}`);
    expect(text).toContain('  1  persuader · turn 1 · class: refusal · degree read: 0 · refusal check: refused: yes');
    expect(text).toContain(
      '  5  persuader · turn 3 · class: refusal (the provider withheld the message; no evaluator asked) · refusal check: not asked (withheld)',
    );
    expect(text).toContain(`  6  persuadee · turn 3 · belief: ${record.turns[2]!.reply.belief}`);
    expect(text).toContain('     PLANTED-REFUSAL I will not argue for that.');
    const change = record.turns[2]!.reply.belief - record.startingBelief;
    expect(text).toContain(`Outcome: turn 1: refusal · turn 2: refusal · turn 3: refusal · belief change (0-100): ${change}`);
  }, 60_000);

  it('takes the latest run with the key when --run is not given, saying which others have it; --json prints the export line', async () => {
    const { itemKey } = records[0]!;
    const latest = await runCli(['show', itemKey, '--store', store]);
    expect(latest.code, latest.stderr).toBe(0);
    expect(latest.stdout).toContain(`${itemKey} · run ape-again · ape protocol`);
    expect(latest.stderr).toContain('showing run ape-again; the same item is also in ape-out (choose with --run)');
    const json = await runCli(['show', itemKey, '--run', 'ape-out', '--json', '--store', store]);
    expect(json.code, json.stderr).toBe(0);
    const exported = await runCli(['export', '--run', 'ape-out', '--format', 'jsonl', '--store', store]);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(exported.stdout.split('\n')[0]!));
  }, 60_000);

  it('exits 2 on a key no run has, saying where the ids and item keys are listed', async () => {
    const result = await runCli(['show', 'nobody/topic-0000/repetition-000', '--store', store]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`has no conversation or protocol item nobody/topic-0000/repetition-000: browse the runs with pmiyc view --store ${store}`);
    expect(result.stderr).toContain('the item field of pmiyc export --run NAME --format jsonl');
    const elsewhere = await runCli(['show', records[0]!.itemKey, '--run', 'no-such-run', '--store', store]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(`item ${records[0]!.itemKey} is not in run no-such-run; it is in ape-again, ape-out`);
  }, 60_000);
});

describe('pmiyc runs with an APE run', () => {
  it('lists it as a run of the ape protocol with its conversations finished of those planned, none failed', async () => {
    const result = await runCli(['runs', '--store', store]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ape-out\s+protocol ape\s+completed\s+\S+ \S+\s+24\/24\s+0\s+-\s/m);
    expect(result.stdout).toMatch(/^ape-again\s+protocol ape\s+completed\s/m);
  }, 60_000);
});
