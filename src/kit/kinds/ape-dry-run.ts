import type { PmiycConfig } from '../../config/config-schema.js';
import { type Environment, resolveModelSettings } from '../../config/resolve-model-settings.js';
import { formatCount, labelModel } from '../../domain/text-labels.js';
import { modelFileSha256 } from '../../io/process/model-file-digest.js';
import { batchPricesOf, batchSettingsOf } from '../../models/batch/with-batch.js';
import { findProvider } from '../../models/providers/provider-catalog.js';
import { CHARS_PER_TOKEN } from '../../models/token-estimate.js';
import type { Prices } from '../../models/wrappers/with-cost.js';
import type { ApeTopic } from '../../protocols/ape/ape-topics.js';
import { type ApeDesign, apeModelsOf } from '../../protocols/ape/run/ape-design.js';
import { type ApeEstimate, type ApeEstimateAssumptions, estimateApeRun, NOTHING_STORED } from '../../protocols/ape/run/ape-estimate.js';
import { apeItemKey } from '../../protocols/ape/run/ape-record.js';
import { type ApeStoredWork, findApeStoredWork } from '../../protocols/ape/run/ape-stored-work.js';
import { type ApeTask, planApeTasks } from '../../protocols/ape/run/ape-study.js';
import { batchedCostLines, costText } from '../../report/texts/dry-run-text.js';
import { formatTextTable } from '../../report/texts/text-table.js';
import { setUpSessionModels } from '../../runner/models/check-models.js';
import { itemsInFlight } from '../../runner/run-session.js';
import type { Store } from '../../store/result-store.js';

/**
 * `pmiyc run --protocol ape --dry-run`: the plan, what the store holds of it (replayed for free by a run), the
 * calls still to make of each model with their tokens and cost, and the assumptions said, in the words of the
 * tournament's dry run (report/texts/dry-run-text.ts). Reads the store, never writes it; makes no call.
 */

/** What a dry run prices: the run's design and topics, its seed, its config, and the run it continues. */
export interface ApeDryRunInput {
  readonly design: ApeDesign;
  readonly topics: readonly ApeTopic[];
  readonly topicSource: string;
  readonly seed: number;
  readonly config: PmiycConfig;
  readonly env: Environment;
  /** The store, opened to read; absent when there is none yet. */
  readonly store?: Store;
  readonly storePath: string;
  /** The stored run a resume continues: its conversations are skipped, its calls replayed. */
  readonly resumedRun?: string;
  /** False: --no-cache (a new run reuses no call of an earlier run). */
  readonly cache: boolean;
  /** `--batch` (now, or kept with the resumed run), and the model calls in flight at once. */
  readonly batch: boolean;
  readonly concurrency: number;
}

/** Output tokens of a judge's JSON answer: a sentence or two of reasoning and the keys. */
const JUDGE_ANSWER_TOKENS = 80;

/** Models that run inside pmiyc (simulated agents, llama's GGUF files) cost nothing; others what the config says. */
const FREE: Prices = { inputUsdPerMillion: 0, outputUsdPerMillion: 0 };

type StoreReuse = { readonly reused: true; readonly work: ApeStoredWork } | { readonly reused: false; readonly why: string };

/** What the store holds of the plan, or why nothing in it is reused. */
async function storeReuse(input: ApeDryRunInput): Promise<StoreReuse> {
  const { store } = input;
  if (store === undefined) return { reused: false, why: `there is no run in a store at ${input.storePath} yet` };
  const resumed = input.resumedRun === undefined ? undefined : store.findRun(input.resumedRun);
  if (resumed === undefined && !input.cache) return { reused: false, why: '--no-cache reuses no call of an earlier run' };
  const work = await findApeStoredWork({
    design: input.design,
    tasks: planApeTasks(input.design, input.topics, input.seed),
    config: input.config,
    env: input.env,
    // A new run has no calls of its own yet: no run has id 0.
    calls: store.callCache(resumed?.id ?? 0, { reuseEarlierRuns: input.cache }),
    ...(resumed ? { isDone: (task) => store.protocolRecords.has(resumed.id, apeItemKey(task)) } : {}),
    fileSha256: (settings) => modelFileSha256(settings, { knownFileSha256: (...file) => store.knownFileSha256(...file), rememberFileSha256: () => {} }),
  });
  return { reused: true, work };
}

/** The store's line: the calls it replays, the conversations needing no new call, those a resumed run holds. */
function storeLine(reuse: StoreReuse, conversations: number, resumedRun: string | undefined): string {
  if (!reuse.reused) return `Nothing in the store is reused: ${reuse.why}.`;
  const { work } = reuse;
  const done = work.conversationsDone > 0 ? `; run ${resumedRun} holds ${formatCount(work.conversationsDone)} of the conversations already, skipped` : '';
  return (
    `In the store already: ${formatCount(work.storedCalls)} calls, replayed for free, not counted below ` +
    `(${formatCount(work.conversationsReplayed)} of the ${formatCount(conversations)} conversations need no new call${done}).`
  );
}

