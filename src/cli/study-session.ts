import type { PmiycConfig } from '../config/config-schema.js';
import { InputError } from '../domain/input-error.js';
import { modelIdentity } from '../models/model-identity.js';
import type { ModelSettings } from '../models/model-settings.js';
import { RunGate } from '../runner/run-gate.js';
import { describeHeldRun, LEASE_HEARTBEAT_MS, type LeaseHolder, leaseLiveness } from '../runner/run-lease.js';
import { RunMeter } from '../runner/run-meter.js';
import type { ResultStore, RunInfo } from '../store/result-store.js';
import { holdGracefulStop } from './graceful-stop.js';
import { leaseWorldNow } from './lease-world.js';
import { modelFileSha256 } from './model-file-digest.js';
import { createModelRegistry, type ModelRegistry } from './model-registry.js';
import { startProgressDisplay } from './progress-display.js';
import { redactSettings } from './run-design.js';
import type { SessionEnding } from './run-ending.js';
import { createRunModels } from './run-models.js';
import type { CliContext, RunSignals } from './terminal.js';

/**
 * Every model named, built now, so that bad names and missing keys fail before any call; with a
 * budget, every real model needs prices. Returns the models' settings as stored with the run.
 */
export function checkStudyModels(
  config: PmiycConfig,
  names: readonly string[],
  maxCost: number | undefined,
  context: CliContext,
): Record<string, ModelSettings> {
  const registry = createModelRegistry(config, context.env);
  for (const name of names) registry.modelFor(name);
  if (maxCost !== undefined) {
    const unpriced = names.filter((name) => {
      const settings = registry.settingsFor(name);
      return settings.provider !== 'sim' && (settings.inputUsdPerMillion === undefined || settings.outputUsdPerMillion === undefined);
    });
    if (unpriced.length > 0)
      throw new InputError(`--max-cost needs prices for every model: set inputUsdPerMillion and outputUsdPerMillion for ${unpriced.join(', ')} in the config`);
  }
  return Object.fromEntries(names.map((name) => [name, redactSettings(registry.settingsFor(name))]));
}

export interface StudySessionOptions {
  readonly store: ResultStore;
  readonly run: RunInfo;
  /** True when an earlier session of the run spent money already (--resume). */
  readonly resumed: boolean;
  readonly config: PmiycConfig;
  readonly names: readonly string[];
  readonly concurrency: number;
  /** False is `--no-cache`: reuse nothing from earlier runs (this run's own calls still are: sharing, resume). */
  readonly cache: boolean;
  readonly maxCost?: number;
  readonly progressIntervalMs?: number;
  /** What the progress line counts ("trials", "claims") and how many there are. */
  readonly unit: string;
  readonly total: number;
  /** Request hashes never to replay (the failed turns of --retry-failed). */
  readonly refresh?: ReadonlySet<string>;
  /** Take the run's lease even from a process that looks alive (--take-over). */
  readonly takeOver?: boolean;
  /** The command holding the run, shown to a second writer (e.g. `pmiyc run`). */
  readonly command: string;
}

export interface StudySession {
  readonly registry: ModelRegistry;
  readonly gate: RunGate;
  readonly meter: RunMeter;
  /**
   * Stops the progress display, the heartbeat and listening for signals; records how the session
   * ended (an exception without an ending records an interruption by error) and frees the run.
   */
  end(ending?: SessionEnding): void;
}

/** Takes the run's lease, or says who holds it. A dead holder's lease is taken over, and said so. */
function takeRun(options: StudySessionOptions, context: CliContext): LeaseHolder {
  const world = leaseWorldNow(context);
  const at = context.now().toISOString();
  const holder: LeaseHolder = { pid: world.pid, host: world.host, command: options.command, acquiredAt: at, heartbeatAt: at };
  const replaced = options.store.takeLease(options.run.id, holder, (current) => {
    if (!options.takeOver && leaseLiveness(current, world).alive) throw new InputError(describeHeldRun(options.run.name, current, world.nowMs));
  });
  if (replaced) {
    const liveness = leaseLiveness(replaced, world);
    const why = liveness.alive ? 'still alive: --take-over' : liveness.why;
    context.stderr.write(`pmiyc: taking run ${options.run.name} over from \`${replaced.command}\` (pid ${replaced.pid} on ${replaced.host}; ${why})\n`);
  }
  return holder;
}

