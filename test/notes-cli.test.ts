import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultStore } from '../src/store/result-store.js';
import { CLI, runCli } from './cli-helpers.js';
import { cliInProcess, servedUrl } from './support/cli-in-process.js';
import { handRecord } from './support/hand-records.js';
import { HOSTILE } from './support/hostile-records.js';

let folder: string;
let store: string;

/** Persuadee turns 1 and 3 of a single-turn conversation; turn 2 is the persuader's. */
const first = handRecord({ persuader: 'sim/eloquent', persuadee: 'sim/stubborn', claim: 'c1 Otters hold hands', turns: 3, persuadeeScores: [2], final: 3 });
const second = handRecord({ persuader: 'sim/stubborn', persuadee: 'sim/eloquent', claim: 'c2 Moss grows north', turns: 3, persuadeeScores: [3], final: 4 });
const HOSTILE_NOTE = `quoted "twice", a comma, a line\nbreak and ${HOSTILE.script}`;

function buildStore(path: string): void {
  const writer = ResultStore.open(path, { now: () => new Date('2026-12-02T04:00:00Z') });
  const add = (name: string) => {
    const run = writer.createRun({ name, seed: 5, packageVersion: 'test', config: { command: 'run' } });
    for (const record of [first, second]) writer.saveConversation(run.id, { ...record, run: name });
    writer.setRunStatus(run.id, 'completed');
    return run.id;
  };
  const graded = add('graded');
  const plain = add('plain');
  const at = (minute: number) => `2026-12-02T04:${String(minute).padStart(2, '0')}:00.000Z`;
  const note = (tag: string | null, grade: 1 | 2 | 3 | 4 | 5 | null, text: string) => ({ tag, grade, note: text });
  writer.notes.add(graded, { conversationId: first.conversationId, turn: null }, note('odd', null, HOSTILE_NOTE), at(1));
  writer.notes.add(graded, { conversationId: first.conversationId, turn: 3 }, note('agreement', 2, ''), at(2));
  // A later grade of the same turn wins.
  writer.notes.add(graded, { conversationId: first.conversationId, turn: 3 }, note('agreement', 3, 'looked again'), at(3));
  writer.notes.add(graded, { conversationId: second.conversationId, turn: 1 }, note('agreement', 3, ''), at(4));
  writer.notes.add(graded, { conversationId: second.conversationId, turn: 3 }, note('hunch', 5, ''), at(5));
  // A grade of a persuader turn is no label.
  writer.notes.add(graded, { conversationId: second.conversationId, turn: 2 }, note('agreement', 4, ''), at(6));
  writer.notes.add(plain, { conversationId: second.conversationId, turn: null }, note(null, 1, 'other run'), at(7));
  writer.close();
}

