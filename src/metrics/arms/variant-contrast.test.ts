import { describe, expect, it } from 'vitest';
import { ClaimCellTable } from '../intervals/claim-cell-table.js';
import { NO_VARIANTS, type VariantOf, variantContrasts } from './variant-contrast.js';

const options = { method: 't', replicates: 0, confidence: 0.95, seed: 0 } as const;
const where = { domain: 'subjective', setting: 'multi' } as const;
const variantOf: VariantOf = (agent) => {
  const plus = agent.lastIndexOf('+');
  return plus < 0 ? null : { model: agent.slice(0, plus), variant: agent.slice(plus + 1) };
};

/** alpha and beta persuade alpha and beta on claims 0-9 with pmiyc's prompts and under `warm`; NC rises with the claim. */
function tournament(gain: Record<string, number>): ClaimCellTable {
  const table = new ClaimCellTable();
  for (let claim = 0; claim < 10; claim++) {
    const base = claim / 10;
    for (const persuadee of ['alpha', 'beta']) {
      for (const model of ['alpha', 'beta']) {
        table.add(`${model}\u0000${persuadee}`, `c${claim}`, base);
        // beta+warm against alpha failed on claim 9: that cell is left out on both sides.
        if (model === 'beta' && persuadee === 'alpha' && claim === 9) continue;
        table.add(`${model}+warm\u0000${persuadee}`, `c${claim}`, base + gain[model]! + (claim % 2 === 0 ? 0.02 : -0.02));
      }
    }
  }
  return table;
}

describe('variantContrasts', () => {
  it('pools model+variant minus model over the partners and claims both hold, paired by claim, with its own Holm family', () => {
    const [contrast, ...others] = variantContrasts(where, tournament({ alpha: 0.1, beta: 0.3 }), variantOf, options);
    expect(others).toEqual([]);
    // alpha+warm: 0.45 + 0.1 over both partners; beta+warm: (0.4 + 0.45) / 2 + 0.3 (claim 9 of beta+warm against alpha left out, and of beta against alpha too).
    // The noise is +0.02 on even claims and -0.02 on odd ones: 0 on average over claims 0-9, 0.02 / 9 over 0-8 (beta+warm
    // against alpha), which is a quarter of the pooled mean: (0.1 + (0.3 + 0.02 / 9 + 0.3) / 2) / 2.
    expect(contrast).toMatchObject({
      ...where,
      variant: 'warm',
      role: 'persuader',
      measure: 'effectiveness',
      models: ['alpha', 'beta'],
      claims: 10,
      cells: 39,
    });
    expect(contrast!.defaultValue).toBeCloseTo((0.45 + (0.4 + 0.45) / 2) / 2, 12);
    expect(contrast!.variantValue - contrast!.defaultValue).toBeCloseTo(contrast!.value, 12);
    expect(contrast!.value).toBeCloseTo(0.2 + 0.02 / 9 / 4, 12);
    expect(contrast!.pHolm).toBe(contrast!.p);
    expect(contrast!.p).toBeLessThan(1e-6);
  });

  it('is exactly 0 for a variant whose every shared cell equals its model, and names no contrast without variants', () => {
    const table = new ClaimCellTable();
    for (let claim = 0; claim < 12; claim++) {
      for (const [persuader, persuadee] of [
        ['alpha', 'beta'],
        ['alpha+same', 'beta'],
        ['beta', 'alpha'],
        ['beta', 'alpha+same'],
      ] as const) {
        const value = ((claim * 7) % 5) / 5 - (persuader.startsWith('beta') ? 0.3 : 0.1);
        table.add(`${persuader}\u0000${persuadee}`, `c${claim}`, value);
      }
    }
    const contrasts = variantContrasts(where, table, variantOf, options);
    expect(contrasts.map((entry) => [entry.role, entry.value, entry.p, entry.claims])).toEqual([
      ['persuader', 0, 1, 12],
      ['persuadee', 0, 1, 12],
    ]);
    expect(variantContrasts(where, table, NO_VARIANTS, options)).toEqual([]);
  });

  it('adjusts two variants of one role by Holm between them', () => {
    const table = tournament({ alpha: 0.1, beta: 0.3 });
    for (let claim = 0; claim < 10; claim++) table.add(`alpha+cold\u0000beta`, `c${claim}`, claim / 10 + (claim % 3) / 20);
    const contrasts = variantContrasts(where, table, variantOf, options);
    expect(contrasts.map((entry) => entry.variant)).toEqual(['warm', 'cold']);
    const smaller = Math.min(...contrasts.map((entry) => entry.p));
    expect(contrasts.find((entry) => entry.p === smaller)!.pHolm).toBeCloseTo(Math.min(1, 2 * smaller), 12);
    expect(contrasts.find((entry) => entry.variant === 'cold')).toMatchObject({ models: ['alpha'], claims: 10, cells: 10 });
  });
});
