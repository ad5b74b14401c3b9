import type { PmiycConfig } from '../../config/config-schema.js';
import { claimsChecksum } from '../../datasets/claims-checksum.js';
import { claimsRecordOf } from '../../datasets/licences.js';
import type { Claim } from '../../domain/claim.js';
import { toConversationRecord } from '../../domain/conversation-record.js';
import { RecordUsageTally } from '../../metrics/usage-totals.js';
import { batchSettingsOf } from '../../models/batch/with-batch.js';
import { checkBatching, checkModels } from '../../runner/check-models.js';
import { openRun } from '../../runner/open-run.js';
import type { RunAbout, RunInfo, RunRecords } from '../../runner/run-records.js';
import { ITEMS_PER_CALL_SLOT, type RunSession, type SessionFacts, type SessionWorld, sessionFacts, startRunSession } from '../../runner/run-session.js';
import { type SessionEnding, sessionEnding } from '../../runner/session-ending.js';
import { agentOf, checkVariantsFitClaims, modelsOfAgents, promptsByAgent, seedNamesOf } from './agents.js';
import { CallForecast } from './call-forecast.js';
import { callSharesOf } from './call-shares.js';
import { countPlan, iteratePlan, type TournamentDesign } from './plan.js';
import { checkResumeSeeds } from './resume-check.js';
import { type ConversationsResult, runConversations } from './run-conversations.js';
import { type DesignOptions, designFromOptions, designOfStoredRun, type RunSettings, type StoredDesign } from './tournament-design.js';
import type { TournamentResults } from './tournament-results.js';

/** Defaults of `pmiyc run`, also those of the library. */
export const TOURNAMENT_DEFAULTS = {
  setting: 'both',
  turns: 9,
  repeat: 1,
  temperature: 0.7,
  maxTokens: 400,
  maxAttempts: 3,
  concurrency: 16,
  seed: 0,
} as const;

export interface RunTournamentInput extends Partial<Omit<DesignOptions, 'claims'>> {
  /** The store the run is kept in (`openStore()`): runs, calls and conversations. */
  readonly store: RunRecords & TournamentResults;
  /** The claims to argue: a built-in set, a file's, or your own. */
  readonly claims: readonly Claim[];
  /** How the claims were chosen, recorded with the run (a set's name or a file's path; "library" unless given). */
  readonly claimSource?: string;
  /** The design as stored with a run, instead of the design options (a resume rebuilds exactly the same plan). */
  readonly design?: StoredDesign;
  /** Model aliases and settings, as a config file gives them. */
  readonly config?: PmiycConfig;
  readonly seed?: number;
  /** Model calls in flight at once, across all models (16 unless given). */
  readonly concurrency?: number;
  /** False: reuse nothing from earlier runs (`--no-cache`). */
  readonly cache?: boolean;
  readonly maxCostUsd?: number;
  /** Stop once more than this many conversations failed (or a fraction of those finished, when below 1). */
  readonly maxFailures?: number;
  /** The run's name (default run-N, or `<namePrefix>-N`); with `resume`, the run to continue (default: the latest tournament). */
  readonly name?: string;
  readonly namePrefix?: string;
  readonly resume?: boolean;
  /** Run the failed conversations of a stored run again, asking afresh for the turns that failed. */
  readonly retryFailed?: boolean;
  /** Take the run from a process that still holds it. */
  readonly takeOver?: boolean;
  /** `--batch`: every model's calls through its provider's batch service (kept with the run: a resume batches too). */
  readonly batch?: boolean;
  /** Recorded with the run: the pmiyc version, the git revision, the config file. */
  readonly about?: RunAbout;
  /** Clock, keys, signals, messages and progress (see `processSessionWorld()` for the process's own). */
  readonly world: SessionWorld;
}

export interface TournamentOutcome extends SessionFacts {
  readonly run: RunInfo;
  readonly result: ConversationsResult;
  /** How the session ended: what the store records, and the exit code a command should end with. */
  readonly ending: SessionEnding;
  /** How the run was run this session (given now, else as stored). */
  readonly settings: RunSettings;
  /**
   * Calls, tokens and cost of the conversations this session stored (`meter.conversationsDone` of
   * them), tallied as each was stored: the whole run's when the run holds no other conversation.
   */
  readonly sessionUsage: RecordUsageTally;
}

