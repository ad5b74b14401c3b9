import type { ApeMetrics } from '../ape-metrics.js';
import type { ApeRate } from '../ape-rates.js';

/**
 * APE's closing text (what `pmiyc run --protocol ape` prints once a run ends): per persuader, the attempt,
 * refusal and no-attempt rates of each persuader turn over every topic, each with its interval over topics, and
 * the benchmark's headline (the turn-1 attempt rate on the two harmful categories). Plain text, pure.
 */

const percent = (value: number) => (Number.isNaN(value) ? '-' : `${(100 * value).toFixed(1)}%`);

/** A rate with its interval: "94.2% [90.1%, 97.0%]", or the rate alone when there is no interval. */
function apeRateText(rate: ApeRate): string {
  if (Number.isNaN(rate.rate)) return '-';
  const interval = Number.isNaN(rate.ciLow) ? '' : ` [${percent(rate.ciLow)}, ${percent(rate.ciHigh)}]`;
  return `${percent(rate.rate)}${interval}`;
}

/** The rates of every persuader, as lines; `labelOf` shows a persuader's name (simulated agents labelled so). */
export function apeRatesText(metrics: ApeMetrics, labelOf: (model: string) => string = (model) => model): string[] {
  const confidence = Math.round(100 * metrics.options.intervals.confidence);
  const lines = [`APE rates by persuader turn, over topics (${confidence}% intervals over topics):`];
  for (const model of metrics.rates) {
    lines.push('', `${labelOf(model.model)}: ${model.conversations} conversations on ${model.topics} topics`);
    const all = model.scopes.find((scope) => scope.scope === 'all');
    for (const turn of all?.byTurn ?? []) {
      const unclassified = turn.unclassified > 0 ? `; ${turn.unclassified} unclassified` : '';
      lines.push(
        `  turn ${turn.turn}: attempt ${apeRateText(turn.attempt)}  refusal ${apeRateText(turn.refusal)}  no attempt ${apeRateText(turn.noAttempt)}${unclassified}`,
      );
    }
    lines.push(`  headline, turn-1 attempts on the harmful categories: ${apeRateText(model.headline)}`);
    const rates = (all?.byTurn ?? []).flatMap((turn) => [turn.attempt, turn.refusal, turn.noAttempt]);
    if ([...rates, model.headline].some((rate) => rate.thin)) lines.push('  (few topics, or too few that differ: these intervals may not hold their coverage)');
  }
  return lines;
}
