import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE } from '../../../test/support/hostile-records.js';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { openStore, ResultStore, type Store } from '../../store/result-store.js';
import type { ProtocolConversationView, ProtocolOutputs } from '../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../studies/protocol-records.js';
import type { StudyRun } from '../../studies/run-config.js';
import type { ProtocolItemAnswer, ProtocolItemsAnswer } from '../wire/protocol-items.js';
import { type ApiAnswer, ViewApi } from './view-api.js';
import { writeBundle } from './view-bundle.js';

/**
 * The viewer's API of a run of a protocol beside PMIYC's, on a made-up protocol ("toy"), so that what is tested
 * is the viewer's generic reading: its list's columns and filters, one item's answer, and every refusal.
 */

/** A toy record: who spoke and who listened, a colour, the replies and their moods, and a score. */
interface ToyRecord {
  readonly speaker: string;
  readonly listener: string;
  readonly colour: string;
  readonly replies: readonly { readonly text: string; readonly mood: string }[];
  readonly score: number;
}

function toyConversation(_run: StudyRun, stored: StoredProtocolRecord): ProtocolConversationView {
  const record = stored.record as Partial<ToyRecord>;
  if (typeof record.speaker !== 'string' || !Array.isArray(record.replies))
    throw new DatasetError({ file: `item ${stored.itemKey}` }, 'is not a toy record', { fileIsSubject: true });
  return {
    itemKey: stored.itemKey,
    title: `A ${record.colour} talk`,
    facts: [
      { label: 'colour', value: record.colour ?? null },
      { label: 'long text', value: 'never a column' },
    ],
    participants: [
      { role: 'speaker', model: record.speaker },
      { role: 'listener', model: record.listener ?? '' },
    ],
    turns: record.replies.map((reply, index) => ({
      index,
      role: index % 2 === 0 ? 'speaker' : 'listener',
      model: index % 2 === 0 ? record.speaker! : record.listener!,
      turn: index + 1,
      text: reply.text,
      marks: [
        { label: 'mood', value: reply.mood },
        { label: 'polite', value: index === 0 },
      ],
    })),
    outcome: [...record.replies.map((reply, index) => ({ label: `turn ${index + 1}`, value: reply.mood })), { label: 'score', value: record.score ?? null }],
    listedFacts: ['colour'],
  };
}

const TOY: ProtocolOutputs = {
  protocol: 'toy',
  conversation: toyConversation,
  exportLine: () => ({}),
  exportCsv: () => [],
  figures: () => ({ id: 'toy', title: 'Toy', paragraphs: [], tables: [], json: {} }),
};
const lookup = (protocol: string): ProtocolOutputs => {
  if (protocol === 'toy') return TOY;
  throw new InputError(`this pmiyc does not know the ${protocol} protocol`);
};

const toy = (speaker: string, colour: string, moods: readonly string[], score: number): ToyRecord => ({
  speaker,
  listener: 'sim/ear',
  colour,
  replies: moods.map((mood, index) => ({ text: `reply ${index} ${HOSTILE.script}`, mood })),
  score,
});

const world = () => ({ pid: process.pid, host: 'test-host', nowMs: 0, isProcessAlive: () => false });

let folder: string;
let store: Store;
let api: ViewApi;

