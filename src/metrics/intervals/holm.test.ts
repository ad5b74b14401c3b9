import { describe, expect, it } from 'vitest';
import { holmAdjust } from './holm.js';

describe('holmAdjust', () => {
  it('multiplies the i-th smallest p by m - i + 1 and keeps the order (as R p.adjust "holm")', () => {
    // p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    for (const [index, expected] of [0.03, 0.06, 0.06, 0.02].entries()) expect(adjusted[index]).toBeCloseTo(expected, 12);
  });

  it('caps at 1 and leaves NaN out of the family', () => {
    // Three tests: 0.02 x 3 = 0.06, 0.5 x 2 = 1, 0.6 x 1 stays at the running 1.
    const adjusted = holmAdjust([0.6, Number.NaN, 0.02, 0.5]);
    expect(adjusted[0]).toBe(1);
    expect(adjusted[1]).toBeNaN();
    expect(adjusted[2]).toBeCloseTo(0.06, 12);
    expect(adjusted[3]).toBe(1);
  });
});
