import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handRecord } from '../../../test/support/hand-records.js';
import { ResultStore } from '../../store/result-store.js';
import { LabelBook } from '../../studies/annotation/annotation-labels.js';
import { type AnnotationTaskFile, parseTaskFile } from '../../studies/annotation/annotation-tasks.js';
import { parseClaimsPerDomain } from '../options.js';
import type { CliContext } from '../terminal.js';
import { annotateExportCommand, annotateImportCommand, annotateServeCommand } from './annotate.js';

let folder: string;
let storePath: string;
let tasks: AnnotationTaskFile;
const output = new PassThrough();
const context = {
  stdout: output,
  stderr: new PassThrough(),
  env: {},
  now: () => new Date('2026-12-01T12:00:00Z'),
  packageVersion: '0.0.0-test',
} as unknown as CliContext;
const printed = () => String(output.read() ?? '');

/** Two models, two subjective claims (7 turns, persuadee scores 2, 3, 4 then final 4) and one single-turn conversation. */
function makeStore(path: string): void {
  const store = ResultStore.open(path);
  const run = store.createRun({ name: 'hand-run', createdAt: '2026-11-30T10:00:00Z', seed: 5, packageVersion: 'test', config: {} });
  for (const persuader of ['A', 'B']) {
    for (const persuadee of ['A', 'B']) {
      for (const claim of ['c1', 'c2'])
        store.saveConversation(run.id, handRecord({ persuader, persuadee, claim, turns: 7, persuadeeScores: [2, 3, 4], final: 4, run: 'hand-run' }));
      store.saveConversation(run.id, handRecord({ persuader, persuadee, claim: 'c3', turns: 3, persuadeeScores: [2], final: 3, run: 'hand-run' }));
    }
  }
  store.close();
}

/** A labels file as the server writes it, with one label per turn from `score`. */
function writeLabels(annotator: string, score: (turnIndex: number) => number, path = join(folder, `${annotator}.jsonl`)): string {
  const book = new LabelBook(tasks, annotator);
  for (const [position, conversation] of tasks.conversations.entries()) {
    for (const turn of conversation.turns.filter((entry) => entry.toLabel)) {
      const labelledAt = `2026-12-01T10:00:${String(position).padStart(2, '0')}.000Z`;
      book.apply({ conversationId: conversation.conversationId, turnIndex: turn.index, score: score(turn.index) as 1, labelledAt });
    }
  }
  writeFileSync(path, book.toJsonl());
  return path;
}

