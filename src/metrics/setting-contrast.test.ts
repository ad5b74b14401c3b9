import { describe, expect, it } from 'vitest';
import { SettingContrast } from './setting-contrast.js';

const options = { method: 't', replicates: 0, confidence: 0.95, seed: 0 } as const;

describe('SettingContrast', () => {
  it('pairs each model over the claims both settings share: a steady gain is found, and no gain is not', () => {
    const contrast = new SettingContrast();
    for (let claim = 0; claim < 30; claim++) {
      const base = (claim % 5) / 10;
      for (const persuadee of ['x', 'y']) {
        contrast.add('subjective', 'single', 'gainer', persuadee, `c${claim}`, base);
        contrast.add('subjective', 'multi', 'gainer', persuadee, `c${claim}`, base + 0.2 + ((claim % 3) - 1) / 50);
        contrast.add('subjective', 'single', 'flat', persuadee, `c${claim}`, base);
        contrast.add('subjective', 'multi', 'flat', persuadee, `c${claim}`, base + ((claim % 3) - 1) / 50);
      }
    }
    const results = contrast.result(options).filter((entry) => entry.measure === 'effectiveness');
    const gainer = results.find((entry) => entry.model === 'gainer')!;
    const flat = results.find((entry) => entry.model === 'flat')!;
    expect(gainer.difference).toBeCloseTo(0.2, 12);
    expect(gainer.multi - gainer.single).toBeCloseTo(gainer.difference, 12);
    expect(gainer.pHolm).toBeLessThan(0.001);
    expect(flat.difference).toBeCloseTo(0, 12);
    expect(flat.pHolm).toBeGreaterThan(0.5);
    expect(gainer.claims).toBe(30);
  });

  it('compares only models seen in both settings', () => {
    const contrast = new SettingContrast();
    contrast.add('misinformation', 'multi', 'only-multi', 'x', 'c1', 0.5);
    expect(contrast.result(options)).toEqual([]);
  });
});
