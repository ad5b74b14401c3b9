import type { PmiycConfig } from '../../config/config-schema.js';
import { type Environment, resolveModelSettings } from '../../config/resolve-model-settings.js';
import { formatCount, labelModel } from '../../domain/text-labels.js';
import { modelFileSha256 } from '../../io/process/model-file-digest.js';
import { batchPricesOf, batchSettingsOf } from '../../models/batch/with-batch.js';
import { findProvider } from '../../models/providers/provider-catalog.js';
import type { SimulatedProtocol } from '../../models/sim/simulated-protocol.js';
import type { Prices } from '../../models/wrappers/with-cost.js';
import { batchedCostLines, costText } from '../../report/texts/dry-run-text.js';
import { formatTextTable } from '../../report/texts/text-table.js';
import { setUpSessionModels } from '../../runner/models/check-models.js';
import { itemsInFlight } from '../../runner/run-session.js';
import { openToRead } from '../../store/open-to-read.js';
import type { Store } from '../../store/result-store.js';
import type { ModelPrices, ProtocolEstimate, StoredConversationProgress } from '../../studies/protocol-estimate.js';
import { type ConversationReplay, findProtocolStoredWork, type ProtocolStoredWork } from '../../studies/protocol-stored-work.js';
import type { CommandContext } from '../command-context.js';
import { type PreparedStudy, type StudyCommandOptions, withStore } from '../study-command.js';

/**
 * What every protocol's `--dry-run` shares (docs/design/protocols.md, "The dry run"), in the words of the
 * tournament's (report/texts/dry-run-text.ts): the store opened to read (a resume's run, or any store there is),
 * what it holds of the plan (replayed for free by a run), the calls of each model as a table, the total cost, and
 * each model's prices. A protocol's dry run (`kit/kinds/<protocol>-dry-run.ts`) says its plan, its calls and its
 * assumptions. Reads the store, never writes it; makes no call.
 */

/** What every protocol's dry run is given besides its prepared run. */
export interface ProtocolDryRunSettings {
  readonly env: Environment;
  /** The store, opened to read; absent when there is none yet. */
  readonly store?: Store;
  readonly storePath: string;
  /** The stored run a resume continues: its conversations are skipped, its calls replayed. */
  readonly resumedRun?: string;
  /** False: --no-cache (a new run reuses no call of an earlier run). */
  readonly cache: boolean;
  /** The model calls in flight at once. */
  readonly concurrency: number;
}

export type StoreReuse<Progress> = { readonly reused: true; readonly work: ProtocolStoredWork<Progress> } | { readonly reused: false; readonly why: string };

/** Models that run inside pmiyc (simulated agents, llama's GGUF files) cost nothing; others what the config says. */
const FREE: Prices = { inputUsdPerMillion: 0, outputUsdPerMillion: 0 };

/** What the store holds of the plan (`tasks`, each replayed by `replay` with the run's simulated agents), or why nothing in it is reused. */
export async function storeReuse<Task, Progress extends StoredConversationProgress>(
  input: ProtocolDryRunSettings & { readonly config: PmiycConfig },
  plan: { readonly tasks: Iterable<Task>; readonly replay: ConversationReplay<Task, Progress>; readonly simulatedProtocol: SimulatedProtocol },
): Promise<StoreReuse<Progress>> {
  const { store } = input;
  if (store === undefined) return { reused: false, why: `there is no run in a store at ${input.storePath} yet` };
  const resumed = input.resumedRun === undefined ? undefined : store.findRun(input.resumedRun);
  if (resumed === undefined && !input.cache) return { reused: false, why: '--no-cache reuses no call of an earlier run' };
  const work = await findProtocolStoredWork(
    {
      tasks: plan.tasks,
      config: input.config,
      env: input.env,
      // A new run has no calls of its own yet: no run has id 0.
      calls: store.callCache(resumed?.id ?? 0, { reuseEarlierRuns: input.cache }),
      ...(resumed ? { isDone: (itemKey: string) => store.protocolRecords.has(resumed.id, itemKey) } : {}),
      fileSha256: (settings) => modelFileSha256(settings, { knownFileSha256: (...file) => store.knownFileSha256(...file), rememberFileSha256: () => {} }),
      simulatedProtocol: plan.simulatedProtocol,
    },
    plan.replay,
  );
  return { reused: true, work };
}

/** What the store holds of a conversation, for the estimate (`nothing` where it holds nothing); undefined when the store is not reused. */
export function storedProgressOf<Task, Progress>(
  reuse: StoreReuse<Progress>,
  itemKey: (task: Task) => string,
  nothing: Progress,
): ((task: Task) => Progress) | undefined {
  return reuse.reused ? (task) => reuse.work.progress.get(itemKey(task)) ?? nothing : undefined;
}

/** Conversations the run still asks something of: those the store neither holds in the resumed run nor replays whole. */
export function conversationsToRun(reuse: StoreReuse<unknown>, conversations: number): number {
  return reuse.reused ? conversations - reuse.work.conversationsDone - reuse.work.conversationsReplayed : conversations;
}

