import { describe, expect, it } from 'vitest';
import { ArmContrast } from './arm-contrast.js';

const options = { method: 't', replicates: 0, confidence: 0.95, seed: 0 } as const;

describe('ArmContrast', () => {
  it('pairs each model over the claims both settings share: a steady gain is found, and no gain is not', () => {
    const contrast = new ArmContrast();
    for (let claim = 0; claim < 30; claim++) {
      const base = (claim % 5) / 10;
      for (const persuadee of ['x', 'y']) {
        contrast.add('subjective', 0, 'gainer', persuadee, `c${claim}`, base);
        contrast.add('subjective', 1, 'gainer', persuadee, `c${claim}`, base + 0.2 + ((claim % 3) - 1) / 50);
        contrast.add('subjective', 0, 'flat', persuadee, `c${claim}`, base);
        contrast.add('subjective', 1, 'flat', persuadee, `c${claim}`, base + ((claim % 3) - 1) / 50);
      }
    }
    const results = contrast.result(options).comparisons.filter((entry) => entry.measure === 'effectiveness');
    const gainer = results.find((entry) => entry.model === 'gainer')!;
    const flat = results.find((entry) => entry.model === 'flat')!;
    expect(gainer.difference).toBeCloseTo(0.2, 12);
    expect(gainer.second - gainer.first).toBeCloseTo(gainer.difference, 12);
    expect(gainer.pHolm).toBeLessThan(0.001);
    expect(flat.difference).toBeCloseTo(0, 12);
    expect(flat.pHolm).toBeGreaterThan(0.5);
    expect(gainer).toMatchObject({ claims: 30, cells: 60, leftOut: { opponents: [], claims: 0, cells: 0 } });
  });

  it('compares only models seen in both arms, and names the others with the arm that has them', () => {
    const contrast = new ArmContrast(['baseline', 'reported']);
    contrast.add('misinformation', 1, 'only-second', 'x', 'c1', 0.5);
    expect(contrast.result(options)).toEqual({
      comparisons: [],
      uncompared: [
        { group: 'misinformation', measure: 'effectiveness', model: 'only-second', onlyIn: 'reported' },
        { group: 'misinformation', measure: 'susceptibility', model: 'x', onlyIn: 'reported' },
      ],
      designs: [{ group: 'misinformation', claims: 0, claimsLeftOut: 1, cellsLeftOut: 1 }],
    });
  });

  // The case: alpha, beta, gamma in the baseline; alpha and beta in the new run, every shared cell equal.
  const NC: Record<string, number> = { alpha: 0.5, beta: 0.25, gamma: 1 };
  const dropped = () => {
    const contrast = new ArmContrast(['baseline', 'reported']);
    for (let claim = 0; claim < 12; claim++) {
      for (const persuader of ['alpha', 'beta', 'gamma']) {
        for (const persuadee of ['alpha', 'beta', 'gamma']) {
          const nc = (NC[persuader]! * ((claim % 4) + 1)) / 4 - NC[persuadee]! / 8;
          contrast.add('subjective/multi', 0, persuader, persuadee, `c${claim}`, nc);
          if (persuader !== 'gamma' && persuadee !== 'gamma') contrast.add('subjective/multi', 1, persuader, persuadee, `c${claim}`, nc);
        }
      }
    }
    return contrast;
  };

  it('finds no change where every shared cell is equal, over the same opponents on both sides, and names the opponent left out', () => {
    const { comparisons, uncompared, designs } = dropped().result(options);
    // The five pairs with gamma, on 12 claims each, are in the baseline only.
    expect(designs).toEqual([{ group: 'subjective/multi', claims: 12, claimsLeftOut: 0, cellsLeftOut: 60 }]);
    expect(comparisons.map((entry) => `${entry.measure} ${entry.model}`)).toEqual([
      'effectiveness alpha',
      'effectiveness beta',
      'susceptibility alpha',
      'susceptibility beta',
    ]);
    for (const entry of comparisons) {
      expect(entry.difference).toBe(0);
      expect(entry.first).toBe(entry.second);
      expect(entry).toMatchObject({
        claims: 12,
        cells: 24,
        p: 1,
        pHolm: 1,
        leftOut: { opponents: [{ model: 'gamma', onlyIn: 'baseline' }], claims: 0, cells: 12 },
      });
    }
    // alpha persuading alpha and beta: mean over claims of (0.5 x (k mod 4 + 1) / 4) = 0.3125, minus (0.5 + 0.25) / 2 / 8.
    expect(comparisons[0]!.second).toBeCloseTo(0.3125 - 0.75 / 16, 12);
    expect(uncompared).toEqual([
      { group: 'subjective/multi', measure: 'effectiveness', model: 'gamma', onlyIn: 'baseline' },
      { group: 'subjective/multi', measure: 'susceptibility', model: 'gamma', onlyIn: 'baseline' },
    ]);
  });

  it('counts the claims and cells that only one arm holds, and pairs over the rest', () => {
    const contrast = new ArmContrast(['single', 'multi']);
    for (let claim = 0; claim < 4; claim++) {
      contrast.add('subjective', 0, 'a', 'x', `c${claim}`, claim / 4);
      contrast.add('subjective', 1, 'a', 'x', `c${claim}`, claim / 4 + 0.5);
    }
    // Two claims of the multi-turn arm only, and one pair on a claim the single-turn arm has for another opponent.
    contrast.add('subjective', 1, 'a', 'x', 'c4', -1);
    contrast.add('subjective', 1, 'a', 'x', 'c5', -1);
    contrast.add('subjective', 0, 'a', 'y', 'c0', 1);
    const effectiveness = contrast.result(options).comparisons.find((entry) => entry.measure === 'effectiveness')!;
    expect(effectiveness).toMatchObject({ model: 'a', first: 0.375, second: 0.875, difference: 0.5, claims: 4, cells: 4 });
    expect(effectiveness.leftOut).toEqual({ opponents: [{ model: 'y', onlyIn: 'single' }], claims: 2, cells: 3 });
    expect(contrast.pairs()).toEqual([
      { group: 'subjective', persuader: 'a', persuadee: 'x', first: 0.375, second: 0.875, difference: 0.5, claims: 4, firstCount: 4, secondCount: 6 },
      { group: 'subjective', persuader: 'a', persuadee: 'y', first: 1, second: null, difference: null, claims: 0, firstCount: 1, secondCount: 0 },
    ]);
  });
});
