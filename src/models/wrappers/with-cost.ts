import type { Usage } from '../../domain/conversation.js';
import type { ChatModelMiddleware } from '../decorate.js';

export interface Prices {
  readonly inputUsdPerMillion?: number;
  readonly outputUsdPerMillion?: number;
  /** Input read from the provider's prompt cache; the input price unless configured (never cheaper than said). */
  readonly cachedInputUsdPerMillion?: number;
  /** Input written to the prompt cache; 1.25 x the input price unless configured (Anthropic's 5-minute cache write). */
  readonly cacheWriteUsdPerMillion?: number;
}

/** What a cache write costs unless configured, relative to the input price: Anthropic's published 5-minute rate. */
const CACHE_WRITE_PRICE_FACTOR = 1.25;

/** The input part of a call's cost: plain input at the input price, cached and written parts at theirs. */
function inputCostUsd(usage: Usage, prices: Prices, inputUsdPerMillion: number): number | undefined {
  if (usage.inputTokens === undefined) return undefined;
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - cached - written);
  const cachedPrice = prices.cachedInputUsdPerMillion ?? inputUsdPerMillion;
  const writePrice = prices.cacheWriteUsdPerMillion ?? inputUsdPerMillion * CACHE_WRITE_PRICE_FACTOR;
  return (plain * inputUsdPerMillion + cached * cachedPrice + written * writePrice) / 1e6;
}

/**
 * The cost of one call from its token counts and the configured prices; undefined when a price
 * or a count it needs is missing (a provider that omits usage must not look free).
 */
export function callCostUsd(usage: Usage | undefined, prices: Prices): number | undefined {
  const { inputUsdPerMillion, outputUsdPerMillion } = prices;
  if (inputUsdPerMillion === undefined && outputUsdPerMillion === undefined) return undefined;
  const input = inputUsdPerMillion === undefined ? 0 : usage === undefined ? undefined : inputCostUsd(usage, prices, inputUsdPerMillion);
  const output = outputUsdPerMillion === undefined ? 0 : usage?.outputTokens === undefined ? undefined : (usage.outputTokens * outputUsdPerMillion) / 1e6;
  return input === undefined || output === undefined ? undefined : input + output;
}

/** Adds `costUsd` to every reply from the model's configured prices; passes replies through without prices. */
export function addCost(prices: Prices): ChatModelMiddleware {
  if (prices.inputUsdPerMillion === undefined && prices.outputUsdPerMillion === undefined) return (next) => next;
  return (next) => async (request) => {
    const reply = await next(request);
    const costUsd = callCostUsd(reply.usage, prices);
    return costUsd === undefined ? reply : { ...reply, costUsd };
  };
}
