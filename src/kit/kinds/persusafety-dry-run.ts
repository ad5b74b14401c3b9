import type { PmiycConfig } from '../../config/config-schema.js';
import { type Environment, resolveModelSettings } from '../../config/resolve-model-settings.js';
import { formatCount, labelModel } from '../../domain/text-labels.js';
import { modelFileSha256 } from '../../io/process/model-file-digest.js';
import { findProvider } from '../../models/providers/provider-catalog.js';
import { CHARS_PER_TOKEN } from '../../models/token-estimate.js';
import type { Prices } from '../../models/wrappers/with-cost.js';
import type { PersusafetyProfile } from '../../protocols/persusafety/persusafety-facts.js';
import {
  estimatePersusafetyRun,
  NOTHING_STORED,
  type PersusafetyEstimate,
  type PersusafetyEstimateAssumptions,
} from '../../protocols/persusafety/run/persusafety-estimate.js';
import { type PersusafetyRunDesign, persusafetyConstraintsOf } from '../../protocols/persusafety/run/persusafety-run-design.js';
import { persusafetyConditionWord } from '../../protocols/persusafety/run/persusafety-run-options.js';
import type { PersusafetyRunScene } from '../../protocols/persusafety/run/persusafety-run-scenes.js';
import { findPersusafetyStoredWork, type PersusafetyStoredWork } from '../../protocols/persusafety/run/persusafety-stored-work.js';
import { type PersusafetyTask, persusafetyTaskCount, planPersusafetyTasks } from '../../protocols/persusafety/run/persusafety-study.js';
import { persusafetySimulatedProtocol } from '../../protocols/persusafety/sim/persusafety-simulated.js';
import { costText } from '../../report/texts/dry-run-text.js';
import { formatTextTable } from '../../report/texts/text-table.js';
import type { Store } from '../../store/result-store.js';

/**
 * `pmiyc run --protocol persusafety --dry-run`: the plan, what the store holds of it (replayed for free by a run),
 * the calls still to make of each model at most, with their tokens and cost, and the assumptions said, in the words
 * of APE's and the tournament's dry runs. Reads the store, never writes it; makes no call.
 */

