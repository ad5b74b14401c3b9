import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peopleStudyRecords } from '../../../test/support/people-records.js';
import { analyzeTournament } from '../../metrics/tournament-analysis.js';
import { openStore, ResultStore } from '../../store/result-store.js';
import { modelText } from '../viewer/browser/view-text.js';
import type { ModelMeans } from '../viewer/run-overview.js';
import { ViewApi } from '../viewer/view-api.js';
import type { RunAnswer } from '../wire/view-answers.js';

const records = peopleStudyRecords({
  claims: 8,
  opponent: 'opponent',
  people: { weights: [0.1, 0.2, 0.4, 0.3] },
  models: { alpha: { weights: [0.1, 0.5, 0.3, 0.1] } },
  repetitions: 2,
  seed: 5,
  run: 'study',
});

let folder: string;
let api: ViewApi;
let store: ReturnType<typeof openStore>;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-people-view-'));
  const path = join(folder, 'store.db');
  const writer = ResultStore.open(path);
  const run = writer.createRun({ name: 'study', seed: 1, packageVersion: 'test', config: { command: 'run' } });
  for (const record of records) writer.saveConversation(run.id, record);
  writer.setRunStatus(run.id, 'completed');
  writer.close();
  store = openStore(path, { access: 'read' });
  api = new ViewApi(store, () => ({ pid: process.pid, host: 'test-host', nowMs: 0, isProcessAlive: () => false }));
});

afterAll(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('a people run in the viewer', () => {
  it('shows the participants as one group "people" in the run page, with the report\'s susceptibility', () => {
    const body = api.answer('/api/runs/study', new URLSearchParams()).body as RunAnswer;
    expect(body.models).toEqual(['alpha', 'opponent', 'person/*']);
    expect(body.pairs.find((cell) => cell.persuadee === 'person/*')!.completed).toBe(10);
    const report = analyzeTournament(records, { intervals: { method: 't', replicates: 0, confidence: 0.95, seed: 0 }, samplesPerKind: 1 });
    const people = body.modelMeans.find((entry: ModelMeans) => entry.model === 'person/*')!;
    expect(people.susceptibility).toBeCloseTo(report.susceptibility.find((entry) => entry.model === 'person/*')!.value, 12);
  });

  it("opens every person's conversations from the pooled row's link", () => {
    const page = api.answer('/api/runs/study/conversations', new URLSearchParams({ persuadee: 'person/*' })).body as {
      total: number;
      items: Array<{ persuadee: string }>;
    };
    expect(page.total).toBe(10);
    expect(page.items.every((item) => item.persuadee.startsWith('person/p-'))).toBe(true);
  });

  it('names a person as a person and the pool as people, never as simulated', () => {
    expect(modelText('person/p-0001', false)).toBe('person/p-0001 [person]');
    expect(modelText('person/*')).toBe('people (every participant)');
    expect(modelText('sim/weak')).toBe('sim/weak [simulated]');
  });
});
