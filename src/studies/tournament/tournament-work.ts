import type { PmiycConfig } from '../../config/config-schema.js';
import type { Environment } from '../../config/resolve-model-settings.js';
import type { Claim } from '../../domain/claim.js';
import { batchSettingsOf } from '../../models/batch/with-batch.js';
import type { ModelSettings } from '../../models/model-settings.js';
import { type CheckedModels, setUpSessionModels } from '../../runner/models/check-models.js';
import { itemsInFlight } from '../../runner/run-session.js';
import { type AgentRoster, checkVariantsFitClaims, resolveAgents } from './agents.js';
import type { PlannedConversation } from './plan.js';
import { type RunSettings, type StoredDesign, TOURNAMENT_DEFAULTS } from './tournament-design.js';
import type { TournamentResults } from './tournament-results.js';

/** Settings given for a session; each one left out is the stored run's, else the default. */
export interface GivenSettings {
  /** Model calls in flight at once, across all models. */
  readonly concurrency?: number;
  /** False: reuse nothing from earlier runs (`--no-cache`). */
  readonly cache?: boolean;
  readonly maxCostUsd?: number;
  /** Stop once more than this many conversations failed (or a fraction of those finished, when below 1). */
  readonly maxFailures?: number;
  /** Every model's calls through its provider's batch service. */
  readonly batch?: boolean;
}

/** A session's settings as typed on the command line, with the option names the user typed (not defaults) in `given`. */
export interface TypedSettings {
  readonly concurrency: number;
  readonly maxFailures?: number;
  readonly maxCost?: number;
  readonly batch?: boolean;
  readonly cache: boolean;
  readonly given: ReadonlySet<string>;
}

/**
 * The settings a session is given: all those typed (or defaulted) for a new run; on a resume, only
 * those typed again, so that the rest stay the run's own (`sessionSettings`). --batch and the cache
 * flag are given either way: the stored run's --no-cache wins over them there.
 */
export function givenSettingsOf(typed: TypedSettings, continuing: boolean): GivenSettings {
  const given = (key: string) => typed.given.has(key) || !continuing;
  return {
    ...(given('concurrency') ? { concurrency: typed.concurrency } : {}),
    ...(given('maxFailures') && typed.maxFailures !== undefined ? { maxFailures: typed.maxFailures } : {}),
    ...(given('maxCost') && typed.maxCost !== undefined ? { maxCostUsd: typed.maxCost } : {}),
    ...(typed.batch ? { batch: true } : {}),
    cache: typed.cache,
  };
}

/** How the run is run: what is given now, else what the stored run kept, else the defaults; `--no-cache` stays with the run. */
export function sessionSettings(given: GivenSettings, stored: RunSettings | undefined): RunSettings {
  const maxFailures = given.maxFailures ?? stored?.maxFailures;
  const maxCost = given.maxCostUsd ?? stored?.maxCost;
  return {
    concurrency: given.concurrency ?? stored?.concurrency ?? TOURNAMENT_DEFAULTS.concurrency,
    cache: stored?.cache ?? given.cache ?? true,
    ...((given.batch ?? stored?.batch) ? { batch: true } : {}),
    ...(maxFailures === undefined ? {} : { maxFailures }),
    ...(maxCost === undefined ? {} : { maxCost }),
  };
}

/**
 * What a session of a tournament will run, worked out before anything is called: the same for a
 * run (`runTournament`) and its dry run (`previewTournament`), so that the plan a dry run prices is
 * the one a run runs.
 */
export interface TournamentWork {
  /** The agents (model+variant, what is planned), each resolved once: its model, prompts and seed names. */
  readonly agents: AgentRoster;
  /** The agents' models, set up once: what is configured, called and limited. */
  readonly sessionModels: CheckedModels;
  /** The agents' models, by name. */
  readonly names: readonly string[];
  /** Their settings as a new run records them (no keys). */
  readonly models: Record<string, ModelSettings>;
  /** The models whose calls go through their provider's batch service. */
  readonly batched: readonly string[];
  /**
   * Conversations in flight at once: ITEMS_PER_CALL_SLOT per call slot, or, when a model is batched,
   * as many as its largest batch holds, so that one wave (every conversation's next call) fills a batch.
   */
  readonly window: number;
}

/**
 * Resolves the design's agents once and sets up their models: checks that every model can be called as
 * the settings ask (known, keyed, priced under a budget, able to batch) and that the variants fit the
 * claims; refuses with an InputError.
 */
export function planTournamentWork(
  design: StoredDesign,
  claims: readonly Claim[],
  config: PmiycConfig,
  env: Environment,
  settings: RunSettings,
): TournamentWork {
  const variants = design.variants ?? {};
  const agents = resolveAgents([...design.persuaders, ...design.persuadees], variants);
  const batchAll = settings.batch === true;
  const sessionModels = setUpSessionModels(config, env, agents.models, {
    maxCostUsd: settings.maxCost,
    batching: { all: batchAll },
  });
  checkVariantsFitClaims(variants, claims);
  const { names, stored: models, batched } = sessionModels;
  const batchSizes = batched.map((name) => batchSettingsOf(sessionModels.settingsFor(name), batchAll)?.size ?? 0);
  return { agents, sessionModels, names, models, batched, window: itemsInFlight(settings.concurrency, batchSizes) };
}

/** Whether a run holds a planned conversation already: any stored one, or with --retry-failed a completed one. */
export function isHeldBy(
  results: Pick<TournamentResults, 'conversationStatus'>,
  runId: number,
  retryFailed: boolean,
): (planned: PlannedConversation) => boolean {
  return (planned) => {
    const status = results.conversationStatus(runId, planned.id);
    return retryFailed ? status === 'completed' : status !== undefined;
  };
}

/** For --retry-failed: the stored calls of the turns that failed, which must be asked again. */
export function failedCallHashes(store: Pick<TournamentResults, 'conversations'>, runId: number): Set<string> {
  const hashes = new Set<string>();
  for (const record of store.conversations(runId, 'failed')) {
    for (const attempt of record.failedAttempts) if (attempt.callHash) hashes.add(attempt.callHash);
  }
  return hashes;
}