/** The stored identities of a run's models, when it has them (runs made before pmiyc recorded them do not). */
function storedServedBy(run: RunInfo): Record<string, string> {
  const servedBy = (run.config as { servedBy?: unknown }).servedBy;
  return typeof servedBy === 'object' && servedBy !== null ? (servedBy as Record<string, string>) : {};
}

/**
 * What serves each model now (see models/model-identity.ts). A resumed run whose model is served
 * by something else than when it started would mix two models' answers: refused, with the way out.
 */
function servedBy(options: StudySessionOptions, registry: ModelRegistry, context: CliContext): Record<string, string> {
  const identities = Object.fromEntries(
    options.names.map((name) => {
      const settings = registry.settingsFor(name);
      const fileSha256 = modelFileSha256(settings, options.store, (path) => context.stderr.write(`pmiyc: hashing ${path} (once per file version)\n`));
      return [name, modelIdentity(settings, fileSha256 ? { fileSha256 } : {})];
    }),
  );
  const before = storedServedBy(options.run);
  const changed = options.names.filter((name) => before[name] !== undefined && before[name] !== identities[name]);
  if (changed.length > 0) {
    const details = changed.map((name) => `${name} was "${before[name]}" and is now "${identities[name]}"`).join('; ');
    throw new InputError(
      `run ${options.run.name} would mix two models: ${details}. Serve the model as before, or set \`revision:\` for it in the config if both serve the same weights, or start a new run`,
    );
  }
  return identities;
}

/**
 * The machinery every session of a run shares (tournaments and studies): the run's lease (one
 * writer; a heartbeat; a run taken over stops), models behind the run's call cache (every call
 * committed before use, replayed on resume; scoped by --no-cache), identified by what serves them,
 * the run gate (signals, budget, refused credentials), global concurrency, and the progress display.
 */
export function startStudySession(options: StudySessionOptions, context: CliContext, signals: RunSignals): StudySession {
  const { store, run } = options;
  const holder = takeRun(options, context);
  const releaseSignals = holdGracefulStop();
  let heartbeat: NodeJS.Timeout | undefined;
  const release = () => {
    clearInterval(heartbeat);
    releaseSignals();
    store.releaseLease(run.id, holder);
  };
  let identities: Record<string, string>;
  try {
    identities = servedBy(options, createModelRegistry(options.config, context.env), context);
    store.recordServedBy(run.id, identities);
    store.setRunStatus(run.id, 'running');
  } catch (error) {
    release();
    throw error;
  }

  const gate = new RunGate(options.maxCost, options.resumed ? store.spentUsd(run.id) : 0);
  const meter = new RunMeter();
  const nowMs = () => context.now().getTime();
  const registry = createRunModels(options.config, context.env, {
    cache: store.callCache(run.id, { reuseEarlierRuns: options.cache }),
    gate,
    meter,
    concurrency: options.concurrency,
    identityOf: (settings) => identities[settings.name] ?? modelIdentity(settings),
    ...(options.refresh ? { refresh: options.refresh } : {}),
    onRetry: (model, event) => {
      meter.retryWaitUntilMs.set(model, nowMs() + event.waitMs);
      context.stderr.write(`pmiyc: ${event.error.message}; retrying in ${event.waitMs} ms\n`);
    },
    onModelBlocked: (model, error) => context.stderr.write(`pmiyc: ${error.message}; no more calls to ${model} in this run\n`),
    now: nowMs,
  });
  heartbeat = setInterval(() => {
    if (store.renewLease(run.id, holder, context.now().toISOString())) return;
    context.stderr.write(`pmiyc: run ${run.name} was taken over by another process: starting nothing new\n`);
    gate.stop('lease');
  }, LEASE_HEARTBEAT_MS);
  heartbeat.unref();
  const onStop = () => gate.stop('interrupted');
  signals.stop.addEventListener('abort', onStop, { once: true });
  const progress = startProgressDisplay(
    context.stderr,
    {
      meter,
      total: options.total,
      unit: options.unit,
      limiters: () => options.names.map((model) => ({ model, ...(registry.limiterFor(model) ? { state: registry.limiterFor(model)!.limiterState() } : {}) })),
      nowMs,
    },
    options.progressIntervalMs,
  );
  return {
    registry,
    gate,
    meter,
    end(ending) {
      signals.stop.removeEventListener('abort', onStop);
      progress.stop();
      clearInterval(heartbeat);
      releaseSignals();
      if (gate.stopReason !== 'lease') {
        store.setRunStatus(run.id, ending?.status ?? 'interrupted', ending ? ending.stopReason : 'error');
        release();
      }
    },
  };
}