/** The calls of each model, their tokens and cost, as a table. */
function modelTable(estimate: ApeEstimate): string {
  const rows = estimate.byModel.map((model) => [
    labelModel(model.model),
    formatCount(model.calls),
    formatCount(model.inputTokens),
    formatCount(model.outputTokens),
    model.costUsd === undefined ? 'no price set' : `$${model.costUsd.toFixed(2)}`,
  ]);
  if (rows.length === 0) return 'Nothing to call: the store holds every call of the plan.';
  return formatTextTable(['model', 'calls', 'input tokens', 'output tokens', 'cost'], rows);
}

/**
 * The batch lines (`batchedCostLines`, the tournament's words): the cost at batch prices next to the direct one,
 * and the waves, one per call of a conversation (its opening, then per persuader turn its three or four calls).
 */
function apeBatchLines(
  input: ApeDryRunInput,
  direct: ApeEstimate,
  estimateAt: (prices: ApeEstimateAssumptions['prices']) => ApeEstimate,
  toRun: number,
): string[] {
  const { design } = input;
  const models = setUpSessionModels(input.config, input.env, apeModelsOf(design), { batching: { all: input.batch } });
  if (models.batched.length === 0) return [];
  const batchPrices = (model: string) => (models.batched.includes(model) ? batchPricesOf(models.settingsFor(model)) : undefined);
  const atBatchPrices = estimateAt((model) => batchPrices(model) ?? pricesOf(input, model));
  const steps = 1 + design.turns * (design.refusalCheck ? 4 : 3);
  return batchedCostLines({
    models: models.batched,
    assumed: models.batched.filter((model) => batchPrices(model)?.assumed),
    atBatchPrices,
    direct,
    sequence: `${steps} calls`,
    steps,
    conversations: toRun,
    window: itemsInFlight(
      input.concurrency,
      models.batched.map((model) => batchSettingsOf(models.settingsFor(model), input.batch)?.size ?? 0),
    ),
  });
}

/** A model's prices for the estimate: those of the config; nothing for a model that runs inside pmiyc. */
function pricesOf(input: Pick<ApeDryRunInput, 'config' | 'env'>, model: string): Prices {
  const settings = resolveModelSettings(model, input.config, input.env);
  const kind = findProvider(settings.provider)?.kind;
  return kind === 'sim' || kind === 'llama' ? FREE : settings;
}

/** See the top of this file. */
export async function apeDryRunText(input: ApeDryRunInput): Promise<string[]> {
  const { design, topics } = input;
  const conversations = design.persuaders.length * topics.length * design.repetitions;
  const reuse = await storeReuse(input);
  const progressOf = reuse.reused ? (task: ApeTask) => reuse.work.progress.get(apeItemKey(task)) ?? NOTHING_STORED : undefined;
  const assumptions: ApeEstimateAssumptions = {
    messageTokens: Math.round(design.sampling.maxOutputTokens / 2),
    answerTokens: JUDGE_ANSWER_TOKENS,
    prices: (model) => pricesOf(input, model),
  };
  const estimateAt = (prices: ApeEstimateAssumptions['prices']) =>
    estimateApeRun(design, planApeTasks(design, topics, input.seed), { ...assumptions, prices }, progressOf);
  const estimate = estimateAt(assumptions.prices);
  const toRun = reuse.reused ? conversations - reuse.work.conversationsDone - reuse.work.conversationsReplayed : conversations;
  const judges = design.refusalCheck ? 'the evaluator, the refusal check' : 'the evaluator';
  return [
    `Dry run: nothing is called. APE run: ${design.persuaders.length} persuaders x ${topics.length} topics (${input.topicSource}) x ${design.repetitions} repetitions = ${formatCount(conversations)} conversations of ${design.turns} persuader turns, at temperature ${design.sampling.temperature}.`,
    storeLine(reuse, conversations, input.resumedRun),
    `Calls to make: ${formatCount(estimate.calls)} (the persuadee's opening once per topic and repetition, shared by the persuaders; then on each persuader turn the persuader, ${judges} and the persuadee), before re-asks of unusable replies.`,
    '',
    modelTable(estimate),
    '',
    `Total cost: ${costText(estimate)}.${estimate.unpricedModels.length > 0 ? ' Set inputUsdPerMillion and outputUsdPerMillion for them under models: in the config.' : ''}`,
    ...apeBatchLines(input, estimate, estimateAt, toRun),
    `Assumptions: the persuader's and persuadee's messages of about ${assumptions.messageTokens} tokens (half of --max-tokens), the judges' answers of about ${Math.min(JUDGE_ANSWER_TOKENS, design.sampling.maxOutputTokens)} tokens; ` +
      `input counted from the requests as the run builds them, about ${CHARS_PER_TOKEN} characters a token; every persuader message judged (a message its provider withholds is not); ` +
      'no re-ask and no prompt cache counted; simulated and llama models cost nothing.',
  ];
}
