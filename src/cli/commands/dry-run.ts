import { existsSync } from 'node:fs';
import type { PmiycConfig } from '../../config/config-schema.js';
import type { Environment } from '../../config/resolve-model-settings.js';
import type { Claim } from '../../domain/claim.js';
import { StoreError } from '../../domain/errors/store-error.js';
import { loadConfig } from '../../io/load-config.js';
import { modelFileSha256 } from '../../io/model-file-digest.js';
import { batchPricesOf, batchSettingsOf } from '../../models/batch/with-batch.js';
import { modelIdentity } from '../../models/model-identity.js';
import type { ModelSettings } from '../../models/model-settings.js';
import { findProvider } from '../../models/providers/provider-catalog.js';
import { type DryRunStore, dryRunText } from '../../report/dry-run-text.js';
import { checkBatching, checkModels } from '../../runner/check-models.js';
import { createModelRegistry } from '../../runner/model-registry.js';
import type { RunInfo } from '../../runner/run-records.js';
import { ITEMS_PER_CALL_SLOT } from '../../runner/run-session.js';
import { openStore, type Store } from '../../store/result-store.js';
import { agentOf, modelsOfAgents, promptsByAgent, seedNamesOf } from '../../studies/tournament/agents.js';
import { iteratePlan, type TournamentDesign } from '../../studies/tournament/plan.js';
import { findStoredProgress, StoredCallReplay } from '../../studies/tournament/stored-progress.js';
import type { StoredDesign } from '../../studies/tournament/tournament-design.js';
import { failedCallHashes } from '../../studies/tournament/tournament-study.js';
import type { CliContext } from '../terminal.js';

/** What a dry run plans: a new run's design, or a stored run's that a resume would continue. */
export interface DryRunPlan {
  readonly design: StoredDesign;
  readonly claims: readonly Claim[];
  readonly configPath?: string;
  readonly runSeed: number;
  /** The stored run a resume continues: its own calls are reused (and earlier runs' unless it was started with --no-cache), its conversations skipped. */
  readonly resumed?: { readonly run: RunInfo; readonly cache: boolean; readonly retryFailed: boolean };
}

export interface DryRunOptions {
  readonly store: string;
  readonly cache: boolean;
  readonly maxCost?: number;
  readonly batch?: boolean;
  readonly concurrency: number;
}

/** A simulated agent runs inside pmiyc and costs nothing; other models cost what the config says. */
const FREE = { inputUsdPerMillion: 0, outputUsdPerMillion: 0 };
const pricesOf = (settings: ModelSettings) => (findProvider(settings.provider)?.kind === 'sim' ? FREE : settings);

/**
 * `pmiyc run --dry-run`: the plan, what the store already holds of it (replayed for free by a real
 * run) and what the rest will cost. Read-only: the store is opened to read, when there is one, and
 * nothing is created or changed.
 */
export async function dryRunCommand(plan: DryRunPlan, options: DryRunOptions, context: CliContext, opened?: Store): Promise<number> {
  const config = loadConfig(plan.configPath);
  const variants = plan.design.variants ?? {};
  const names = modelsOfAgents([...plan.design.persuaders, ...plan.design.persuadees], variants);
  checkModels(config, context.env, names, options.maxCost);
  const batched = checkBatching(config, context.env, names, options.batch === true);
  const design: TournamentDesign = { ...plan.design, claims: plan.claims, runSeed: plan.runSeed };
  const store = opened ?? openToRead(options.store);
  let history = new Map<string, { replies: number; stops: number }>();
  let stored: DryRunStore;
  try {
    if (store) history = new Map(store.earlyStopCounts());
    stored = await storedWork(store, plan, design, config, context.env, options);
  } finally {
    if (!opened) store?.close();
  }
  const registry = createModelRegistry(config, context.env);
  const settingsOf = (agent: string) => registry.settingsFor(agentOf(agent, variants).model);
  const batching = {
    models: batched,
    isBatched: (agent: string) => batched.includes(agentOf(agent, variants).model),
    prices: (agent: string) => batchPricesOf(settingsOf(agent)),
    window: Math.max(
      options.concurrency * ITEMS_PER_CALL_SLOT,
      ...batched.map((name) => batchSettingsOf(registry.settingsFor(name), options.batch === true)?.size ?? 0),
    ),
  };
  const lines = dryRunText(design, plan.design.sampling.maxOutputTokens, (agent) => pricesOf(settingsOf(agent)), history, { batching, store: stored });
  context.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** The store at `path` opened to read, or undefined when it does not exist yet or holds no run. */
function openToRead(path: string): Store | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return openStore(path, { access: 'read' });
  } catch (error) {
    if (error instanceof StoreError && error.problem === 'empty') return undefined;
    throw error;
  }
}

/**
 * What the store holds of the plan, found by replaying each conversation from the calls a real run
 * could reuse: for a new run every earlier run's (none with --no-cache), for a resume its own and,
 * unless it was started with --no-cache, earlier runs'.
 */
async function storedWork(
  store: Store | undefined,
  plan: DryRunPlan,
  design: TournamentDesign,
  config: PmiycConfig,
  env: Environment,
  options: DryRunOptions,
): Promise<DryRunStore> {
  if (!store) return { reused: false, why: `there is no run in a store at ${options.store} yet` };
  const { resumed } = plan;
  if (!resumed && !options.cache) return { reused: false, why: '--no-cache reuses no call of an earlier run' };
  const variants = plan.design.variants ?? {};
  // A new run has no calls of its own yet: no run has id 0.
  const runId = resumed?.run.id ?? 0;
  const replay = new StoredCallReplay(
    store.callCache(runId, { reuseEarlierRuns: resumed?.cache ?? true }),
    resumed?.retryFailed ? failedCallHashes(store, runId) : undefined,
  );
  // A GGUF file's hash as the store knows it, else hashed now (and not remembered: the store is only read).
  const fileHashes = { knownFileSha256: store.knownFileSha256.bind(store), rememberFileSha256: () => {} };
  const identityOf = (settings: ModelSettings) => {
    const fileSha256 = modelFileSha256(settings, fileHashes);
    return modelIdentity(settings, fileSha256 ? { fileSha256 } : {});
  };
  const registry = createModelRegistry(config, env, { decorateFor: (settings) => [replay.layer(identityOf(settings))] });
  const work = await findStoredProgress({
    plan: iteratePlan(design),
    modelFor: (agent) => registry.modelFor(agentOf(agent, variants).model),
    replay,
    promptsFor: promptsByAgent(variants),
    seedNamesFor: (agent) => seedNamesOf(agent, variants),
    sampling: plan.design.sampling,
    ...(resumed
      ? {
          isDone: (planned) => {
            const status = store.conversationStatus(resumed.run.id, planned.id);
            return resumed.retryFailed ? status === 'completed' : status !== undefined;
          },
        }
      : {}),
  });
  return { reused: true, work, ...(resumed ? { runName: resumed.run.name } : {}) };
}
