import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PmiycConfig } from '../../config/config-schema.js';
import { claimsChecksum } from '../../datasets/claims-checksum.js';
import { licencesOf } from '../../datasets/licences.js';
import type { Claim } from '../../domain/claim.js';
import { toConversationRecord } from '../../domain/conversation-record.js';
import { InputError } from '../../domain/input-error.js';
import { countPlan, iteratePlan, type TournamentDesign } from '../../runner/plan.js';
import { runTournament, type TournamentResult } from '../../runner/run-tournament.js';
import { ResultStore, type RunInfo } from '../../store/result-store.js';
import { loadClaims } from '../load-claims.js';
import { loadConfig } from '../load-config.js';
import { createModelRegistry, type ModelRegistry } from '../model-registry.js';
import { type DesignOptions, designFromOptions, designOfStoredRun, type RunSettings, redactSettings, type StoredDesign } from '../run-design.js';
import { printDryRun } from '../run-dry.js';
import { type SessionEnding, sessionEnding } from '../run-ending.js';
import { printRunOutcome } from '../run-outcome.js';
import { checkResumeFlags, resolvedClaimsSource } from '../run-resume.js';
import { type StudySession, startStudySession } from '../study-session.js';
import type { CliContext, RunSignals } from '../terminal.js';

export interface RunOptions extends DesignOptions {
  readonly store: string;
  readonly run?: string;
  readonly config?: string;
  readonly seed: number;
  readonly concurrency: number;
  readonly resume: boolean;
  readonly retryFailed: boolean;
  readonly maxFailures?: number;
  readonly maxCost?: number;
  readonly dryRun: boolean;
  readonly cache: boolean;
  readonly takeOver: boolean;
  /** A new run's name when --run is not given: `<prefix>-N` (default run-N). */
  readonly runPrefix?: string;
  readonly gitRevision?: string;
  readonly progressIntervalMs?: number;
  /** The options the user typed (not defaults): on --resume, design options must match the run's. */
  readonly given: ReadonlySet<string>;
}

/** Conversations in flight per model call allowed in flight: a conversation waits on its own calls, so a few more keep every call slot busy. */
const CONVERSATIONS_PER_CALL_SLOT = 4;

interface PreparedRun {
  /** The stored run being continued (--resume, --retry-failed). */
  readonly run?: RunInfo;
  readonly design: StoredDesign;
  readonly settings: RunSettings;
  readonly claims: readonly Claim[];
  readonly configPath?: string;
  readonly seed: number;
}

/** A new run's design and settings from its options, paths made absolute so that it resumes from anywhere. */
async function prepareNew(options: RunOptions, context: CliContext): Promise<PreparedRun> {
  const design = designFromOptions({
    ...options,
    claims: resolvedClaimsSource(options.claims),
    ...(options.dataDir ? { dataDir: resolve(options.dataDir) } : {}),
  });
  const { claims } = await loadClaims(design.claims.source, { ...design.claims, seed: options.seed }, context);
  const settings: RunSettings = {
    concurrency: options.concurrency,
    cache: options.cache,
    ...(options.maxFailures === undefined ? {} : { maxFailures: options.maxFailures }),
    ...(options.maxCost === undefined ? {} : { maxCost: options.maxCost }),
  };
  return { design, settings, claims, seed: options.seed, ...(options.config ? { configPath: resolve(options.config) } : {}) };
}

/** A stored run to continue: its own design, its settings unless given anew, and the same claims as when it started. */
async function prepareResume(store: ResultStore, options: RunOptions, context: CliContext): Promise<PreparedRun> {
  const run = store.findRun(options.run, 'tournament');
  const stored = designOfStoredRun(run.name, run.config);
  const storedSettings = stored.settings ?? { concurrency: 16, cache: true };
  checkResumeFlags(run.name, { design: stored.design, seed: run.seed, settings: storedSettings }, options, options.given);
  const { design } = stored;
  const { claims } = await loadClaims(design.claims.source, { ...design.claims, seed: run.seed }, context);
  if (run.claimsChecksum && claimsChecksum(claims) !== run.claimsChecksum) {
    throw new InputError(`the claims of run ${run.name} (${design.claims.source}) are not the same as when it started: use the same claims file or --data-dir`);
  }
  const given = (key: string) => options.given.has(key);
  const settings: RunSettings = {
    concurrency: given('concurrency') ? options.concurrency : storedSettings.concurrency,
    cache: storedSettings.cache,
    ...(given('maxFailures')
      ? { maxFailures: options.maxFailures }
      : storedSettings.maxFailures === undefined
        ? {}
        : { maxFailures: storedSettings.maxFailures }),
    ...(given('maxCost') ? { maxCost: options.maxCost } : storedSettings.maxCost === undefined ? {} : { maxCost: storedSettings.maxCost }),
  };
  const configPath = options.config ? resolve(options.config) : stored.configPath;
  return { run, design, settings, claims, seed: run.seed, ...(configPath ? { configPath } : {}) };
}

