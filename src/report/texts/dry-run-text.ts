import { MULTI_TURN_TURNS, SINGLE_TURN_TURNS } from '../../domain/conversation.js';
import { formatCount, labelModel } from '../../domain/text-labels.js';
import {
  DEFAULT_EARLY_STOP_RATE,
  type EstimateAssumptions,
  estimatePlan,
  MIN_REPLIES_FOR_RATE,
  type ModelEstimate,
  NOTHING_STORED,
  type PlanEstimate,
  type StoredProgress,
} from '../../studies/tournament/forecast/plan-estimate.js';
import type { PlannedConversation, TournamentDesign } from '../../studies/tournament/plan.js';
import type { PreviewBatching, PreviewStore, TournamentPreview } from '../../studies/tournament/tournament-preview.js';
import { formatTextTable } from './text-table.js';

/** A total cost: about $X, or at least $X when some model has no prices (named); every dry run's wording. */
export function costText(estimate: { readonly costUsd: number; readonly unpricedModels: readonly string[] }): string {
  if (estimate.unpricedModels.length === 0) return `about $${estimate.costUsd.toFixed(2)}`;
  return `at least $${estimate.costUsd.toFixed(2)} (no price for ${estimate.unpricedModels.map(labelModel).join(', ')})`;
}

/** Why nothing in the store is reused. */
const NOT_REUSED: Record<'no-store' | 'no-cache', (storePath: string) => string> = {
  'no-store': (storePath) => `there is no run in a store at ${storePath} yet`,
  'no-cache': () => '--no-cache reuses no call of an earlier run',
};

/** A model's expected cached share of its input, or "-" where its provider is not known to cache prompts. */
function cachedShareText(model: ModelEstimate): string {
  if (!model.promptCached) return '-';
  return model.inputTokens > 0 ? `${Math.round((100 * model.cachedInputTokens) / model.inputTokens)}%` : '0%';
}

/** How the cached share is estimated, said under the table when some model's provider caches prompts. */
const PROMPT_CACHE_ASSUMPTION =
  "Prompt caching (OpenAI and Azure on their own, Anthropic where pmiyc marks the prefix): a call reads its agent's previous call in the conversation " +
  'from the cache once that prefix reaches 1,024 tokens (Anthropic writes the rest, at cacheWriteUsdPerMillion); cached input is priced at ' +
  'cachedInputUsdPerMillion, the input price unless set. Caches expire after minutes of quiet: the cost at batch prices counts no cached input.';

/** What the store saves the run: the calls it replays, the conversations it needs no call for. */
function storeLine(store: PreviewStore, storePath: string, conversations: number): string {
  if (!store.reused) return `Nothing in the store is reused: ${NOT_REUSED[store.why](storePath)}.`;
  const { work } = store;
  const done = work.conversationsDone > 0 ? `; run ${store.runName} holds ${formatCount(work.conversationsDone)} of the conversations already, skipped` : '';
  return (
    `In the store already: ${formatCount(work.storedCalls)} calls, replayed for free, not counted below ` +
    `(${formatCount(work.conversationsReplayed)} of the ${formatCount(conversations)} conversations need no new call${done}).`
  );
}

/**
 * `pmiyc run --dry-run`: the plan, the calls it will make (those the store holds are free) and what
 * they will cost, with the assumptions said (the lines to print). `storePath` is the store read.
 */