describe('notes on the command line (issue 32)', () => {
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-notes-cli-'));
    store = join(folder, 'notes.db');
    buildStore(store);
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("exports every run's notes as JSON lines, and one run's as CSV with the same fields", async () => {
    const lines = await runCli(['export', '--notes', '--store', store]);
    expect(lines.code, lines.stderr).toBe(0);
    const notes = lines.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(notes).toHaveLength(7);
    expect(Object.keys(notes[0]!)).toEqual(['run', 'conversationId', 'turn', 'tag', 'grade', 'note', 'createdAt', 'updatedAt', 'id']);
    expect(notes[0]).toMatchObject({ run: 'graded', conversationId: first.conversationId, turn: null, tag: 'odd', grade: null, note: HOSTILE_NOTE });
    expect(notes.at(-1)).toMatchObject({ run: 'plain', turn: null, tag: null, grade: 1, note: 'other run', createdAt: '2026-12-02T04:07:00.000Z' });

    const csv = await runCli(['export', '--notes', '--store', store, '--run', 'graded', '--format', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = parse(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(6);
    expect(rows[0]).toMatchObject({ run: 'graded', turn: '', tag: 'odd', grade: '', note: HOSTILE_NOTE });
    expect(rows.map((row) => [row['turn'], row['grade']])).toEqual([
      ['', ''],
      ['3', '2'],
      ['3', '3'],
      ['1', '3'],
      ['3', '5'],
      ['2', '4'],
    ]);
  });

  it("imports the grades of persuadee turns as an annotator's labels, which the report then compares with the models' scores", async () => {
    const refused = await runCli(['annotate', 'import', '--notes', '--store', store, '--run', 'graded']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--notes needs --annotator NAME');
    const tagged = await runCli(['annotate', 'import', '--notes', '--annotator', 'alice', '--tag', 'agreement', '--store', store, '--run', 'graded']);
    expect(tagged.code, tagged.stderr).toBe(0);
    // first turn 3 (latest grade 3, model 3) and second turn 1 (grade 3, model 3); the persuader turn left out.
    expect(tagged.stdout).toContain('Imported into run graded: 2 labels by alice.');
    expect(tagged.stdout).toContain("Labels equal to the model's own score: 100%");
    expect(tagged.stdout).toContain('Left out: 1 graded persuader turns (only persuadee turns are labels).');
    const all = await runCli(['annotate', 'import', '--notes', '--annotator', 'alice', '--store', store, '--run', 'graded']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('Imported into run graded: 3 labels by alice.');
    const report = await runCli(['report', '--store', store, '--run', 'graded', '--out', join(folder, 'report'), '--format', 'json']);
    expect(report.code, report.stderr).toBe(0);
    const reliability = (JSON.parse(readFileSync(join(folder, 'report', 'report.json'), 'utf8')) as { studies: { reliability: { labels: number } } }).studies
      .reliability;
    expect(reliability.labels).toBe(3);
    const none = await runCli(['annotate', 'import', '--notes', '--annotator', 'bob', '--tag', 'missing', '--store', store, '--run', 'graded']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('run graded has no graded persuadee turn in its notes tagged missing');
  });

  it('prints the address with its write token, and says when and why notes cannot be written', async () => {
    const stop = new AbortController();
    const writable = cliInProcess(['view', '--store', store, '--port', '0', '--no-open'], stop.signal);
    await servedUrl(writable.output);
    expect(writable.output()).toMatch(/at http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43} \(notes can be written from this address\)/);
    stop.abort();
    expect(await writable.done).toBe(0);

    const stopReadOnly = new AbortController();
    const readOnly = cliInProcess(['view', '--store', store, '--port', '0', '--no-open', '--read-only'], stopReadOnly.signal);
    const url = await servedUrl(readOnly.output);
    expect(readOnly.output()).toContain('(read-only: pmiyc view was started with --read-only)');
    expect(readOnly.output()).not.toContain('#token=');
    const answer = (await (await fetch(`${url}api/runs/graded/notes`)).json()) as { writing: unknown };
    expect(answer.writing).toEqual({ writable: false, why: 'pmiyc view was started with --read-only' });
    stopReadOnly.abort();
    expect(await readOnly.done).toBe(0);
  });

  it('views a store its user may not write, saying that notes cannot be written and why', async ({ skip }) => {
    if (process.getuid?.() !== 0 || spawnSync('setpriv', ['--version']).status !== 0)
      skip('needs root and setpriv, to run as a user who may not write the store');
    if (spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'test', '-r', CLI]).status !== 0)
      skip('the built CLI is not readable by another user here');
    chmodSync(folder, 0o755);
    const copy = join(folder, 'read-only.db');
    copyFileSync(store, copy);
    chmodSync(copy, 0o444);
    const viewer = spawn('setpriv', [
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      process.execPath,
      CLI,
      'view',
      '--store',
      copy,
      '--port',
      '0',
      '--no-open',
    ]);
    let printed = '';
    viewer.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    viewer.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    try {
      await servedUrl(() => printed);
      expect(printed).toContain(
        `(read-only: ${copy} cannot be written (SQLITE_READONLY): make the file and its folder writable, or view a copy in a folder you can write)`,
      );
    } finally {
      viewer.kill('SIGKILL');
    }
  });
});
