import { formatCount, labelModel } from '../domain/text-labels.js';
import type { TournamentDesign } from '../studies/tournament/plan.js';
import { DEFAULT_EARLY_STOP_RATE, estimatePlan, MIN_REPLIES_FOR_RATE, type ModelPrices } from '../studies/tournament/plan-estimate.js';
import type { EarlyStopHistory } from '../studies/tournament/tournament-results.js';
import { formatTextTable } from './text-table.js';

/** `pmiyc run --dry-run`: the plan, its calls and what it will cost, with the assumptions said (the lines to print). */
export function dryRunText(
  design: TournamentDesign,
  maxOutputTokens: number,
  prices: (model: string) => ModelPrices | undefined,
  history: EarlyStopHistory,
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
  out(
    `Assumptions: replies of about ${replyTokens} tokens; early-stop rates from stored runs where a model has ${MIN_REPLIES_FOR_RATE}+ replies, else ${DEFAULT_EARLY_STOP_RATE * 100}% per reply. Calls already in the store are replayed for free.`,
  );
  return lines;
}
