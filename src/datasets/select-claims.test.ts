import { describe, expect, it } from 'vitest';
import type { Claim } from '../domain/claim.js';
import { selectClaims } from './select-claims.js';

const claims: Claim[] = Array.from({ length: 100 }, (_, index) => ({
  index,
  domain: 'subjective',
  claim: `claim ${index}`,
  origin: index < 20 ? 'anthropic' : 'perspectrum',
  license: 'x',
}));

describe('selectClaims', () => {
  it('keeps the first N with --limit', () => {
    expect(selectClaims(claims, { limit: 3 }).map((claim) => claim.index)).toEqual([0, 1, 2]);
  });

  it('samples N stratified by origin, in set order, reproducibly', () => {
    const sample = selectClaims(claims, { sample: 10, seed: 4 });
    expect(sample).toHaveLength(10);
    expect(sample.filter((claim) => claim.origin === 'anthropic')).toHaveLength(2);
    expect(sample.map((claim) => claim.index)).toEqual([...sample.map((claim) => claim.index)].sort((a, b) => a - b));
    expect(selectClaims(claims, { sample: 10, seed: 4 })).toEqual(sample);
    expect(selectClaims(claims, { sample: 10, seed: 5 })).not.toEqual(sample);
  });

  it('returns everything when the sample is not smaller than the set', () => {
    expect(selectClaims(claims, { sample: 500 })).toHaveLength(100);
  });
});
