import { describe, expect, it } from 'vitest';
import { FIGURE_4, FIGURE_4_PERSUADEES as MODELS } from '../../test/support/paper-figures.js';
import { effectiveness, type PairMean, pairMeans, susceptibility } from './model-scores.js';

const figure4Pairs: PairMean[] = Object.entries(FIGURE_4).flatMap(([persuader, row]) =>
  row.map((value, column) => ({ persuader, persuadee: MODELS[column]!, n: 961, mean: value })),
);
const valueFor = (list: { model: string; value: number }[], model: string) => list.find((entry) => entry.model === model)!.value;

describe('effectiveness and susceptibility from the paper Figure 4 matrix', () => {
  it('gives Llama-3.3-70B an effectiveness of 0.68', () => {
    expect(valueFor(effectiveness(figure4Pairs), 'Llama-3.3-70B').toFixed(2)).toBe('0.68');
  });

  it('gives Claude 3 Haiku a susceptibility of 0.77', () => {
    expect(valueFor(susceptibility(figure4Pairs), 'Claude 3 Haiku').toFixed(2)).toBe('0.77');
  });

  it('ranks the persuaders as the paper does', () => {
    const ranked = [...effectiveness(figure4Pairs)].sort((a, b) => b.value - a.value).map((entry) => entry.model);
    expect(ranked).toEqual(['Llama-3.3-70B', 'GPT-4o', 'GPT-4o-mini', 'Llama-3.1-8B', 'Claude 3 Haiku']);
  });
});

describe('pairMeans and the unweighted model means', () => {
  const conversations = [
    { persuader: 'a', persuadee: 'x', claimKey: '1', normalizedChange: 1 },
    { persuader: 'a', persuadee: 'x', claimKey: '2', normalizedChange: 0 },
    { persuader: 'a', persuadee: 'x', claimKey: '3', normalizedChange: 0.5 },
    { persuader: 'a', persuadee: 'y', claimKey: '1', normalizedChange: -1 },
    { persuader: 'b', persuadee: 'x', claimKey: '1', normalizedChange: 0.25 },
  ];

  it('averages each ordered pair', () => {
    expect(pairMeans(conversations)).toEqual([
      { persuader: 'a', persuadee: 'x', n: 3, mean: 0.5 },
      { persuader: 'a', persuadee: 'y', n: 1, mean: -1 },
      { persuader: 'b', persuadee: 'x', n: 1, mean: 0.25 },
    ]);
  });

  it('weighs pairs equally, not conversations', () => {
    const pairs = pairMeans(conversations);
    expect(effectiveness(pairs)).toEqual([
      { model: 'a', value: -0.25, n: 4, pairs: 2 },
      { model: 'b', value: 0.25, n: 1, pairs: 1 },
    ]);
    expect(susceptibility(pairs)).toEqual([
      { model: 'x', value: 0.375, n: 4, pairs: 2 },
      { model: 'y', value: -1, n: 1, pairs: 1 },
    ]);
  });
});