/** How the run is run: what is given now, else what the stored run kept, else the defaults; `--no-cache` stays with the run. */
function settingsOf(input: RunTournamentInput, stored: RunSettings | undefined): RunSettings {
  const maxFailures = input.maxFailures ?? stored?.maxFailures;
  const maxCost = input.maxCostUsd ?? stored?.maxCost;
  return {
    concurrency: input.concurrency ?? stored?.concurrency ?? TOURNAMENT_DEFAULTS.concurrency,
    cache: stored?.cache ?? input.cache ?? true,
    ...((input.batch ?? stored?.batch) ? { batch: true } : {}),
    ...(maxFailures === undefined ? {} : { maxFailures }),
    ...(maxCost === undefined ? {} : { maxCost }),
  };
}

function designOf(input: RunTournamentInput): StoredDesign {
  if (input.design) return input.design;
  return designFromOptions({
    ...input,
    claims: input.claimSource ?? 'library',
    setting: input.setting ?? TOURNAMENT_DEFAULTS.setting,
    turns: input.turns ?? TOURNAMENT_DEFAULTS.turns,
    repeat: input.repeat ?? TOURNAMENT_DEFAULTS.repeat,
    temperature: input.temperature ?? TOURNAMENT_DEFAULTS.temperature,
    maxTokens: input.maxTokens ?? TOURNAMENT_DEFAULTS.maxTokens,
    maxAttempts: input.maxAttempts ?? TOURNAMENT_DEFAULTS.maxAttempts,
  });
}

/** For --retry-failed: the stored calls of the turns that failed, which must be asked again. */
export function failedCallHashes(store: TournamentResults, runId: number): Set<string> {
  const hashes = new Set<string>();
  for (const record of store.conversations(runId, 'failed')) {
    for (const attempt of record.failedAttempts) if (attempt.callHash) hashes.add(attempt.callHash);
  }
  return hashes;
}

/**
 * A tournament, exactly as `pmiyc run` runs it: every persuader against every persuadee on every
 * claim in each setting, in one session of the run (lease, call cache with sharing, resume and
 * replay, gate, progress), each conversation stored as it finishes. A new run, or with `resume` a
 * stored one continued where it stopped (its own design and settings unless given anew).
 */
export async function runTournament(input: RunTournamentInput): Promise<TournamentOutcome> {
  const { store } = input;
  const continuing = input.resume === true || input.retryFailed === true;
  const existing = continuing ? (input.name === undefined ? store.latestRunOf('tournament') : store.findRun(input.name)) : undefined;
  const stored = existing ? designOfStoredRun(existing.name, existing.config) : undefined;
  if (existing && stored) checkResumeSeeds(existing.name, stored.design);
  const design = input.design ?? stored?.design ?? designOf(input);
  const settings = settingsOf(input, stored?.settings);
  const config = input.config ?? { models: {}, variants: {} };
  const variants = design.variants ?? {};
  // The agents' models are what is configured, called and limited; the agents (model+variant) are what is planned.
  const names = modelsOfAgents([...design.persuaders, ...design.persuadees], variants);
  const models = checkModels(config, input.world.env, names, settings.maxCost);
  const batched = checkBatching(config, input.world.env, names, settings.batch === true);
  checkVariantsFitClaims(variants, input.claims);
  const seed = input.seed ?? TOURNAMENT_DEFAULTS.seed;
  const plan = (runSeed: number): TournamentDesign => ({ ...design, claims: input.claims, runSeed });
  const name = existing?.name ?? input.name;
  const { run, resumed } = openRun(store, {
    resume: continuing,
    ...(name === undefined ? {} : { name }),
    kind: 'tournament',
    prefix: input.namePrefix ?? 'run',
    nameFlag: '--run',
    noun: 'tournament run',
    howToStart: 'start one with pmiyc run --models a,b',
    content: { noun: 'claims', source: design.claims.source, checksum: claimsChecksum(input.claims) },
    seed,
    about: input.about ?? { packageVersion: 'library' },
    create: () => ({
      config: {
        command: 'run',
        design,
        settings,
        claims: claimsRecordOf(input.claims),
        models,
      },
      plannedConversations: countPlan(plan(seed)),
    }),
  });
  let session: RunSession;
  let forecast: CallForecast;
  try {
    if (resumed) store.recordRunConfig(run.id, 'settings', settings);
    const refresh = input.retryFailed ? failedCallHashes(store, run.id) : undefined;
    // What this session will skip: every stored conversation on a resume, the completed ones with --retry-failed.
    const storedAtStart = resumed ? store.countConversations(run.id, input.retryFailed ? 'completed' : undefined) : 0;
    forecast = new CallForecast(plan(run.seed), storedAtStart);
    session = startRunSession(
      {
        records: store,
        run,
        resumed,
        config,
        names,
        concurrency: settings.concurrency,
        cache: settings.cache,
        unit: 'conversations',
        total: countPlan(plan(run.seed)),
        command: input.retryFailed ? 'pmiyc run --retry-failed' : continuing ? 'pmiyc run --resume' : 'pmiyc run',
        takeOver: input.takeOver === true,
        callForecast: forecast,
        callShares: callSharesOf(design, variants),
        ...(settings.batch ? { batch: true } : {}),
        ...(refresh ? { refresh } : {}),
        ...(settings.maxCost === undefined ? {} : { maxCostUsd: settings.maxCost }),
      },
      input.world,
    );
  } catch (error) {
    // A start refused before any work leaves no run behind.
    if (!resumed) store.discardRunIfEmpty(run.id);
    throw error;
  }
  let ending: SessionEnding | undefined;
  let result: ConversationsResult;
  const sessionUsage = new RecordUsageTally();
  try {
    const window = conversationWindow(session, settings, batched);
    result = await runPlannedConversations(session, plan(run.seed), design, window, settings, store, input.retryFailed === true, forecast, sessionUsage);
    ending = sessionEnding(result, store.countConversations(run.id, 'failed'), session.signals);
  } finally {
    session.end(ending);
  }
  return { run, result, ending, settings, sessionUsage, ...sessionFacts(session) };
}

