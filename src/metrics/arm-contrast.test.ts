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
    const results = contrast.result(options).filter((entry) => entry.measure === 'effectiveness');
    const gainer = results.find((entry) => entry.model === 'gainer')!;
    const flat = results.find((entry) => entry.model === 'flat')!;
    expect(gainer.difference).toBeCloseTo(0.2, 12);
    expect(gainer.second - gainer.first).toBeCloseTo(gainer.difference, 12);
    expect(gainer.pHolm).toBeLessThan(0.001);
    expect(flat.difference).toBeCloseTo(0, 12);
    expect(flat.pHolm).toBeGreaterThan(0.5);
    expect(gainer.claims).toBe(30);
  });

  it('compares only models seen in both arms', () => {
    const contrast = new ArmContrast();
    contrast.add('misinformation', 1, 'only-second', 'x', 'c1', 0.5);
    expect(contrast.result(options)).toEqual([]);
  });
});