/** The store's line: the calls it replays, the conversations needing no new call, those a resumed run holds. */
export function storeLine(reuse: StoreReuse<unknown>, conversations: number, resumedRun: string | undefined): string {
  if (!reuse.reused) return `Nothing in the store is reused: ${reuse.why}.`;
  const { work } = reuse;
  const done = work.conversationsDone > 0 ? `; run ${resumedRun} holds ${formatCount(work.conversationsDone)} of the conversations already, skipped` : '';
  return (
    `In the store already: ${formatCount(work.storedCalls)} calls, replayed for free, not counted below ` +
    `(${formatCount(work.conversationsReplayed)} of the ${formatCount(conversations)} conversations need no new call${done}).`
  );
}

/** The calls of each model, their tokens and cost, as a table; `callsHeader` names the calls' column (`calls at most` for a ceiling). */
export function modelTable(estimate: ProtocolEstimate, callsHeader = 'calls'): string {
  const rows = estimate.byModel.map((model) => [
    labelModel(model.model),
    formatCount(model.calls),
    formatCount(model.inputTokens),
    formatCount(model.outputTokens),
    model.costUsd === undefined ? 'no price set' : `$${model.costUsd.toFixed(2)}`,
  ]);
  if (rows.length === 0) return 'Nothing to call: the store holds every call of the plan.';
  return formatTextTable(['model', callsHeader, 'input tokens', 'output tokens', 'cost'], rows);
}

/** The total's line (`Total cost, at most` for a ceiling), with what to set for models without prices. */
export function totalCostLine(estimate: ProtocolEstimate, label = 'Total cost'): string {
  return `${label}: ${costText(estimate)}.${estimate.unpricedModels.length > 0 ? ' Set inputUsdPerMillion and outputUsdPerMillion for them under models: in the config.' : ''}`;
}

/** A model's prices for the estimate: those of the config; nothing for a model that runs inside pmiyc. */
export function pricesOf(input: { readonly config: PmiycConfig; readonly env: Environment }, model: string): Prices {
  const settings = resolveModelSettings(model, input.config, input.env);
  const kind = findProvider(settings.provider)?.kind;
  return kind === 'sim' || kind === 'llama' ? FREE : settings;
}

/** What the batch lines price: the run's models, its simulated replies, the estimate at given prices, and its waves. */
interface BatchedRun {
  readonly models: readonly string[];
  readonly simulatedProtocol: SimulatedProtocol;
  /** The estimate at direct prices, and at any prices. */
  readonly direct: ProtocolEstimate;
  readonly estimateAt: (prices: ModelPrices) => ProtocolEstimate;
  /** A conversation's calls in sequence: each is one wave of the run's conversations. */
  readonly steps: number;
  /** Conversations still to run. */
  readonly conversations: number;
}

/**
 * The batch lines (`batchedCostLines`, the tournament's words) when a model is batched (`--batch`, or `batch:` under
 * it in the config): the cost at batch prices next to the direct one, and the waves.
 */
export function batchLines(input: ProtocolDryRunSettings & { readonly config: PmiycConfig; readonly batch: boolean }, run: BatchedRun): string[] {
  const models = setUpSessionModels(input.config, input.env, run.models, { batching: { all: input.batch }, simulatedProtocol: run.simulatedProtocol });
  if (models.batched.length === 0) return [];
  const batchPrices = (model: string) => (models.batched.includes(model) ? batchPricesOf(models.settingsFor(model)) : undefined);
  return batchedCostLines({
    models: models.batched,
    assumed: models.batched.filter((model) => batchPrices(model)?.assumed),
    atBatchPrices: run.estimateAt((model) => batchPrices(model) ?? pricesOf(input, model)),
    direct: run.direct,
    sequence: `${run.steps} calls`,
    steps: run.steps,
    conversations: run.conversations,
    window: itemsInFlight(
      input.concurrency,
      models.batched.map((model) => batchSettingsOf(models.settingsFor(model), input.batch)?.size ?? 0),
    ),
  });
}

/**
 * A protocol kind's `dryRun`: a resume's run prepared from its store (opened to read, and it must exist), or a new
 * run's with whatever store is there, then priced by the protocol's `dryRunText`.
 */
export function protocolDryRun<Options extends StudyCommandOptions, Prepared extends PreparedStudy>(
  prepareResume: (store: Store, options: Options, context: CommandContext) => Promise<Prepared>,
  dryRunText: (input: Prepared & ProtocolDryRunSettings) => Promise<string[]>,
): (fresh: Prepared | undefined, options: Options, context: CommandContext) => Promise<string[]> {
  return async (fresh, options, context) => {
    const common = { env: context.env, storePath: options.store, cache: options.cache, concurrency: options.concurrency };
    if (fresh === undefined)
      return withStore(options.store, 'read', context.now, async (store) => {
        const prepared = await prepareResume(store, options, context);
        return dryRunText({ ...prepared, ...common, store, ...(prepared.name ? { resumedRun: prepared.name } : {}) });
      });
    const store = openToRead(options.store);
    try {
      return await dryRunText({ ...fresh, ...common, ...(store ? { store } : {}) });
    } finally {
      store?.close();
    }
  };
}
