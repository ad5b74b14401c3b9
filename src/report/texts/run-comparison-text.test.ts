import { describe, expect, it } from 'vitest';
import type { RunsLeftOut } from '../../metrics/tournament-analysis.js';
import { leftOutParts } from './run-comparison-text.js';

const runs = { baseline: 'run a', reported: 'run b' };

describe('leftOutParts', () => {
  it('names the conditions a model was left out of, so a model compared elsewhere is not said to be missing', () => {
    const leftOut: RunsLeftOut = {
      conditions: [],
      models: [
        { model: 'gamma', measure: 'effectiveness', onlyIn: 'baseline', domain: 'subjective', setting: 'single' },
        { model: 'gamma', measure: 'susceptibility', onlyIn: 'baseline', domain: 'subjective', setting: 'single' },
        { model: 'gamma', measure: 'effectiveness', onlyIn: 'baseline', domain: 'misinformation', setting: 'multi' },
        { model: 'delta', measure: 'effectiveness', onlyIn: null, domain: 'subjective', setting: 'multi' },
      ],
    };
    expect(leftOutParts(runs, [], leftOut)).toEqual([
      'models not compared: gamma (only in run a: subjective · single-turn, misinformation · multi-turn), delta (in both, on no common cell: subjective · multi-turn)',
    ]);
  });
});