export function dryRunText(preview: TournamentPreview, storePath: string): string[] {
  const { design, maxOutputTokens, prices, promptCache, history, batching, stored: store } = preview;
  const progressOf = (planned: PlannedConversation) => (store.reused ? (store.work.progress.get(planned.id) ?? NOTHING_STORED) : NOTHING_STORED);
  const rateOf = (model: string) => {
    const seen = history.get(model);
    return seen && seen.replies >= MIN_REPLIES_FOR_RATE ? seen.stops / seen.replies : DEFAULT_EARLY_STOP_RATE;
  };
  const replyTokens = Math.round(maxOutputTokens / 2);
  const assumptions: EstimateAssumptions = { earlyStopRate: rateOf, replyTokens, prices, promptCache };
  const estimate = estimatePlan(design, assumptions, progressOf);
  const lines: string[] = [];
  const out = (line = '') => lines.push(line);
  out(`Dry run: nothing is called. ${formatCount(estimate.conversations)} conversations:`);
  for (const [setting, count] of Object.entries(estimate.bySetting)) out(`  ${setting}: ${formatCount(count)}`);
  out(storeLine(store, storePath, estimate.conversations));
  out(
    `Calls to make: at most ${formatCount(estimate.callsUpperBound)} (shared openings and first arguments once, before re-samples); about ${formatCount(estimate.callsExpected)} with early stops.`,
  );
  if (design.probeDrift) {
    out(
      `Drift probes (--probe-drift): ${formatCount(estimate.driftProbes)} of these calls ask a persuader where it stands after its conversation, one per conversation, with the whole conversation in context.`,
    );
  }
  if (design.sequential) {
    out(
      `Sequential (--until settled, waves of ${design.sequential.wave} claims): these figures are the full design's; the run starts no new wave once every quantity is settled, so it usually makes fewer (docs/design/sequential.md).`,
    );
  }
  out('');
  const rows = estimate.byModel.map((model) => [
    labelModel(model.model),
    formatCount(model.calls),
    formatCount(model.inputTokens),
    cachedShareText(model),
    formatCount(model.outputTokens),
    model.costUsd === undefined ? 'no price set' : `$${model.costUsd.toFixed(2)}`,
    `${(rateOf(model.model) * 100).toFixed(0)}%${history.get(model.model) && history.get(model.model)!.replies >= MIN_REPLIES_FOR_RATE ? ' (stored runs)' : ' (assumed)'}`,
  ]);
  out(
    rows.length > 0
      ? formatTextTable(['model', 'calls', 'input tokens', 'cached (est.)', 'output tokens', 'cost', 'early stop per reply'], rows)
      : 'Nothing to call: the store holds every call of the plan.',
  );
  out('');
  out(
    `Total cost: ${costText(estimate)}.${estimate.unpricedModels.length > 0 ? ' Set inputUsdPerMillion and outputUsdPerMillion for them under models: in the config.' : ''}`,
  );
  if (batching.models.length > 0) for (const line of batchLines(design, batching, estimate, assumptions, progressOf)) out(line);
  out(
    `Assumptions: replies of about ${replyTokens} tokens; early-stop rates from stored runs where a model has ${MIN_REPLIES_FOR_RATE}+ replies, else ${DEFAULT_EARLY_STOP_RATE * 100}% per reply.`,
  );
  if (estimate.byModel.some((model) => model.promptCached)) out(PROMPT_CACHE_ASSUMPTION);
  return lines;
}

/** The batch side of a tournament's dry run (`batchedCostLines`): each turn of a conversation is one wave. */
function batchLines(
  design: TournamentDesign,
  batching: PreviewBatching,
  direct: PlanEstimate,
  assumptions: EstimateAssumptions,
  progressOf: (planned: PlannedConversation) => StoredProgress,
): string[] {
  const estimate = estimatePlan(
    design,
    {
      ...assumptions,
      prices: (agent) => (batching.isBatched(agent) ? batching.prices(agent) : assumptions.prices(agent)),
      // A batch answers within hours, after the cache has expired: no cached input is counted on it.
      promptCache: (agent) => (batching.isBatched(agent) ? undefined : assumptions.promptCache?.(agent)),
    },
    progressOf,
  );
  const longest = Math.max(...design.settings.map((setting) => (setting === 'single' ? SINGLE_TURN_TURNS : (design.multiTurns ?? MULTI_TURN_TURNS))));
  return batchedCostLines({
    models: batching.models,
    assumed: batching.models.filter((model) => batching.prices(model)?.assumed),
    atBatchPrices: estimate,
    direct,
    sequence: `${longest} turns`,
    steps: longest,
    conversations: estimate.conversations,
    window: batching.window,
  });
}

/** A dry run's batching, whatever the study: its batched models, its cost both ways, and its waves. */
export interface BatchedCost {
  readonly models: readonly string[];
  /** Of the models, those whose batch prices are assumed half the direct ones (the config gives none). */
  readonly assumed: readonly string[];
  readonly atBatchPrices: { readonly costUsd: number; readonly unpricedModels: readonly string[] };
  readonly direct: { readonly costUsd: number; readonly unpricedModels: readonly string[] };
  /** The steps of a conversation that follow one another, each a wave, in words ("9 turns") and as a number. */
  readonly sequence: string;
  readonly steps: number;
  readonly conversations: number;
  /** Conversations in flight at once: those beyond it wait for a later round of waves. */
  readonly window: number;
}

/**
 * The batch lines of a dry run: the cost with batched models at batch prices next to the direct cost, and the
 * waves: a conversation's calls follow one another, so each step is one wave (one batch per model, answered
 * within the provider's 24 h window), and conversations beyond the window wait for a later round of waves.
 */
export function batchedCostLines(batched: BatchedCost): string[] {
  const { assumed, window } = batched;
  const rounds = Math.ceil(batched.conversations / Math.max(1, window));
  return [
    `Batched through the provider's batch service: ${batched.models.map(labelModel).join(', ')}.`,
    `Cost at batch prices: ${costText(batched.atBatchPrices)} (direct: ${costText(batched.direct)}).${assumed.length > 0 ? ` Batch prices assumed half the direct ones for ${assumed.map(labelModel).join(', ')} (set batchInputUsdPerMillion and batchOutputUsdPerMillion).` : ''}`,
    `Waves: about ${formatCount(batched.steps * rounds)} (${batched.sequence} in sequence per conversation${rounds > 1 ? `, ${rounds} rounds of ${formatCount(window)} conversations` : ''}); each wave waits for its batches, which providers answer within 24 h.`,
  ];
}
