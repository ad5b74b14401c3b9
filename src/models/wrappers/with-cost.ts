import type { ChatModelMiddleware } from '../decorate.js';

export interface Prices {
  readonly inputUsdPerMillion?: number;
  readonly outputUsdPerMillion?: number;
}

/**
 * The cost of one call from its token counts and the configured prices; undefined when a price
 * or a count it needs is missing (a provider that omits usage must not look free).
 */
function callCostUsd(usage: { inputTokens?: number; outputTokens?: number } | undefined, prices: Prices): number | undefined {
  const { inputUsdPerMillion, outputUsdPerMillion } = prices;
  if (inputUsdPerMillion === undefined && outputUsdPerMillion === undefined) return undefined;
  const input = inputUsdPerMillion === undefined ? 0 : usage?.inputTokens === undefined ? undefined : (usage.inputTokens * inputUsdPerMillion) / 1e6;
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
