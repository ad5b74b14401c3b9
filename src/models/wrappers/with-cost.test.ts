import { describe, expect, it } from 'vitest';
import { batchPricesOf } from '../batch/with-batch.js';
import type { ModelSettings } from '../model-settings.js';
import { callCostUsd } from './with-cost.js';

const prices = { inputUsdPerMillion: 3, outputUsdPerMillion: 15 };
const usage = { inputTokens: 10_000, outputTokens: 1_000, cachedInputTokens: 6_000, cacheWriteTokens: 2_000 };

describe('the cost of a call with prompt caching', () => {
  it('prices plain, cached and written input each at its own price', () => {
    const cost = callCostUsd(usage, { ...prices, cachedInputUsdPerMillion: 0.3, cacheWriteUsdPerMillion: 3.75 });
    // 2,000 plain x 3 + 6,000 cached x 0.3 + 2,000 written x 3.75 + 1,000 out x 15, per million.
    expect(cost).toBeCloseTo((2_000 * 3 + 6_000 * 0.3 + 2_000 * 3.75 + 1_000 * 15) / 1e6, 12);
  });

  it('never looks cheaper than configured: cached input at the input price, writes at 1.25 x, unless priced', () => {
    expect(callCostUsd(usage, prices)).toBeCloseTo((2_000 * 3 + 6_000 * 3 + 2_000 * 3.75 + 1_000 * 15) / 1e6, 12);
    expect(callCostUsd({ inputTokens: 10_000, outputTokens: 1_000 }, prices)).toBeCloseTo((10_000 * 3 + 1_000 * 15) / 1e6, 12);
    expect(callCostUsd({ outputTokens: 1_000 }, prices)).toBeUndefined();
  });

  it('gives cached and written input the batch discount that plain input gets', () => {
    const settings = { ...prices, cachedInputUsdPerMillion: 0.3, cacheWriteUsdPerMillion: 3.75 } as ModelSettings;
    expect(batchPricesOf(settings)).toEqual({
      inputUsdPerMillion: 1.5,
      outputUsdPerMillion: 7.5,
      cachedInputUsdPerMillion: 0.15,
      cacheWriteUsdPerMillion: 1.875,
      assumed: true,
    });
  });
});