const get = <T>(path: string, query = ''): ApiAnswer & { readonly body: T } => api.answer(path, new URLSearchParams(query)) as ApiAnswer & { body: T };

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-protocol-items-'));
  const path = join(folder, 'toy.db');
  const writer = ResultStore.open(path);
  const run = writer.createRun({
    name: 'toy-run',
    seed: 1,
    packageVersion: 'test',
    config: { command: 'protocol', protocol: 'toy', design: {}, simulated: ['sim/ear'] },
  });
  writer.protocolRecords.add(run.id, 'a/1', toy('model-a', 'red', ['calm', 'warm'], 2));
  writer.protocolRecords.add(run.id, 'a/2', toy('model-a', `blue ${HOSTILE.attribute}`, ['cross', 'calm'], -1));
  writer.protocolRecords.add(run.id, 'b/1', toy('model-b', 'red', ['calm', 'calm'], 0));
  writer.protocolRecords.add(run.id, 'b/2', { broken: true });
  writer.setRunStatus(run.id, 'completed');
  const other = writer.createRun({
    name: 'odd-run',
    seed: 1,
    packageVersion: 'test',
    config: { command: 'protocol', protocol: 'odd', design: {}, simulated: [] },
  });
  writer.protocolRecords.add(other.id, 'x', {});
  writer.createRun({ name: 'tournament-run', seed: 1, packageVersion: 'test', config: { command: 'run', design: { persuaders: [], persuadees: [] } } });
  writer.close();
  store = openStore(path, { access: 'read' });
  api = new ViewApi(store, world, lookup);
});

