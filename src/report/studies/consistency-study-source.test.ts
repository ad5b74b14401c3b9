import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handRecord } from '../../../test/support/hand-records.js';
import type { AgreementScore } from '../../domain/agreement-score.js';
import { ResultStore } from '../../store/result-store.js';
import { analyzeStudy, consistencyStudiesFor } from './consistency-study-source.js';

let folder: string;
let store: ResultStore;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-consistency-study-'));
  store = ResultStore.open(join(folder, 'pmiyc.db'));
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

function tournament(name: string) {
  const run = store.createRun({ name, seed: 0, packageVersion: '0.0.0', config: { command: 'run' } });
  // Persuadee 'ee' opens at 4 on c1 and 2 on c2, each opening shared by two persuaders.
  for (const persuader of ['p1', 'p2']) {
    store.saveConversation(run.id, handRecord({ persuader, persuadee: 'ee', claim: 'c1', turns: 3, persuadeeScores: [4], final: 4, run: name }));
    store.saveConversation(run.id, handRecord({ persuader, persuadee: 'ee', claim: 'c2', turns: 3, persuadeeScores: [2], final: 3, run: name }));
  }
  return run;
}

function study(name: string, config: Record<string, unknown>, answers: Record<string, Array<AgreementScore | null>>) {
  const run = store.createRun({ name, seed: 3, packageVersion: '0.0.0', config: { command: 'consistency', simulated: [], ...config } });
  const table = store.consistency;
  for (const [claimIndex, [claim, scores]] of Object.entries(answers).entries()) {
    for (const [sampleIndex, score] of scores.entries()) {
      table.save(run.id, {
        model: 'ee',
        domain: 'subjective',
        claimIndex,
        claim,
        sampleIndex,
        score,
        attempts: score === null ? 3 : 1,
        unusable: score === null ? 3 : 0,
        raw: '',
        callHash: null,
      });
    }
  }
  return run;
}

describe('consistency studies in a store', () => {
  it("compare a study's answers with its tournament run's openings, each opening once", () => {
    tournament('paper');
    const run = study('opinions', { tournamentRun: 'paper' }, { c1: [4, 4, 3, 4, 4], c2: [3, 3, 2, 2, 1], c3: [null] });
    const report = analyzeStudy(store, run, { replicates: 50 });
    expect(report).toMatchObject({ study: 'opinions', kind: 'sampled', tournamentRun: 'paper' });
    const [row] = report.models;
    expect(row).toMatchObject({ model: 'ee', claims: 3, claimsWithoutAnswer: 1, simulated: false });
    // c1: opening 4 = mode 4; c2: modes 2 and 3 -> 2 (lower) = opening 2.
    expect(row!.openingAgreement).toMatchObject({ openings: 2, tiedModes: 1, openingsWithoutAnswers: 0 });
    expect(row!.openingAgreement!.matchRatePercent.value).toBe(100);
    expect(row!.openingAgreement!.avgDif.value).toBeCloseTo((0.2 + 0.2) / 2, 12);
    expect(report.notes).toEqual(['ee (subjective): 1 of 3 claims have no usable answer and are left out of every mean']);
  });

  it('are found for a report of the study itself or of the tournament run it names', () => {
    const paper = tournament('paper');
    const other = tournament('other');
    const linked = study('opinions', { tournamentRun: 'paper' }, { c1: [4] });
    study('unlinked', {}, { c1: [4] });
    expect(consistencyStudiesFor(store, [paper]).map((entry) => entry.study)).toEqual(['opinions']);
    expect(consistencyStudiesFor(store, [linked, paper]).map((entry) => entry.study)).toEqual(['opinions']);
    expect(consistencyStudiesFor(store, [other])).toEqual([]);
  });

  it('say when the tournament run they name is gone', () => {
    const run = study('orphan', { tournamentRun: 'deleted' }, { c1: [4, 5] });
    const report = analyzeStudy(store, run, { replicates: 50 });
    expect(report.models[0]!.openingAgreement).toBeNull();
    expect(report.notes).toContain('run deleted is not in this store: Match Rate and Avg Dif cannot be computed');
  });
});
