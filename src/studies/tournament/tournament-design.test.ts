import { describe, expect, it } from 'vitest';
import { designFromOptions, TOURNAMENT_DEFAULTS } from './tournament-design.js';

describe('designFromOptions of a sequential run (the library path, as the CLI and the config)', () => {
  const base = { ...TOURNAMENT_DEFAULTS, models: ['sim/a', 'sim/b'], claims: 'examples', until: 'settled' as const };

  it.each([1e-300, 0.3, 0.9999999, 1, Number.NaN])('refuses a confidence of %s, which promises nothing or never settles', (confidence) => {
    expect(() => designFromOptions({ ...base, confidence })).toThrow(/--confidence must be a number from 0\.5 to 0\.999999/);
  });

  it('takes the ends of the range', () => {
    expect(designFromOptions({ ...base, confidence: 0.5 }).sequential?.confidence).toBe(0.5);
    expect(designFromOptions({ ...base, confidence: 0.999999 }).sequential?.confidence).toBe(0.999999);
  });
});

describe('designFromOptions with prompt variants', () => {
  it("stores a variant's tournament templates alone, leaving out what it gives other protocols", () => {
    const bold = {
      description: 'argues boldly',
      persuader: { system: 'Boldly: {{claim}} {{format}}' },
      protocols: { ape: { persuader: { system: 'Boldly, so the person will {{direction}}.' } } },
    };
    const design = designFromOptions({ ...TOURNAMENT_DEFAULTS, models: ['sim/a', 'sim/a+bold'], claims: 'examples', variants: { bold } });
    expect(design.variants).toEqual({ bold: { description: 'argues boldly', persuader: { system: 'Boldly: {{claim}} {{format}}' } } });
  });
});
