import { describe, expect, it } from 'vitest';
import type { AgreementScore } from '../../domain/agreement-score.js';
import { DEFAULT_INTERVALS } from '../intervals/claim-estimates.js';
import { type DriftObservation, driftAnalysis } from './drift.js';

const observation = (claim: number, persuader: string, persuadee: string, stance: AgreementScore | null, probe: AgreementScore | null | undefined) =>
  ({
    domain: 'subjective',
    setting: 'single',
    claimKey: `claim ${claim}`,
    persuader,
    persuadee,
    completed: true,
    stance,
    probe,
  }) satisfies DriftObservation;

describe('driftAnalysis', () => {
  it('gives each persuader the mean over its persuadees of the pair drifts, the share that moved away, and counts probes without an answer', () => {
    const observations: DriftObservation[] = [];
    for (let claim = 0; claim < 12; claim++) {
      // Against b, a drops one point on every claim; against c, it drops one point on half the claims.
      observations.push(observation(claim, 'a', 'b', 4, 3));
      observations.push(observation(claim, 'a', 'c', 4, claim % 2 === 0 ? 3 : 4));
      observations.push(observation(claim, 'b', 'a', 2, 3));
    }
    observations.push(observation(0, 'a', 'b', 4, null), observation(1, 'a', 'b', 4, undefined), observation(2, 'a', 'c', null, 5));
    observations.push({ ...observation(3, 'a', 'b', 4, 1), completed: false });
    const analysis = driftAnalysis(observations, DEFAULT_INTERVALS);
    const a = analysis.perPersuader.find((row) => row.persuader === 'a')!;
    expect(a.drift).toBeCloseTo(-0.75);
    expect(a.ciLow).toBeLessThan(-0.75);
    expect(a.ciHigh).toBeGreaterThan(-0.75);
    expect(a.movedAway).toBeCloseTo(0.75);
    expect(a).toMatchObject({ persuadee: null, conversations: 24, claims: 12, unusable: 1, missing: 1, withoutStance: 1 });
    const b = analysis.perPersuader.find((row) => row.persuader === 'b')!;
    expect(b).toMatchObject({ drift: 1, movedAway: 0, conversations: 12 });
    expect(analysis.perPair.map((row) => [row.persuader, row.persuadee, row.drift])).toEqual([
      ['a', 'b', -1],
      ['a', 'c', -0.5],
      ['b', 'a', 1],
    ]);
    expect(analysis.counts).toEqual({ completed: 39, usable: 37, unusable: 1, missing: 1, withoutStance: 1 });
  });
});
