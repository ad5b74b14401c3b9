import { describe, expect, it } from 'vitest';
import { capToClaimSet, claimsForPower, pairedPower, powerPlans } from './power.js';

describe('claimsForPower', () => {
  // A paired t test at alpha 0.05 and 80% power needs 199, 34, 15 and 10 pairs for effect sizes
  // 0.2, 0.5, 0.8 and 1 (G*Power and SciPy's noncentral t agree).
  it.each([
    [0.2, 199],
    [0.5, 34],
    [0.8, 15],
    [1, 10],
  ])('needs the textbook number of claims for an effect size of %f', (effect, claims) => {
    expect(claimsForPower({ difference: effect, sd: 1, alpha: 0.05, power: 0.8 })).toBe(claims);
  });

  // At Bonferroni levels (every two of m models compared), from SciPy's noncentral t: the shifted
  // central t asked for one claim fewer in each of these (17 of the 48 figures for 2-13 models).
  it.each([
    [4, 0.2, 307],
    [5, 0.5, 58],
    [5, 1, 18],
    [7, 0.8, 29],
    [10, 0.2, 427],
    [12, 1, 24],
    [13, 0.5, 79],
  ])('needs the noncentral t figure when %i models are compared, effect size %f', (models, effect, claims) => {
    const alpha = 0.05 / ((models * (models - 1)) / 2);
    expect(claimsForPower({ difference: effect, sd: 1, alpha, power: 0.8 })).toBe(claims);
  });

  it('gives the power of a paired t test from the noncentral t (SciPy)', () => {
    expect(pairedPower(10, { difference: 1, sd: 1, alpha: 0.05 })).toBeCloseTo(0.8030968566327219, 10);
    expect(pairedPower(9, { difference: 1, sd: 1, alpha: 0.05 })).toBeCloseTo(0.7480170922294767, 10);
    expect(pairedPower(306, { difference: 0.2, sd: 1, alpha: 0.05 / 6 })).toBeCloseTo(0.799638956358526, 10);
    expect(pairedPower(1, { difference: 1, sd: 1, alpha: 0.05 })).toBeNaN();
  });

  it('needs two claims, found at once, when a pilot paired SD is nearly 0', () => {
    expect(claimsForPower({ difference: 0.05, sd: 1e-12, alpha: 0.05 / 78, power: 0.8 })).toBe(2);
  });

  it('scales with the spread, and says when a difference is out of reach or undefined', () => {
    expect(claimsForPower({ difference: 0.1, sd: 0.2, alpha: 0.05, power: 0.8 })).toBe(34);
    expect(claimsForPower({ difference: 1e-6, sd: 1, alpha: 0.05, power: 0.8 })).toBe(Number.POSITIVE_INFINITY);
    expect(claimsForPower({ difference: 0.1, sd: 0, alpha: 0.05, power: 0.8 })).toBeNaN();
  });
});

describe('powerPlans', () => {
  it('takes the median paired SD of a family and tests at 0.05 over its number of comparisons', () => {
    const comparison = (se: number) => ({ domain: 'subjective', setting: 'multi', measure: 'effectiveness', se, claims: 25 }) as const;
    const [plan] = powerPlans([comparison(0.02), comparison(0.04), comparison(0.03)]);
    expect(plan).toMatchObject({ comparisons: 3, pilotClaims: 25, power: 0.8 });
    expect(plan!.alpha).toBeCloseTo(0.05 / 3, 12);
    expect(plan!.pairedSd).toBeCloseTo(0.03 * 5, 12);
    const needed = plan!.claimsNeeded.map((entry) => entry.claims);
    expect(needed[0]).toBeGreaterThan(needed[1]!);
    expect(needed[1]).toBeGreaterThan(needed[2]!);
    expect(needed[1]).toBe(claimsForPower({ difference: 0.1, sd: 0.15, alpha: 0.05 / 3, power: 0.8 }));
  });
});

describe('capToClaimSet', () => {
  const plan = {
    domain: 'subjective',
    setting: 'multi',
    measure: 'effectiveness',
    comparisons: 1,
    alpha: 0.05,
    power: 0.8,
    pairedSd: 1,
    pilotClaims: 12,
    claimsNeeded: [
      { difference: 0.2, claims: 199 },
      { difference: 1, claims: 10 },
      { difference: 0, claims: Number.NaN },
    ],
  } as const;

  it('says which differences the claim set cannot reach, with the power all its claims give (SciPy)', () => {
    const capped = capToClaimSet(plan, { claims: 150, source: 'a set' });
    expect(capped.claimSet).toEqual({ claims: 150, source: 'a set' });
    const [small, large, undefinedSd] = capped.claimsNeeded;
    expect(small).toMatchObject({ difference: 0.2, claims: 199, withinClaimSet: false });
    expect(small!.powerWithClaimSet).toBeCloseTo(0.6821529719887242, 10);
    expect(large).toEqual({ difference: 1, claims: 10, withinClaimSet: true, powerWithClaimSet: null });
    expect(undefinedSd).toMatchObject({ withinClaimSet: null, powerWithClaimSet: null });
  });

  it('reaches a difference that needs exactly the whole set, and checks nothing against a set of unknown size', () => {
    expect(capToClaimSet(plan, { claims: 199, source: 'a set' }).claimsNeeded[0]).toMatchObject({ withinClaimSet: true, powerWithClaimSet: null });
    expect(capToClaimSet(plan, null).claimsNeeded[0]).toMatchObject({ claims: 199, withinClaimSet: null, powerWithClaimSet: null });
  });
});
