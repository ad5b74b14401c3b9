import { claimsChecksum } from '../../datasets/claims-checksum.js';
import { licencesOf } from '../../datasets/licences.js';
import type { Claim } from '../../domain/claim.js';
import { toConversationRecord } from '../../domain/conversation-record.js';
import { InputError } from '../../domain/input-error.js';
import { countPlan, iteratePlan, type TournamentDesign } from '../../runner/plan.js';
import { RunGate } from '../../runner/run-gate.js';
import { RunMeter } from '../../runner/run-meter.js';
import { runTournament, type TournamentResult } from '../../runner/run-tournament.js';
import { ResultStore, type RunInfo } from '../../store/result-store.js';
import { loadClaims } from '../load-claims.js';
import { loadConfig } from '../load-config.js';
import { createModelRegistry, type ModelRegistry } from '../model-registry.js';
import { startProgressDisplay } from '../progress-display.js';
import { type DesignOptions, designFromOptions, designOfStoredRun, redactSettings, type StoredDesign } from '../run-design.js';
import { printDryRun } from '../run-dry.js';
import { createRunModels } from '../run-models.js';
import { printRunOutcome } from '../run-outcome.js';
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
  readonly gitRevision?: string;
  readonly progressIntervalMs?: number;
}

/** Options that define a run: --resume takes them from the stored run instead. */
const DESIGN_FLAGS: ReadonlyArray<[keyof RunOptions, string]> = [
  ['models', '--models'],
  ['persuaders', '--persuaders'],
  ['persuadees', '--persuadees'],
  ['limit', '--limit'],
  ['sample', '--sample'],
];

interface PreparedRun {
  readonly store: ResultStore;
  readonly run?: RunInfo;
  readonly design: StoredDesign;
  readonly claims: readonly Claim[];
  readonly configPath?: string;
  readonly seed: number;
}

async function prepare(options: RunOptions, context: CliContext): Promise<PreparedRun> {
  const store = ResultStore.open(options.store, { now: context.now });
  const continuing = options.resume || options.retryFailed;
  if (!continuing) {
    if (options.run !== undefined && store.hasRun(options.run)) {
      throw new InputError(`run "${options.run}" already exists in ${options.store}: continue it with --resume, or choose another --run name`);
    }
    const design = designFromOptions(options);
    const { claims } = await loadClaims(design.claims.source, { ...design.claims, seed: options.seed }, context);
    return { store, design, claims, seed: options.seed, ...(options.config ? { configPath: options.config } : {}) };
  }
  const given = DESIGN_FLAGS.filter(([key]) => options[key] !== undefined).map(([, flag]) => flag);
  const run = store.findRun(options.run, 'tournament');
  if (given.length > 0) throw new InputError(`--resume continues run ${run.name} with its own design: drop ${given.join(', ')}`);
  const { design, configPath } = designOfStoredRun(run.name, run.config);
  const { claims } = await loadClaims(design.claims.source, { ...design.claims, seed: run.seed }, context);
  if (run.claimsChecksum && claimsChecksum(claims) !== run.claimsChecksum) {
    throw new InputError(`the claims of run ${run.name} (${design.claims.source}) are not the same as when it started: use the same claims file or --data-dir`);
  }
  const path = options.config ?? configPath;
  return { store, run, design, claims, seed: run.seed, ...(path ? { configPath: path } : {}) };
}

function tournamentDesign(prepared: PreparedRun): TournamentDesign {
  const { design } = prepared;
  return { ...design, claims: prepared.claims, runSeed: prepared.seed };
}

/** Every model named, built now: bad names and missing keys fail before any call. */
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

function startRun(prepared: PreparedRun, registry: ModelRegistry, names: string[], options: RunOptions, context: CliContext): RunInfo {
  const { store } = prepared;
  if (prepared.run) {
    store.setRunStatus(prepared.run.id, 'running');
    return prepared.run;
  }
  const name = options.run ?? store.nextRunName('run');
  const models = Object.fromEntries(names.map((model) => [model, redactSettings(registry.settingsFor(model))]));
  const claims = { count: prepared.claims.length, licences: licencesOf(prepared.claims) };
  return store.createRun({
    name,
    seed: prepared.seed,
    packageVersion: context.packageVersion,
    config: { command: 'run', design: prepared.design, claims, models, ...(prepared.configPath ? { configPath: prepared.configPath } : {}) },
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

/**
 * `pmiyc run`: a whole tournament in one process: planned, shared, scheduled, stored call by call,
 * resumable after anything, replayed from the store when asked the same questions again.
 */
export async function runCommand(options: RunOptions, context: CliContext, signals: RunSignals): Promise<number> {
  const prepared = await prepare(options, context);
  const { store } = prepared;
  try {
    const design = tournamentDesign(prepared);
    const config = loadConfig(prepared.configPath);
    const checking = createModelRegistry(config, context.env);
    const names = checkModels(checking, prepared.design, options.maxCost);
    if (options.dryRun) return printDryRun(design, prepared.design.sampling.maxOutputTokens, checking, store, context);

    const run = startRun(prepared, checking, names, options, context);
    const gate = new RunGate(options.maxCost, prepared.run ? store.spentUsd(run.id) : 0);
    const meter = new RunMeter();
    const refresh = options.retryFailed ? failedCallHashes(store, run.id) : undefined;
    const registry = createRunModels(config, context.env, {
      cache: store.callCache(run.id),
      gate,
      meter,
      concurrency: options.concurrency,
      noCache: !options.cache,
      ...(refresh ? { refresh } : {}),
      onRetry: (_model, message) => context.stderr.write(`pmiyc: ${message}; retrying\n`),
      now: () => context.now().getTime(),
    });
    const result = await execute(run, design, registry, names, { gate, meter, options, context, signals, store, sampling: prepared.design.sampling });
    store.setRunStatus(run.id, result.status === 'completed' ? 'completed' : result.stopReason === 'failures' ? 'failed' : 'stopped');
    return printRunOutcome(result, run, store, options, context);
  } finally {
    store.close();
  }
}

interface ExecuteContext {
  readonly sampling: StoredDesign['sampling'];
  readonly gate: RunGate;
  readonly meter: RunMeter;
  readonly options: RunOptions;
  readonly context: CliContext;
  readonly signals: RunSignals;
  readonly store: ResultStore;
}

async function execute(run: RunInfo, design: TournamentDesign, registry: ModelRegistry, names: string[], parts: ExecuteContext): Promise<TournamentResult> {
  const { gate, meter, options, context, signals, store, sampling } = parts;
  const onStop = () => gate.stop('interrupted');
  signals.stop.addEventListener('abort', onStop, { once: true });
  const progress = startProgressDisplay(
    context.stderr,
    {
      meter,
      total: countPlan(design),
      limiters: () => names.map((model) => ({ model, ...(registry.limiterFor(model) ? { state: registry.limiterFor(model)!.limiterState() } : {}) })),
      nowMs: () => context.now().getTime(),
    },
    options.progressIntervalMs,
  );
  try {
    return await runTournament({
      plan: iteratePlan(design),
      modelFor: (name) => registry.modelFor(name),
      sampling,
      concurrency: options.concurrency * 4,
      gate,
      abortSignal: signals.abort,
      ...(options.maxFailures === undefined ? {} : { maxFailures: options.maxFailures }),
      isDone: (planned) => {
        const status = store.conversationStatus(run.id, planned.id);
        return options.retryFailed ? status === 'completed' : status !== undefined;
      },
      onSkipped: () => (meter.conversationsSkipped += 1),
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
  } finally {
    signals.stop.removeEventListener('abort', onStop);
    progress.stop();
  }
}
