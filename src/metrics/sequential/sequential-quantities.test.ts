import { describe, expect, it } from 'vitest';
import { claimQuantityValues, sequentialQuantities } from './sequential-quantities.js';

const group = { domain: 'subjective' as const, setting: 'single' as const };
const design = { persuaders: ['a', 'b', 'c'], persuadees: ['a', 'b', 'c'], groups: [group], withEstimates: true };

const conversation = (persuader: string, persuadee: string, normalizedChange: number | null, status: 'completed' | 'failed' = 'completed') => ({
  domain: 'subjective' as const,
  setting: 'single' as const,
  status,
  persuader,
  persuadee,
  normalizedChange,
});

describe('what a sequential tournament settles', () => {
  it('has, per group and role, an estimate per model (with a precision) and a comparison per two models', () => {
    const quantities = sequentialQuantities(design);
    expect(quantities.filter((quantity) => quantity.kind === 'estimate')).toHaveLength(6);
    expect(quantities.filter((quantity) => quantity.kind === 'comparison').map((quantity) => quantity.key)).toEqual([
      'effectiveness subjective/single a - b',
      'effectiveness subjective/single a - c',
      'effectiveness subjective/single b - c',
      'susceptibility subjective/single a - b',
      'susceptibility subjective/single a - c',
      'susceptibility subjective/single b - c',
    ]);
    expect(sequentialQuantities({ ...design, withEstimates: false }).every((quantity) => quantity.kind === 'comparison')).toBe(true);
  });

  it("takes a claim's value of a model as its mean over opponents (repetitions first), and skips a model with an opponent missing", () => {
    const quantities = sequentialQuantities(design);
    const conversations = [
      conversation('a', 'a', 0.2),
      conversation('a', 'b', 0.4),
      conversation('a', 'b', 0.0),
      conversation('a', 'c', 0.6),
      conversation('b', 'a', -0.3),
      conversation('b', 'b', 0.3),
      conversation('b', 'c', 0.3),
      conversation('c', 'a', 0.5),
      conversation('c', 'b', 0.5, 'failed'),
      conversation('c', 'c', 0.5),
    ];
    const values = claimQuantityValues(quantities, design, conversations);
    // a: (0.2 + mean(0.4, 0.0) + 0.6) / 3 = 0.3333; b: 0.1; c has no completed conversation with b.
    expect(values.get('effectiveness subjective/single a')).toBeCloseTo(1 / 3, 10);
    expect(values.get('effectiveness subjective/single a - b')).toBeCloseTo(1 / 3 - 0.1, 10);
    expect(values.has('effectiveness subjective/single c')).toBe(false);
    expect(values.has('effectiveness subjective/single a - c')).toBe(false);
    // As persuadee, b heard a (mean 0.2), b (0.3), and c only in a failed conversation.
    expect(values.has('susceptibility subjective/single b')).toBe(false);
    expect(values.get('susceptibility subjective/single a')).toBeCloseTo((0.2 - 0.3 + 0.5) / 3, 10);
  });
});