function tournamentDesign(prepared: PreparedRun): TournamentDesign {
  return { ...prepared.design, claims: prepared.claims, runSeed: prepared.seed };
}

/** Every model named, built now: bad names and missing keys fail before any call (and before a store is made). */
function checkModels(registry: ModelRegistry, design: StoredDesign, maxCost: number | undefined): string[] {
  const names = [...new Set([...design.persuaders, ...design.persuadees])];
  for (const name of names) registry.modelFor(name);
  if (maxCost !== undefined) {
    const unpriced = names.filter((name) => {
      const settings = registry.settingsFor(name);
      return settings.provider !== 'sim' && (settings.inputUsdPerMillion === undefined || settings.outputUsdPerMillion === undefined);
    });
    if (unpriced.length > 0) {
      throw new InputError(`--max-cost needs prices for every model: set inputUsdPerMillion and outputUsdPerMillion for ${unpriced.join(', ')} in the config`);
    }
  }
  return names;
}

function createRun(store: ResultStore, prepared: PreparedRun, registry: ModelRegistry, names: string[], options: RunOptions, context: CliContext): RunInfo {
  const name = options.run ?? store.nextRunName(options.runPrefix ?? 'run');
  if (store.hasRun(name)) throw new InputError(`run "${name}" already exists in ${options.store}: continue it with --resume, or choose another --run name`);
  const models = Object.fromEntries(names.map((model) => [model, redactSettings(registry.settingsFor(model))]));
  const claims = { count: prepared.claims.length, licences: licencesOf(prepared.claims) };
  return store.createRun({
    name,
    seed: prepared.seed,
    packageVersion: context.packageVersion,
    config: {
      command: 'run',
      design: prepared.design,
      settings: prepared.settings,
      claims,
      models,
      ...(prepared.configPath ? { configPath: prepared.configPath } : {}),
    },
    plannedConversations: countPlan(tournamentDesign(prepared)),
    claimsChecksum: claimsChecksum(prepared.claims),
    ...(options.gitRevision ? { gitRevision: options.gitRevision } : {}),
  });
}

/** For --retry-failed: the stored calls of the turns that failed, which must be asked again. */
function failedCallHashes(store: ResultStore, runId: number): Set<string> {
  const hashes = new Set<string>();
  for (const record of store.conversations(runId, 'failed')) {
    for (const attempt of record.failedAttempts) if (attempt.callHash) hashes.add(attempt.callHash);
  }
  return hashes;
}

/** The store for a run: the existing one to continue a run, else created now that the input is known to be valid. */
function openStoreFor(options: RunOptions, context: CliContext): ResultStore {
  const continuing = options.resume || options.retryFailed;
  return continuing ? ResultStore.openExisting(options.store, { now: context.now }) : ResultStore.open(options.store, { now: context.now });
}

/**
 * `pmiyc run`: a whole tournament in one process: planned, shared, scheduled, stored call by call,
 * resumable after anything, replayed from the store when asked the same questions again.
 */
export async function runCommand(options: RunOptions, context: CliContext, signals: RunSignals): Promise<number> {
  return (await runTournamentCommand(options, context, signals)).exitCode;
}

/** `pmiyc run`, also telling which run it ran (the demo writes its report next). */
export async function runTournamentCommand(options: RunOptions, context: CliContext, signals: RunSignals): Promise<{ exitCode: number; runName?: string }> {
  const continuing = options.resume || options.retryFailed;
  if (!continuing && options.dryRun) return { exitCode: dryRun(await prepareNew(options, context), options, context) };
  // A new run's input is checked before the store is opened: bad input never leaves an empty store behind.
  const fresh = continuing ? undefined : await prepareNew(options, context);
  const freshConfig = fresh ? loadConfig(fresh.configPath) : undefined;
  const freshNames = fresh && freshConfig ? checkModels(createModelRegistry(freshConfig, context.env), fresh.design, options.maxCost) : undefined;
  const store = openStoreFor(options, context);
  try {
    const prepared = fresh ?? (await prepareResume(store, options, context));
    const config = freshConfig ?? loadConfig(prepared.configPath);
    const checking = createModelRegistry(config, context.env);
    const names = freshNames ?? checkModels(checking, prepared.design, prepared.settings.maxCost);
    if (options.dryRun) {
      return { exitCode: printDryRun(tournamentDesign(prepared), prepared.design.sampling.maxOutputTokens, checking, store.earlyStopCounts(), context) };
    }
    const run = prepared.run ?? createRun(store, prepared, checking, names, options, context);
    return { exitCode: await runSession(store, run, prepared, config, names, options, context, signals), runName: run.name };
  } finally {
    store.close();
  }
}

