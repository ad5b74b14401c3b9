import { MULTI_TURN_TURNS, SINGLE_TURN_TURNS } from '../domain/conversation.js';
import { formatCount, labelModel } from '../domain/text-labels.js';
import type { TournamentDesign } from '../studies/tournament/plan.js';
import {
  DEFAULT_EARLY_STOP_RATE,
  type EstimateAssumptions,
  estimatePlan,
  MIN_REPLIES_FOR_RATE,
  type ModelPrices,
} from '../studies/tournament/plan-estimate.js';
import type { EarlyStopHistory } from '../studies/tournament/tournament-results.js';
import { formatTextTable } from './text-table.js';

/** Which models are batched (`--batch`, `batch:`), at what prices, and how many conversations are in flight at once. */
export interface DryRunBatching {
  /** The batched models, as named in the config or on the command line. */
  readonly models: readonly string[];
  /** Whether an agent (a model, or a model+variant) is batched. */
  readonly isBatched: (agent: string) => boolean;
  /** A batched model's prices; `assumed` when they are half the direct ones because the config gives none. */
  readonly prices: (model: string) => (ModelPrices & { readonly assumed: boolean }) | undefined;
  /** Conversations in flight at once (the largest batch size, or the direct window if larger). */
  readonly window: number;
}

/** `pmiyc run --dry-run`: the plan, its calls and what it will cost, with the assumptions said (the lines to print). */
export function dryRunText(
  design: TournamentDesign,
  maxOutputTokens: number,
  prices: (model: string) => ModelPrices | undefined,
  history: EarlyStopHistory,
  batching?: DryRunBatching,
): string[] {
  const rateOf = (model: string) => {
    const seen = history.get(model);
    return seen && seen.replies >= MIN_REPLIES_FOR_RATE ? seen.stops / seen.replies : DEFAULT_EARLY_STOP_RATE;
  };
  const replyTokens = Math.round(maxOutputTokens / 2);
  const estimate = estimatePlan(design, {
    earlyStopRate: rateOf,
    replyTokens,
    prices,
  });
  const lines: string[] = [];
  const out = (line = '') => lines.push(line);
  out(`Dry run: nothing is called. ${formatCount(estimate.conversations)} conversations:`);
  for (const [setting, count] of Object.entries(estimate.bySetting)) out(`  ${setting}: ${formatCount(count)}`);
  out(
    `Calls: at most ${formatCount(estimate.callsUpperBound)} (shared openings and first arguments once, before re-samples); about ${formatCount(estimate.callsExpected)} with early stops.`,
  );
  out('');
  const rows = estimate.byModel.map((model) => [
    labelModel(model.model),
    formatCount(model.calls),
    formatCount(model.inputTokens),
    formatCount(model.outputTokens),
    model.costUsd === undefined ? 'no price set' : `$${model.costUsd.toFixed(2)}`,
    `${(rateOf(model.model) * 100).toFixed(0)}%${history.get(model.model) && history.get(model.model)!.replies >= MIN_REPLIES_FOR_RATE ? ' (stored runs)' : ' (assumed)'}`,
  ]);
  out(formatTextTable(['model', 'calls', 'input tokens', 'output tokens', 'cost', 'early stop per reply'], rows));
  out('');
  out(
    estimate.costUsd === undefined ? 'Total cost: unknown (set prices in the config for every model).' : `Total cost: about $${estimate.costUsd.toFixed(2)}.`,
  );
  if (batching && batching.models.length > 0)
    for (const line of batchLines(design, batching, estimate.costUsd, { earlyStopRate: rateOf, replyTokens, prices })) out(line);
  out(
    `Assumptions: replies of about ${replyTokens} tokens; early-stop rates from stored runs where a model has ${MIN_REPLIES_FOR_RATE}+ replies, else ${DEFAULT_EARLY_STOP_RATE * 100}% per reply. Calls already in the store are replayed for free.`,
  );
  return lines;
}

/**
 * The batch side of a dry run: the cost with batched models at batch prices next to the direct cost,
 * and the waves: a conversation's calls follow one another, so each turn is one wave (one batch per
 * model, answered within the provider's 24 h window), and conversations beyond the window wait for a
 * later round of waves.
 */
function batchLines(design: TournamentDesign, batching: DryRunBatching, directUsd: number | undefined, assumptions: EstimateAssumptions): string[] {
  const estimate = estimatePlan(design, {
    ...assumptions,
    prices: (agent) => (batching.isBatched(agent) ? batching.prices(agent) : assumptions.prices(agent)),
  });
  const assumed = batching.models.filter((model) => batching.prices(model)?.assumed);
  const longest = Math.max(...design.settings.map((setting) => (setting === 'single' ? SINGLE_TURN_TURNS : (design.multiTurns ?? MULTI_TURN_TURNS))));
  const rounds = Math.ceil(estimate.conversations / Math.max(1, batching.window));
  const cost = (usd: number | undefined) => (usd === undefined ? 'unknown' : `about $${usd.toFixed(2)}`);
  return [
    `Batched through the provider's batch service: ${batching.models.map(labelModel).join(', ')}.`,
    `Cost at batch prices: ${cost(estimate.costUsd)} (direct: ${cost(directUsd)}).${assumed.length > 0 ? ` Batch prices assumed half the direct ones for ${assumed.map(labelModel).join(', ')} (set batchInputUsdPerMillion and batchOutputUsdPerMillion).` : ''}`,
    `Waves: about ${formatCount(longest * rounds)} (${longest} turns in sequence per conversation${rounds > 1 ? `, ${rounds} rounds of ${formatCount(batching.window)} conversations` : ''}); each wave waits for its batches, which providers answer within 24 h.`,
  ];
}