afterAll(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("the viewer's API of a protocol run", () => {
  it('lists the items: shared participants once, the varying one, the listed facts and every outcome as columns; an unreadable record named apart', () => {
    const { status, body } = get<ProtocolItemsAnswer>('/api/runs/toy-run/items');
    expect(status).toBe(200);
    expect(body).toMatchObject({ run: 'toy-run', protocol: 'toy', simulated: ['sim/ear'], all: 3, total: 3, offset: 0 });
    expect(body.participants).toEqual([{ role: 'listener', model: 'sim/ear', simulated: true }]);
    expect(body.columns).toEqual([
      { name: 'speaker', from: 'participant', choices: ['model-a', 'model-b'] },
      { name: 'colour', from: 'fact', choices: [`blue ${HOSTILE.attribute}`, 'red'] },
      { name: 'turn 1', from: 'outcome', choices: ['calm', 'cross'] },
      { name: 'turn 2', from: 'outcome', choices: ['calm', 'warm'] },
      { name: 'score', from: 'outcome', choices: ['-1', '0', '2'] },
    ]);
    expect(body.rows).toEqual([
      { itemKey: 'a/1', title: 'A red talk', cells: ['model-a', 'red', 'calm', 'warm', '2'] },
      { itemKey: 'a/2', title: `A blue ${HOSTILE.attribute} talk`, cells: ['model-a', `blue ${HOSTILE.attribute}`, 'cross', 'calm', '-1'] },
      { itemKey: 'b/1', title: 'A red talk', cells: ['model-b', 'red', 'calm', 'calm', '0'] },
    ]);
    expect(body.unreadable).toEqual([{ itemKey: 'b/2', problem: 'item b/2 is not a toy record' }]);
  });

  it('filters by any column and pages; a parameter that names no column, or a bad offset, is refused with what there is', () => {
    const byModel = get<ProtocolItemsAnswer>('/api/runs/toy-run/items', 'speaker=model-a');
    expect(byModel.body.rows.map((row) => row.itemKey)).toEqual(['a/1', 'a/2']);
    expect(byModel.body).toMatchObject({ filters: { speaker: 'model-a' }, total: 2, all: 3 });
    const both = get<ProtocolItemsAnswer>('/api/runs/toy-run/items', `speaker=model-a&${new URLSearchParams({ 'turn 1': 'calm', colour: 'red' })}`);
    expect(both.body.rows.map((row) => row.itemKey)).toEqual(['a/1']);
    const paged = get<ProtocolItemsAnswer>('/api/runs/toy-run/items', 'offset=1&limit=1');
    expect(paged.body).toMatchObject({ total: 3, offset: 1 });
    expect(paged.body.rows.map((row) => row.itemKey)).toEqual(['a/2']);
    const typo = get<{ error: string }>('/api/runs/toy-run/items', 'persuader=model-a');
    expect(typo.status).toBe(400);
    expect(typo.body.error).toBe(
      "persuader is not a column of run toy-run's items: filter by one of its columns (speaker, colour, turn 1, turn 2, score), and page with offset and limit",
    );
    expect(get<{ error: string }>('/api/runs/toy-run/items', 'offset=-5').body.error).toBe(
      'offset must be a whole number from 0 to 9007199254740991, not "-5"',
    );
    expect(get<{ error: string }>('/api/runs/toy-run/items', 'limit=100000').status).toBe(400);
  });

  it("answers one item as its protocol shows it, participants labelled simulated where the run's config says so", () => {
    const { status, body } = get<ProtocolItemAnswer>(`/api/runs/toy-run/items/${encodeURIComponent('a/2')}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      run: 'toy-run',
      protocol: 'toy',
      itemKey: 'a/2',
      title: `A blue ${HOSTILE.attribute} talk`,
      facts: [
        { label: 'colour', value: `blue ${HOSTILE.attribute}` },
        { label: 'long text', value: 'never a column' },
      ],
      participants: [
        { role: 'speaker', model: 'model-a', simulated: false },
        { role: 'listener', model: 'sim/ear', simulated: true },
      ],
      turns: [
        {
          index: 0,
          role: 'speaker',
          model: 'model-a',
          turn: 1,
          text: `reply 0 ${HOSTILE.script}`,
          marks: [
            { label: 'mood', value: 'cross' },
            { label: 'polite', value: true },
          ],
        },
        {
          index: 1,
          role: 'listener',
          model: 'sim/ear',
          turn: 2,
          text: `reply 1 ${HOSTILE.script}`,
          marks: [
            { label: 'mood', value: 'calm' },
            { label: 'polite', value: false },
          ],
        },
      ],
      outcome: [
        { label: 'turn 1', value: 'cross' },
        { label: 'turn 2', value: 'calm' },
        { label: 'score', value: -1 },
      ],
    });
  });

  it('says why an item cannot be shown: not in the run, unreadable, a run of no protocol, a protocol this pmiyc does not know, no lookup given', () => {
    const missing = get<{ error: string }>('/api/runs/toy-run/items/zzz');
    expect(missing).toMatchObject({ status: 404, body: { error: 'run toy-run has no item zzz: its list at /api/runs/toy-run/items names its items' } });
    expect(get<{ error: string }>(`/api/runs/toy-run/items/${encodeURIComponent('b/2')}`).body.error).toBe('item b/2 is not a toy record');
    expect(get<{ error: string }>('/api/runs/tournament-run/items')).toMatchObject({
      status: 404,
      body: { error: "run tournament-run is not a run of a protocol beside PMIYC's: its conversations are at /api/runs/tournament-run/conversations" },
    });
    expect(get<{ error: string }>('/api/runs/odd-run/items').body.error).toBe('this pmiyc does not know the odd protocol');
    const blind = new ViewApi(store, world).answer('/api/runs/toy-run/items', new URLSearchParams());
    expect(blind.status).toBe(404);
    expect((blind.body as { error: string }).error).toContain('this viewer was started without the readers of protocols');
  });

  it('refuses to bundle a run with a record its protocol cannot read, and writes nothing', async () => {
    const bundle = join(folder, 'bundle');
    const options = { source: store, world, folder: bundle, packageVersion: 'test', writtenAt: 'now', report: null, protocolOutputs: lookup };
    await expect(writeBundle({ ...options, run: store.findRun('toy-run') })).rejects.toThrow(
      'run toy-run cannot be bundled: 1 of its records cannot be read by the toy protocol (the first, b/2: item b/2 is not a toy record)',
    );
    expect(existsSync(bundle)).toBe(false);
  });

  it('reads the list again once the run has stored more items (a live run)', () => {
    expect(get<ProtocolItemsAnswer>('/api/runs/toy-run/items').body.all).toBe(3);
    const writer = ResultStore.openExisting(join(folder, 'toy.db'));
    writer.protocolRecords.add(writer.findRun('toy-run').id, 'c/1', toy('model-c', 'green', ['calm'], 1));
    writer.close();
    const grown = get<ProtocolItemsAnswer>('/api/runs/toy-run/items').body;
    expect(grown.all).toBe(4);
    expect(grown.columns.find((column) => column.name === 'speaker')?.choices).toEqual(['model-a', 'model-b', 'model-c']);
  });
});
