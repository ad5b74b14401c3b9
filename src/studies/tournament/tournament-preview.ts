import type { PmiycConfig } from '../../config/config-schema.js';
import type { Environment } from '../../config/resolve-model-settings.js';
import type { Claim } from '../../domain/claim.js';
import { batchPricesOf } from '../../models/batch/with-batch.js';
import { modelIdentity } from '../../models/model-identity.js';
import type { ModelSettings } from '../../models/model-settings.js';
import { type PromptCacheRule, promptCacheRule } from '../../models/providers/prompt-cache-rule.js';
import { findProvider } from '../../models/providers/provider-catalog.js';
import { createModelRegistry } from '../../runner/models/model-registry.js';
import type { RunInfo, RunRecords } from '../../runner/run-records.js';
import type { ModelPrices } from './forecast/plan-estimate.js';
import { iteratePlan, type TournamentDesign } from './plan.js';
import { findStoredProgress, StoredCallReplay, type StoredWork } from './stored-progress.js';
import type { RunSettings, StoredDesign } from './tournament-design.js';
import type { EarlyStopHistory, TournamentResults } from './tournament-results.js';
import { failedCallHashes, isHeldBy, type TournamentWork } from './tournament-work.js';

/** What a dry run reads of a store: its stored calls and conversations, and the early stops of its runs. */
type PreviewRecords = Pick<RunRecords, 'callCache'> & Pick<TournamentResults, 'conversationStatus' | 'conversations' | 'earlyStopCounts'>;

export interface PreviewInput {
  readonly design: StoredDesign;
  readonly claims: readonly Claim[];
  readonly runSeed: number;
  readonly config: PmiycConfig;
  readonly env: Environment;
  /** The session's settings (`sessionSettings`) and what they make of the models (`planTournamentWork`). */
  readonly settings: RunSettings;
  readonly work: TournamentWork;
  /** The store, opened to read; absent when there is none yet or it holds no run. */
  readonly records?: PreviewRecords;
  /** The stored run a resume continues: its own calls are reused (and earlier runs' unless it was started with --no-cache), its conversations skipped. */
  readonly resumed?: { readonly run: RunInfo; readonly retryFailed: boolean };
  /** A GGUF file's content hash for its call identity, as a run would take it (reading the file is I/O). */
  readonly fileSha256: (settings: ModelSettings) => string | undefined;
}

/** Which models are batched (`--batch`, `batch:`), at what prices, and how many conversations are in flight at once. */
export interface PreviewBatching {
  /** The batched models, as named in the config or on the command line. */
  readonly models: readonly string[];
  /** Whether an agent (a model, or a model+variant) is batched. */
  readonly isBatched: (agent: string) => boolean;
  /** A batched model's prices; `assumed` when they are half the direct ones because the config gives none. */
  readonly prices: (model: string) => (ModelPrices & { readonly assumed: boolean }) | undefined;
  /** Conversations in flight at once (`TournamentWork.window`). */
  readonly window: number;
}

/** What the store holds of the plan, or why nothing in it is reused: there is no store with a run yet, or `--no-cache`. */
export type PreviewStore =
  | { readonly reused: true; readonly work: StoredWork; readonly runName?: string }
  | { readonly reused: false; readonly why: 'no-store' | 'no-cache' };

/** A dry run's plan: what a run would run, at what prices, with what the store holds of it already. */
export interface TournamentPreview {
  readonly design: TournamentDesign;
  readonly maxOutputTokens: number;
  /** An agent's prices (simulated agents cost nothing). */
  readonly prices: (agent: string) => ModelPrices | undefined;
  /** The prompt cache an agent's provider applies, for the estimate of cached input (none for simulated agents). */
  readonly promptCache: (agent: string) => PromptCacheRule | undefined;
  readonly history: EarlyStopHistory;
  readonly batching: PreviewBatching;
  readonly stored: PreviewStore;
}

/** A simulated agent runs inside pmiyc and costs nothing; other models cost what the config says. */
const FREE = { inputUsdPerMillion: 0, outputUsdPerMillion: 0 };

/**
 * `pmiyc run --dry-run`: the plan a run (or a resume) would run, what the store already holds of
 * it (replayed for free by a real run) and the prices of the rest. Reads the store, never writes it.
 */
export async function previewTournament(input: PreviewInput): Promise<TournamentPreview> {
  const design: TournamentDesign = { ...input.design, claims: input.claims, runSeed: input.runSeed };
  const { agents, sessionModels, batched, window } = input.work;
  const modelOf = (agent: string) => agents.agent(agent).model;
  const settingsOf = (agent: string) => sessionModels.settingsFor(modelOf(agent));
  return {
    design,
    maxOutputTokens: input.design.sampling.maxOutputTokens,
    prices: (agent) => {
      const settings = settingsOf(agent);
      return findProvider(settings.provider)?.kind === 'sim' ? FREE : settings;
    },
    promptCache: (agent) => promptCacheRule(settingsOf(agent)),
    history: new Map(input.records?.earlyStopCounts()),
    batching: {
      models: batched,
      isBatched: (agent) => batched.includes(modelOf(agent)),
      prices: (agent) => batchPricesOf(settingsOf(agent)),
      window,
    },
    stored: await storedWork(input, design),
  };
}

/**
 * What the store holds of the plan, found by replaying each conversation from the calls a real run
 * could reuse: for a new run every earlier run's (none with --no-cache), for a resume its own and,
 * unless it was started with --no-cache, earlier runs'.
 */
async function storedWork(input: PreviewInput, design: TournamentDesign): Promise<PreviewStore> {
  const { records, resumed } = input;
  if (!records) return { reused: false, why: 'no-store' };
  if (!resumed && !input.settings.cache) return { reused: false, why: 'no-cache' };
  const { agents, sessionModels } = input.work;
  // A new run has no calls of its own yet: no run has id 0.
  const runId = resumed?.run.id ?? 0;
  const replay = new StoredCallReplay(
    records.callCache(runId, { reuseEarlierRuns: input.settings.cache }),
    resumed?.retryFailed ? failedCallHashes(records, runId) : undefined,
  );
  const identityOf = (settings: ModelSettings) => {
    const fileSha256 = input.fileSha256(settings);
    return modelIdentity(settings, fileSha256 ? { fileSha256 } : {});
  };
  const registry = createModelRegistry(input.config, input.env, {
    settingsFor: sessionModels.settingsFor,
    decorateFor: (settings) => [replay.layer(identityOf(settings))],
  });
  const work = await findStoredProgress({
    plan: iteratePlan(design),
    modelFor: (agent) => registry.modelFor(agents.agent(agent).model),
    replay,
    promptsFor: (agent) => agents.agent(agent).prompts,
    seedNamesFor: (agent) => agents.agent(agent).seedNames,
    sampling: input.design.sampling,
    ...(input.design.probeDrift ? { probeDrift: true } : {}),
    ...(resumed ? { isDone: isHeldBy(records, resumed.run.id, resumed.retryFailed) } : {}),
  });
  return { reused: true, work, ...(resumed ? { runName: resumed.run.name } : {}) };
}
