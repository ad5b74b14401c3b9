import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredStanceSample } from '../../studies/consistency/consistency-results.js';
import { ResultStore } from '../result-store.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-consistency-table-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const sample = (model: string, claimIndex: number, sampleIndex: number, score: StoredStanceSample['score']): StoredStanceSample => ({
  model,
  domain: 'subjective',
  claimIndex,
  claim: `claim ${claimIndex}`,
  sampleIndex,
  score,
  attempts: score === null ? 3 : 1,
  unusable: score === null ? 3 : 0,
  raw: score === null ? 'I would rather not say.' : 'Support',
  callHash: score === null ? null : `hash-${model}-${claimIndex}-${sampleIndex}`,
});

describe('ConsistencyTable', () => {
  it('keeps answers across reopening (each committed at once) and streams them in key order', () => {
    const path = join(folder, 'pmiyc.db');
    const store = ResultStore.open(path);
    const run = store.createRun({ name: 'consistency-1', seed: 0, packageVersion: '0.0.0', config: { command: 'consistency' } });
    const table = store.consistency;
    const answers = [sample('sim/b', 2, 1, 4), sample('sim/a', 7, 0, null), sample('sim/b', 2, 0, 5), sample('sim/a', 1, 0, 2)];
    for (const answer of answers) table.save(run.id, answer);
    store.close();

    const reopened = ResultStore.openExisting(path);
    const again = reopened.consistency;
    expect(again.count(run.id)).toBe(4);
    expect([...again.samples(run.id)]).toEqual([answers[3], answers[1], answers[2], answers[0]]);
    expect(again.has(run.id, { model: 'sim/a', domain: 'subjective', claimIndex: 7, sampleIndex: 0 })).toBe(true);
    expect(again.has(run.id, { model: 'sim/a', domain: 'subjective', claimIndex: 7, sampleIndex: 1 })).toBe(false);
    expect(again.has(run.id, { model: 'sim/a', domain: 'misinformation', claimIndex: 7, sampleIndex: 0 })).toBe(false);
    reopened.close();
  });

  it('imports all or nothing, and refuses a stored score off the scale when reading', () => {
    const store = ResultStore.open(join(folder, 'pmiyc.db'));
    const run = store.createRun({ name: 'c', seed: 0, packageVersion: '0.0.0', config: { command: 'consistency' } });
    const table = store.consistency;
    function* failingHalfway() {
      yield sample('m', 0, 0, 4);
      throw new Error('bad row');
    }
    expect(() => table.saveAll(run.id, failingHalfway())).toThrow('bad row');
    expect(table.count(run.id)).toBe(0);
    expect(table.saveAll(run.id, [sample('m', 0, 0, 4), { ...sample('m', 1, 0, 4), score: 9 as unknown as 4 }])).toBe(2);
    expect(() => [...table.samples(run.id)]).toThrow();
    store.close();
  });

  it('finds the studies of a store, and those linked to a tournament run', () => {
    const store = ResultStore.open(join(folder, 'pmiyc.db'));
    store.createRun({ name: 'paper', seed: 0, packageVersion: '0.0.0', config: { command: 'run' } });
    store.createRun({ name: 'consistency-1', seed: 0, packageVersion: '0.0.0', config: { command: 'consistency', tournamentRun: 'paper' } });
    store.createRun({ name: 'consistency-2', seed: 0, packageVersion: '0.0.0', config: { command: 'consistency' } });
    const table = store.consistency;
    expect(table.studyNames()).toEqual(['consistency-1', 'consistency-2']);
    expect(table.studyNames('paper')).toEqual(['consistency-1']);
    expect(table.studyNames('other')).toEqual([]);
    store.close();
  });
});