describe('pmiyc annotate', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-annotate-'));
    storePath = join(folder, 'store.db');
    makeStore(storePath);
    const out = join(folder, 'tasks.json');
    expect(await annotateExportCommand({ store: storePath, out, sample: 1, setting: 'multi' }, context)).toBe(0);
    tasks = parseTaskFile(readFileSync(out, 'utf8'), out);
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('exports one multi-turn conversation per pair, seeded by the run, and says what to do next', () => {
    expect(tasks.run).toBe('hand-run');
    expect(tasks.selection).toEqual({ setting: 'multi', seed: 5, perPair: 1, claimsPerDomain: null });
    expect(tasks.conversations).toHaveLength(4);
    expect(printed()).toMatch(
      /Wrote 4 conversations of run hand-run \(4 pairs, 1 per pair\) with 16 persuadee turns to label to .*tasks.json[\s\S]*pmiyc annotate serve --tasks/,
    );
  });

  it('refuses to overwrite a task file, to mix two ways of sampling, and a setting the run lacks', async () => {
    await expect(annotateExportCommand({ store: storePath, out: join(folder, 'tasks.json'), setting: 'multi' }, context)).rejects.toThrow(/exists.*--force/);
    await expect(
      annotateExportCommand(
        { store: storePath, out: join(folder, 'x.json'), sample: 1, claimsPerDomain: { subjective: 1, misinformation: 0 }, setting: 'multi' },
        context,
      ),
    ).rejects.toThrow(/pass one of them/);
    await expect(
      annotateExportCommand(
        { store: storePath, out: join(folder, 'y.json'), setting: 'multi', claimsPerDomain: { subjective: 0, misinformation: 2 } },
        context,
      ),
    ).rejects.toThrow(/no completed multi-turn conversations to annotate/);
  });

  it('imports the labels of two annotators next to the models\u2019 own scores', async () => {
    // The model's scores on turns 1, 3, 5, 7 are 2, 3, 4, 4: alice agrees everywhere, bob reads one point lower.
    const alice = writeLabels('alice', (index) => ({ 1: 2, 3: 3, 5: 4, 7: 4 })[index]!);
    const bob = writeLabels('bob', (index) => ({ 1: 1, 3: 2, 5: 3, 7: 3 })[index]!);
    expect(await annotateImportCommand({ store: storePath, files: [alice, bob] }, context)).toBe(0);
    expect(printed()).toMatch(/Imported into run hand-run: 16 labels by alice, 16 labels by bob[\s\S]*own score: 50%; mean absolute difference 0.50/);
    const store = ResultStore.openExisting(storePath);
    try {
      const rows = store.annotations.rows([store.findRun('hand-run').id]);
      expect(rows).toHaveLength(32);
      expect(rows.filter((row) => row.annotator === 'alice').every((row) => row.score === row.modelScore)).toBe(true);
      expect(rows.filter((row) => row.annotator === 'bob').every((row) => row.modelScore - row.score === 1)).toBe(true);
    } finally {
      store.close();
    }
  });

  it('replaces an annotator\u2019s labels when imported again', async () => {
    const alice = writeLabels('alice', () => 5);
    await annotateImportCommand({ store: storePath, run: 'hand-run', files: [alice] }, context);
    const store = ResultStore.openExisting(storePath);
    try {
      const rows = store.annotations.rows([store.findRun('hand-run').id]);
      expect(rows.filter((row) => row.annotator === 'alice').map((row) => row.score)).toEqual(Array(16).fill(5));
      expect(rows).toHaveLength(32);
    } finally {
      store.close();
    }
  });

  it('refuses labels that do not fit the run, naming the file and line, and stores nothing', async () => {
    const good = writeLabels('carol', () => 3);
    const lines = readFileSync(good, 'utf8').trimEnd().split('\n');
    const edit = (name: string, line: number, change: (label: Record<string, unknown>) => Record<string, unknown>) => {
      const copy = [...lines];
      copy[line - 1] = JSON.stringify(change(JSON.parse(copy[line - 1]!)));
      const path = join(folder, name);
      writeFileSync(path, `${copy.join('\n')}\n`);
      return path;
    };
    const unknown = edit('unknown.jsonl', 3, (label) => ({ ...label, conversationId: 'c-nowhere' }));
    await expect(annotateImportCommand({ store: storePath, files: [unknown] }, context)).rejects.toThrow(
      /unknown.jsonl:3: run hand-run has no conversation c-nowhere/,
    );
    const persuaderTurn = edit('persuader.jsonl', 2, (label) => ({ ...label, turnIndex: 2 }));
    await expect(annotateImportCommand({ store: storePath, files: [persuaderTurn] }, context)).rejects.toThrow(
      /persuader.jsonl:2: turn 2 of conversation .* is the persuader's/,
    );
    const noTurn = edit('noturn.jsonl', 2, (label) => ({ ...label, turnIndex: 40 }));
    await expect(annotateImportCommand({ store: storePath, files: [noTurn] }, context)).rejects.toThrow(/noturn.jsonl:2: conversation .* has no turn 40/);
    const otherRun = edit('other-run.jsonl', 1, (header) => ({ ...header, run: 'elsewhere' }));
    await expect(annotateImportCommand({ store: storePath, files: [good, otherRun] }, context)).rejects.toThrow(/both labels of carol/);
    await expect(annotateImportCommand({ store: storePath, files: [otherRun] }, context)).rejects.toThrow(/has no run named "elsewhere"/);
    await expect(annotateImportCommand({ store: storePath, run: 'hand-run', files: [otherRun] }, context)).rejects.toThrow(
      /other-run.jsonl:1: these labels were made on run elsewhere, not hand-run/,
    );
    const store = ResultStore.openExisting(storePath);
    try {
      expect(store.annotations.annotators(store.findRun('hand-run').id).map((entry) => entry.annotator)).toEqual(['alice', 'bob']);
    } finally {
      store.close();
    }
  });

  it('serves until stopped, continuing from a labels file already there', async () => {
    const labels = writeLabels('dave', () => 3, join(folder, 'dave.labels.jsonl'));
    const stop = new AbortController();
    const serving = annotateServeCommand({ tasks: join(folder, 'tasks.json'), annotator: 'dave', labels, port: 0 }, context, stop.signal);
    stop.abort();
    expect(await serving).toBe(0);
    expect(printed()).toMatch(/16 turns to label, 16 labelled so far[\s\S]*Open http:\/\/127\.0\.0\.1:\d+\/[\s\S]*Stopped\. 16 of 16 turns labelled/);
    await expect(annotateServeCommand({ tasks: join(folder, 'tasks.json'), annotator: 'erin', labels, port: 0 }, context, stop.signal)).rejects.toThrow(
      /holds the labels of dave, not erin/,
    );
    await expect(annotateServeCommand({ tasks: join(folder, 'missing.json'), annotator: 'erin', port: 0 }, context, stop.signal)).rejects.toThrow(
      /missing.json does not exist/,
    );
  });
});

describe('parseClaimsPerDomain', () => {
  it.each([
    ['3,2', { subjective: 3, misinformation: 2 }],
    ['4', { subjective: 4, misinformation: 4 }],
    ['0,5', { subjective: 0, misinformation: 5 }],
  ])('%s', (text, expected) => expect(parseClaimsPerDomain(text)).toEqual(expected));
  it.each(['', 'a,b', '1,2,3', '0,0', '-1,2'])('refuses %j', (text) => expect(() => parseClaimsPerDomain(text)).toThrow(/SUBJECTIVE,MISINFORMATION/));
});