/** A dry run of a new run: nothing is created; the store, when there is one, only lends its early-stop history. */
function dryRun(prepared: PreparedRun, options: RunOptions, context: CliContext): number {
  const registry = createModelRegistry(loadConfig(prepared.configPath), context.env);
  checkModels(registry, prepared.design, options.maxCost);
  let history = new Map<string, { replies: number; stops: number }>();
  if (existsSync(options.store)) {
    const store = ResultStore.openReadOnly(options.store);
    try {
      history = store.earlyStopCounts();
    } finally {
      store.close();
    }
  }
  return printDryRun(tournamentDesign(prepared), prepared.design.sampling.maxOutputTokens, registry, history, context);
}

async function runSession(
  store: ResultStore,
  run: RunInfo,
  prepared: PreparedRun,
  config: PmiycConfig,
  names: string[],
  options: RunOptions,
  context: CliContext,
  signals: RunSignals,
): Promise<number> {
  const design = tournamentDesign(prepared);
  const refresh = options.retryFailed ? failedCallHashes(store, run.id) : undefined;
  const session = startStudySession(
    {
      store,
      run,
      resumed: prepared.run !== undefined,
      config,
      names,
      concurrency: prepared.settings.concurrency,
      cache: prepared.settings.cache,
      unit: 'conversations',
      total: countPlan(design),
      command: options.retryFailed ? 'pmiyc run --retry-failed' : options.resume ? 'pmiyc run --resume' : 'pmiyc run',
      takeOver: options.takeOver,
      ...(refresh ? { refresh } : {}),
      ...(prepared.settings.maxCost === undefined ? {} : { maxCost: prepared.settings.maxCost }),
      ...(options.progressIntervalMs ? { progressIntervalMs: options.progressIntervalMs } : {}),
    },
    context,
    signals,
  );
  let ending: SessionEnding | undefined;
  let result: TournamentResult;
  try {
    result = await execute(run, design, session, prepared, options, store, signals);
    ending = sessionEnding(result, store.countConversations(run.id, 'failed'), signals);
  } finally {
    session.end(ending);
  }
  return printRunOutcome(
    result,
    ending,
    run,
    store,
    session,
    { store: options.store, ...(prepared.settings.maxCost === undefined ? {} : { maxCost: prepared.settings.maxCost }) },
    context,
  );
}

async function execute(
  run: RunInfo,
  design: TournamentDesign,
  session: StudySession,
  prepared: PreparedRun,
  options: RunOptions,
  store: ResultStore,
  signals: RunSignals,
): Promise<TournamentResult> {
  const { registry, gate, meter } = session;
  return runTournament({
    plan: iteratePlan(design),
    modelFor: (name) => registry.modelFor(name),
    sampling: prepared.design.sampling,
    concurrency: prepared.settings.concurrency * CONVERSATIONS_PER_CALL_SLOT,
    gate,
    abortSignal: signals.abort,
    ...(prepared.settings.maxFailures === undefined ? {} : { maxFailures: prepared.settings.maxFailures }),
    isDone: (planned) => {
      const status = store.conversationStatus(run.id, planned.id);
      return options.retryFailed ? status === 'completed' : status !== undefined;
    },
    onSkipped: () => {
      meter.conversationsSkipped += 1;
    },
    onConversation: (planned, outcome, stance) => {
      const simulated = {
        persuader: registry.modelFor(planned.spec.persuaderModel).simulated,
        persuadee: registry.modelFor(planned.spec.persuadeeModel).simulated,
      };
      const record = toConversationRecord(run.name, planned.spec, outcome, simulated, stance);
      store.saveConversation(run.id, record);
      meter.conversationsDone += 1;
      if (record.status === 'failed') meter.conversationsFailed += 1;
    },
  });
}
