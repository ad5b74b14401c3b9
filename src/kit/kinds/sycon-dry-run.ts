import type { PmiycConfig } from '../../config/config-schema.js';
import { type Environment, resolveModelSettings } from '../../config/resolve-model-settings.js';
import { formatCount, labelModel } from '../../domain/text-labels.js';
import { modelFileSha256 } from '../../io/process/model-file-digest.js';
import { findProvider } from '../../models/providers/provider-catalog.js';
import { CHARS_PER_TOKEN } from '../../models/token-estimate.js';
import type { Prices } from '../../models/wrappers/with-cost.js';
import type { SyconDesign } from '../../protocols/sycon/run/sycon-design.js';
import { estimateSyconRun, NOTHING_STORED, type SyconEstimate, type SyconEstimateAssumptions } from '../../protocols/sycon/run/sycon-estimate.js';
import { syconItemKey } from '../../protocols/sycon/run/sycon-record.js';
import { findSyconStoredWork, type SyconStoredWork } from '../../protocols/sycon/run/sycon-stored-work.js';
import { planSyconTasks, type SyconTask } from '../../protocols/sycon/run/sycon-study.js';
import type { SyconQuestion } from '../../protocols/sycon/sycon-questions.js';
import { costText } from '../../report/texts/dry-run-text.js';
import { formatTextTable } from '../../report/texts/text-table.js';
import type { Store } from '../../store/result-store.js';

/**
 * `pmiyc run --protocol sycon --dry-run`: the plan, what the store holds of it (replayed for free by a run), the calls
 * still to make of each model with their tokens and cost, and the assumptions said, in the words of the other dry
 * runs (report/texts/dry-run-text.ts). Reads the store, never writes it; makes no call.
 */

/** What a dry run prices: the run's design and questions, its seed, its config, and the run it continues. */
export interface SyconDryRunInput {
  readonly design: SyconDesign;
  readonly questions: readonly SyconQuestion[];
  readonly questionSource: string;
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
}

/** Output tokens of the judge's JSON answer: a sentence or two of reasoning and the label. */
const JUDGE_ANSWER_TOKENS = 60;

/** Models that run inside pmiyc (simulated agents, llama's GGUF files) cost nothing; others what the config says. */
const FREE: Prices = { inputUsdPerMillion: 0, outputUsdPerMillion: 0 };

type StoreReuse = { readonly reused: true; readonly work: SyconStoredWork } | { readonly reused: false; readonly why: string };

/** What the store holds of the plan, or why nothing in it is reused. */
async function storeReuse(input: SyconDryRunInput): Promise<StoreReuse> {
  const { store } = input;
  if (store === undefined) return { reused: false, why: `there is no run in a store at ${input.storePath} yet` };
  const resumed = input.resumedRun === undefined ? undefined : store.findRun(input.resumedRun);
  if (resumed === undefined && !input.cache) return { reused: false, why: '--no-cache reuses no call of an earlier run' };
  const work = await findSyconStoredWork({
    design: input.design,
    tasks: planSyconTasks(input.design, input.questions, input.seed),
    config: input.config,
    env: input.env,
    // A new run has no calls of its own yet: no run has id 0.
    calls: store.callCache(resumed?.id ?? 0, { reuseEarlierRuns: input.cache }),
    ...(resumed ? { isDone: (task) => store.protocolRecords.has(resumed.id, syconItemKey(task)) } : {}),
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
function modelTable(estimate: SyconEstimate): string {
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

/** A model's prices for the estimate: those of the config; nothing for a model that runs inside pmiyc. */
function pricesOf(input: Pick<SyconDryRunInput, 'config' | 'env'>, model: string): Prices {
  const settings = resolveModelSettings(model, input.config, input.env);
  const kind = findProvider(settings.provider)?.kind;
  return kind === 'sim' || kind === 'llama' ? FREE : settings;
}

/** See the top of this file. */
export async function syconDryRunText(input: SyconDryRunInput): Promise<string[]> {
  const { design, questions } = input;
  const defences = design.defences.list.map((defence) => defence.name);
  const conversations = design.persuadees.length * defences.length * questions.length * design.repetitions;
  const reuse = await storeReuse(input);
  const progressOf = reuse.reused ? (task: SyconTask) => reuse.work.progress.get(syconItemKey(task)) ?? NOTHING_STORED : undefined;
  const assumptions: SyconEstimateAssumptions = {
    messageTokens: Math.round(design.sampling.maxOutputTokens / 2),
    answerTokens: JUDGE_ANSWER_TOKENS,
    prices: (model) => pricesOf(input, model),
  };
  const estimate = estimateSyconRun(design, planSyconTasks(design, questions, input.seed), assumptions, progressOf);
  const pressure = design.persuader ? "the pressure agent's push-back where the question has none of the benchmark's, " : '';
  return [
    `Dry run: nothing is called. SYCON-Bench run: ${design.persuadees.length} models x ${defences.length} defences (${defences.join(', ')}) x ${questions.length} questions (${input.questionSource}) x ${design.repetitions} repetitions = ${formatCount(conversations)} conversations of ${design.pressureTurns} pressure turns, at temperature ${design.sampling.temperature}.`,
    storeLine(reuse, conversations, input.resumedRun),
    `Calls to make: ${formatCount(estimate.calls)} (the first answer and its label, then on each pressure turn ${pressure}the reply and its label), before re-asks of unusable replies.`,
    ...(design.persuader ? [] : ["No pressure agent: a turn without the benchmark's push-back gets pmiyc's fixed disagreement, which costs nothing."]),
    '',
    modelTable(estimate),
    '',
    `Total cost: ${costText(estimate)}.${estimate.unpricedModels.length > 0 ? ' Set inputUsdPerMillion and outputUsdPerMillion for them under models: in the config.' : ''}`,
    `Assumptions: the model's replies and the agent's push-backs of about ${assumptions.messageTokens} tokens (half of --max-tokens), the judge's answers of about ${Math.min(JUDGE_ANSWER_TOKENS, design.sampling.maxOutputTokens)} tokens; ` +
      `input counted from the requests as the run builds them, about ${CHARS_PER_TOKEN} characters a token; ` +
      'no re-ask and no prompt cache counted; simulated and llama models cost nothing.',
  ];
}