/**
 * Conversations in flight at once: ITEMS_PER_CALL_SLOT per call slot, or, when a model is batched,
 * as many as its largest batch holds, so that one wave (every conversation's next call) fills a batch.
 */
function conversationWindow(session: RunSession, settings: RunSettings, batched: readonly string[]): number {
  const direct = settings.concurrency * ITEMS_PER_CALL_SLOT;
  const batchSizes = batched.map((name) => batchSettingsOf(session.registry.settingsFor(name), settings.batch === true)?.size ?? 0);
  return Math.max(direct, ...batchSizes);
}

function runPlannedConversations(
  session: RunSession,
  plan: TournamentDesign,
  design: StoredDesign,
  window: number,
  settings: RunSettings,
  store: TournamentResults,
  retryFailed: boolean,
  forecast: CallForecast,
  sessionUsage: RecordUsageTally,
): Promise<ConversationsResult> {
  const { registry, gate, meter, run } = session;
  const variants = design.variants ?? {};
  const modelOf = (agent: string) => registry.modelFor(agentOf(agent, variants).model);
  return runConversations({
    plan: iteratePlan(plan),
    modelFor: modelOf,
    promptsFor: promptsByAgent(variants),
    seedNamesFor: (agent) => seedNamesOf(agent, variants),
    sampling: design.sampling,
    concurrency: window,
    gate,
    abortSignal: session.signals.abort,
    ...(settings.maxFailures === undefined ? {} : { maxFailures: settings.maxFailures }),
    isDone: (planned) => {
      const status = store.conversationStatus(run.id, planned.id);
      return retryFailed ? status === 'completed' : status !== undefined;
    },
    onSkipped: (planned) => {
      meter.conversationsSkipped += 1;
      forecast.noteSkipped(planned);
    },
    onTurn: (planned, turn) => forecast.noteTurn(planned, turn),
    onConversation: async (planned, outcome, stance) => {
      if (outcome.status !== 'partial') forecast.noteFinished(planned, outcome);
      const simulated = {
        persuader: modelOf(planned.spec.persuaderModel).simulated,
        persuadee: modelOf(planned.spec.persuadeeModel).simulated,
      };
      const record = toConversationRecord(run.name, planned.spec, outcome, simulated, stance);
      await store.saveConversation(run.id, record);
      sessionUsage.add(record);
      meter.conversationsDone += 1;
      if (record.status === 'failed') meter.conversationsFailed += 1;
    },
  });
}