/** What a dry run prices: the run's design, scenes and profiles, its seed, its config, and the run it continues. */
export interface PersusafetyDryRunInput {
  readonly design: PersusafetyRunDesign;
  readonly scenes: readonly PersusafetyRunScene[];
  readonly profiles: ReadonlyMap<PersusafetyProfile, string>;
  readonly source: string;
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

/** Output tokens assumed of the task probe's answer (a line), and of the judge's 15 scores with a sentence each. */
const PROBE_ANSWER_TOKENS = 20;
const JUDGEMENT_TOKENS = 450;

/** Models that run inside pmiyc (simulated agents, llama's GGUF files) cost nothing; others what the config says. */
const FREE: Prices = { inputUsdPerMillion: 0, outputUsdPerMillion: 0 };

type StoreReuse = { readonly reused: true; readonly work: PersusafetyStoredWork } | { readonly reused: false; readonly why: string };

const tasksOf = (input: PersusafetyDryRunInput) => planPersusafetyTasks(input.design, input.scenes, input.profiles, input.seed);

/** What the store holds of the plan, or why nothing in it is reused. */
async function storeReuse(input: PersusafetyDryRunInput): Promise<StoreReuse> {
  const { store } = input;
  if (store === undefined) return { reused: false, why: `there is no run in a store at ${input.storePath} yet` };
  const resumed = input.resumedRun === undefined ? undefined : store.findRun(input.resumedRun);
  if (resumed === undefined && !input.cache) return { reused: false, why: '--no-cache reuses no call of an earlier run' };
  const work = await findPersusafetyStoredWork({
    design: input.design,
    tasks: tasksOf(input),
    config: input.config,
    env: input.env,
    // A new run has no calls of its own yet: no run has id 0.
    calls: store.callCache(resumed?.id ?? 0, { reuseEarlierRuns: input.cache }),
    ...(resumed ? { isDone: (task: PersusafetyTask) => store.protocolRecords.has(resumed.id, task.itemKey) } : {}),
    fileSha256: (settings) => modelFileSha256(settings, { knownFileSha256: (...file) => store.knownFileSha256(...file), rememberFileSha256: () => {} }),
    simulatedProtocol: persusafetySimulatedProtocol(input.scenes),
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
function modelTable(estimate: PersusafetyEstimate): string {
  const rows = estimate.byModel.map((model) => [
    labelModel(model.model),
    formatCount(model.calls),
    formatCount(model.inputTokens),
    formatCount(model.outputTokens),
    model.costUsd === undefined ? 'no price set' : `$${model.costUsd.toFixed(2)}`,
  ]);
  if (rows.length === 0) return 'Nothing to call: the store holds every call of the plan.';
  return formatTextTable(['model', 'calls at most', 'input tokens', 'output tokens', 'cost'], rows);
}

/** A model's prices for the estimate: those of the config; nothing for a model that runs inside pmiyc. */
function pricesOf(input: Pick<PersusafetyDryRunInput, 'config' | 'env'>, model: string): Prices {
  const settings = resolveModelSettings(model, input.config, input.env);
  const kind = findProvider(settings.provider)?.kind;
  return kind === 'sim' || kind === 'llama' ? FREE : settings;
}

/** The plan in a line: persuaders x scenes x profiles x conditions x constraints x repetitions. */
function planLine(input: PersusafetyDryRunInput, conversations: number): string {
  const { design, scenes } = input;
  const sets = design.sceneSets.map((set) => `${scenes.filter((scene) => scene.sceneSet === set).length} ${set}`).join(' and ');
  const constraints = design.sceneSets.includes('neutral') ? ` x constraints ${persusafetyConstraintsOf(design, 'neutral').join(', ')} (neutral scenes)` : '';
  const turns = design.turns === undefined ? "the benchmark's turns (15 on a harmful task, 10 on a neutral scene)" : `${design.turns} turns at most`;
  return (
    `Dry run: nothing is called. PersuSafety run: ${design.persuaders.length} persuaders x ${sets} scenes (${input.source}) x ${design.profiles.length} profiles x profile ${design.conditions.map(persusafetyConditionWord).join(' and ')}` +
    `${constraints} x ${design.repetitions} repetitions = ${formatCount(conversations)} conversations, ${turns}, at temperature ${design.sampling.temperature}.`
  );
}

/** See the top of this file. */
export async function persusafetyDryRunText(input: PersusafetyDryRunInput): Promise<string[]> {
  const { design } = input;
  const conversations = persusafetyTaskCount(design, input.scenes);
  const reuse = await storeReuse(input);
  const assumptions: PersusafetyEstimateAssumptions = {
    messageTokens: Math.round(design.sampling.maxOutputTokens / 2),
    probeTokens: Math.min(PROBE_ANSWER_TOKENS, design.sampling.maxOutputTokens),
    judgementTokens: JUDGEMENT_TOKENS,
    prices: (model) => pricesOf(input, model),
  };
  const progressOf = reuse.reused ? (task: PersusafetyTask) => reuse.work.progress.get(task.itemKey) ?? NOTHING_STORED : undefined;
  const estimate = estimatePersusafetyRun(design, tasksOf(input), assumptions, progressOf);
  return [
    planLine(input, conversations),
    storeLine(reuse, conversations, input.resumedRun),
    `Calls to make, at most: ${formatCount(estimate.calls)} (each conversation's task probe, then on each turn the persuader and the persuadee, then one judge's call; a declined task, an acceptance or a fourth rejection ends a conversation sooner), before re-asks of unusable replies.`,
    '',
    modelTable(estimate),
    '',
    `Total cost, at most: ${costText(estimate)}.${estimate.unpricedModels.length > 0 ? ' Set inputUsdPerMillion and outputUsdPerMillion for them under models: in the config.' : ''}`,
    `Assumptions: every conversation runs its every turn; the persuader's and persuadee's messages of about ${assumptions.messageTokens} tokens (half of --max-tokens), the task probe's answer of about ${assumptions.probeTokens}, the judge's answer of about ${Math.min(JUDGEMENT_TOKENS, design.judgeSampling.maxOutputTokens)}; ` +
      `input counted from the requests as the run builds them, about ${CHARS_PER_TOKEN} characters a token; no re-ask and no prompt cache counted; simulated and llama models cost nothing.`,
  ];
}
