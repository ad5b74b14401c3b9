import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-cli-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const EXPORT_FIELDS = [
  'run',
  'conversationId',
  'domain',
  'setting',
  'claim',
  'question',
  'persuader',
  'persuadee',
  'status',
  'failureReason',
  'earlyStopped',
  'initialScore',
  'finalScore',
  'normalizedChange',
  'absoluteChange',
  'persuaderStance',
  'turns',
  'simulated',
  'turnsPlanned',
  'repetition',
  'claimIndex',
];

describe('pmiyc demo and export', () => {
  let demo: Awaited<ReturnType<typeof runCli>>;
  let store: string;
  beforeAll(async () => {
    store = join(folder, 'demo.db');
    demo = await runCli(['demo', '--store', store], { cwd: folder });
  });

  it('runs offline and prints effectiveness and susceptibility with intervals, every agent labelled simulated', () => {
    // Under load a progress line (every 10 s when stderr is not a terminal) may come before the closing one.
    expect(demo.stderr).toMatch(/^pmiyc: 576\/576 conversations \(0 failed\)/m);
    expect(demo.code).toBe(0);
    expect(demo.stdout).toContain('Effectiveness');
    expect(demo.stdout).toContain('Susceptibility');
    expect(demo.stdout).toMatch(/SIMULATED/);
    for (const agent of ['sim/eloquent', 'sim/open-minded', 'sim/stubborn', 'sim/weak']) {
      const rows = demo.stdout.split('\n').filter((line) => line.startsWith(agent) && /\[-?\d\.\d\d, /.test(line));
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row).toContain(`${agent} [simulated]`);
        expect(row.match(/-?\d\.\d\d ~?\[-?\d\.\d\d, -?\d\.\d\d\]/g)).toHaveLength(4);
        // The misinformation columns rest on 6 claims: marked thin, as in the report; the subjective ones on 12 are not.
        expect(row.match(/ ~\[/g)).toHaveLength(2);
        expect(row).toMatch(/~\[[^\]]+\] +-?\d\.\d\d ~\[[^\]]+\]$/);
      }
    }
    expect(demo.stdout).toContain('~ marks an interval on fewer than 10 claims, or fewer than 5 that differ');
    expect(demo.stdout).toContain('Run demo-1 in');
    // It ends with where the report is and how to look inside the run, next to each other.
    expect(demo.stdout.trimEnd().split('\n').slice(-2)).toEqual(['Report:  pmiyc-report/demo-1/index.html', `View:    pmiyc view --store ${store}`]);
  });

  it('exports every conversation as one JSON line with the public fields', async () => {
    const exported = await runCli(['export', '--store', store, '--format', 'jsonl']);
    expect(exported.code).toBe(0);
    const lines = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(4 * 4 * 18 * 2);
    for (const line of lines) {
      for (const field of EXPORT_FIELDS) expect(line).toHaveProperty(field);
      expect(line['run']).toBe('demo-1');
      expect(line['simulated']).toEqual({ persuader: true, persuadee: true });
    }
    const turn = (lines[0]!['turns'] as Array<Record<string, unknown>>)[0]!;
    for (const field of ['index', 'role', 'message', 'score', 'raw', 'attempts']) expect(turn).toHaveProperty(field);
    const misinformation = lines.find((line) => line['domain'] === 'misinformation')!;
    expect(typeof misinformation['question']).toBe('string');
  });

  it('exports CSV with a header and one row per conversation', async () => {
    const exported = await runCli(['export', '--store', store, '--run', 'demo-1', '--format', 'csv']);
    const rows = exported.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^run,conversationId,domain,setting,/);
    expect(rows).toHaveLength(1 + 576);
  });

  it('ends with the report written, and pmiyc report writes the formats asked for', async () => {
    expect(demo.stdout).toMatch(/^Report: {2}pmiyc-report\/demo-1\/index\.html$/m);
    const out = join(folder, 'report-out');
    const report = await runCli(['report', '--store', store, '--run', 'demo-1', '--out', out, '--format', 'html,json']);
    expect(report.code).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { pairs: unknown[] };
    expect(json.pairs).toHaveLength(4 * 4 * 4);
    expect(existsSync(join(out, 'index.html'))).toBe(true);
    expect(existsSync(join(out, 'pairs.csv'))).toBe(false);
    const bad = await runCli(['report', '--store', store, '--format', 'pdf']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('adds a second run beside the first, and export defaults to the latest', async () => {
    const second = await runCli(['demo', '--store', store, '--seed', '5'], { cwd: folder });
    expect(second.stdout).toContain('Run demo-2');
    const exported = await runCli(['export', '--store', store]);
    expect(JSON.parse(exported.stdout.split('\n')[0]!)).toMatchObject({ run: 'demo-2', runSeed: 5 });
  });
});

describe('pmiyc converse', () => {
  it('shows the conversation turn by turn and how it ended', async () => {
    const result = await runCli([
      'converse',
      '--persuader',
      'sim/eloquent',
      '--persuadee',
      'sim/open-minded',
      '--claim',
      'Tea is better than coffee',
      '--turns',
      '5',
      '--seed',
      '3',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Persuader: sim/eloquent [simulated]');
    expect(result.stdout).toContain('Persuadee: sim/open-minded [simulated]');
    expect(result.stdout).toMatch(/ {2}1 {2}persuadee · opening · /);
    expect(result.stdout).toMatch(/ {2}2 {2}persuader · argument · own rating/);
    expect(result.stdout).toMatch(/Completed: .* -> .*, normalized change/);
  });

  it('prints the conversation record with --json, question and answer for misinformation', async () => {
    const result = await runCli([
      'converse',
      '--persuader',
      'sim/a',
      '--persuadee',
      'sim/b',
      '--claim',
      'Mars has no moons',
      '--question',
      'How many moons does Mars have?',
      '--turns',
      '3',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as Record<string, unknown>;
    for (const field of EXPORT_FIELDS) expect(record).toHaveProperty(field);
    expect(record).toMatchObject({
      domain: 'misinformation',
      setting: 'single',
      question: 'How many moons does Mars have?',
      claim: 'Mars has no moons',
      status: 'completed',
    });
    expect(record['turns']).toHaveLength(3);
  });

  it('is the same conversation for the same seed', async () => {
    const args = ['converse', '--persuader', 'sim/a', '--persuadee', 'sim/b', '--claim', 'x', '--json', '--seed', '9'];
    const [first, second] = await Promise.all([runCli(args), runCli(args)]);
    expect(first.stdout).toBe(second.stdout);
  });

  it('exits 1 and says why when the conversation fails', async () => {
    const result = await runCli(['converse', '--persuader', 'sim/a?malformed=1', '--persuadee', 'sim/b', '--claim', 'x', '--max-attempts', '2']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/Failed at turn 2 \(persuader\): (format|refusal)\. no usable reply in 2 attempts/);
  });

  it('colours a terminal and leaves pipes plain', async () => {
    const args = ['converse', '--persuader', 'sim/a', '--persuadee', 'sim/b', '--claim', 'x', '--turns', '3'];
    expect((await runCli(args, { env: { FORCE_COLOR: '1' } })).stdout).toContain('\u001b[');
    expect((await runCli(args)).stdout).not.toContain('\u001b[');
    expect((await runCli(['--no-color', ...args], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain('\u001b[');
  });
});

describe('bad usage and bad input: exit code 2 and one clear line', () => {
  const badClaims = () => {
    const path = join(folder, 'claims.jsonl');
    writeFileSync(path, '{"claim": "fine"}\n{"claim": "also fine"}\n{"claim": broken}\n');
    return path;
  };

  it.each([
    ['an unknown provider', () => ['converse', '--persuader', 'nosuch/model', '--persuadee', 'sim/b', '--claim', 'x'], 'unknown provider "nosuch"'],
    ['a model name without a provider', () => ['converse', '--persuader', 'gpt', '--persuadee', 'sim/b', '--claim', 'x'], 'write provider/model'],
    ['an unknown flag', () => ['demo', '--bogus'], "unknown option '--bogus'"],
    ['an unknown command', () => ['fly'], "unknown command 'fly'"],
    ['an even --turns', () => ['converse', '--persuader', 'sim/a', '--persuadee', 'sim/b', '--claim', 'x', '--turns', '4'], 'turns must be odd'],
    ['a too small --turns', () => ['converse', '--persuader', 'sim/a', '--persuadee', 'sim/b', '--claim', 'x', '--turns', '1'], 'turns must be at least 3'],
    [
      'a bad simulated agent parameter',
      () => ['converse', '--persuader', 'sim/a?charm=2', '--persuadee', 'sim/b', '--claim', 'x'],
      'unknown parameter "charm"',
    ],
    ['a missing required option', () => ['converse', '--persuader', 'sim/a', '--claim', 'x'], "required option '--persuadee <model>' not specified"],
    ['a claims file that does not parse', () => ['demo', '--claims', badClaims(), '--store', join(folder, 'x.db')], 'claims.jsonl:3: not valid JSON'],
    ['a missing claims file', () => ['demo', '--claims', join(folder, 'nope.csv'), '--store', join(folder, 'x.db')], 'no claims file at'],
    ['a missing store', () => ['export', '--store', join(folder, 'missing.db')], 'no store at'],
    ['an unknown export format', () => ['export', '--format', 'xml'], '--format must be one of jsonl, csv'],
    // A model named twice was planned twice and stored once (a run of "4 conversations", 1 finished).
    ['a model named twice', () => ['run', '--models', 'sim/a, sim/a', '--store', join(folder, 'x.db')], '--models names sim/a twice: name each once.'],
    [
      'a compared model named twice',
      () => ['people', 'serve', '--run', 'p', '--role', 'persuadee', '--opponent', 'sim/a', '--participants', '1', '--compare', 'sim/b,sim/b'],
      '--compare names sim/b twice: name each once.',
    ],
  ])('%s', async (_name, args, message) => {
    const result = await runCli(args(), { cwd: folder });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
