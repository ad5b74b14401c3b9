import { setMaxListeners } from 'node:events';
import type { PmiycConfig } from '../config/config-schema.js';
import type { Environment } from '../config/resolve-model-settings.js';
import { InputError } from '../domain/errors/input-error.js';
import { StoreFullError } from '../domain/errors/store-full-error.js';
import { formatCount, formatDuration } from '../domain/text-labels.js';
import { BatchWork } from '../models/batch/batch-work.js';
import type { ModelCallError } from '../models/model-call-error.js';
import { modelIdentity } from '../models/model-identity.js';
import type { ModelSettings } from '../models/model-settings.js';
import type { ReplicaPoolView } from '../models/providers/replicas/replica-pool.js';
import type { SimulatedProtocol } from '../models/sim/simulated-protocol.js';
import { type SessionModels, sessionModelsOf } from './models/check-models.js';
import { checkModelsAnswer, DeadModelsError } from './models/check-models-answer.js';
import type { ModelRegistry } from './models/model-registry.js';
import { createRunModels } from './models/run-models.js';
import { type CallForecastView, type ProgressStream, startProgressDisplay } from './progress/progress-display.js';
import { type BudgetRefusal, DEAD_AFTER_FAILURES, RunGate, RunStoppedError } from './run-gate.js';
import { RunInUseError } from './run-in-use-error.js';
import { describeTakeOver, LEASE_HEARTBEAT_MS, type LeaseHolder, type LeaseLiveness, leaseLiveness } from './run-lease.js';
import { RunMeter } from './run-meter.js';
import type { RunInfo, RunRecords } from './run-records.js';
import { type RunSignals, stoppingSignal } from './run-signals.js';
import { DISK_FULL_ENDING, describePendingBatches, type SessionEnding } from './session-ending.js';

/**
 * What a session needs of the world, passed in so that the runner stays pure: the CLI builds it
 * from the process (`processSessionWorld` in io/process/process-world.ts); a library caller may pass a quieter one.
 */
export interface SessionWorld {
  readonly now: () => Date;
  /** Where API keys are read from (by name, as the config says). */
  readonly env: Environment;
  /** One line for the person running it (standard error in the CLI). */
  readonly tell: (line: string) => void;
  /** Where progress is drawn; none draws nothing. */
  readonly progress?: ProgressStream;
  readonly progressIntervalMs?: number;
  /** Who holds the run's lease (this process: its pid and host) and whether another holder is alive. */
  readonly owner: { readonly pid: number; readonly host: string; readonly isProcessAlive: (pid: number) => boolean };
  readonly signals: RunSignals;
  /**
   * Marks graceful work (signals drain it rather than end the process) until the returned function is
   * called; `describeLeftBehind` says what a stop would leave for --resume (requests in provider batches).
   */
  readonly holdGracefulStop?: (describeLeftBehind?: () => string | undefined) => () => void;
  /** A GGUF file's content hash for its call identity (reading the file is I/O). */
  readonly fileSha256?: (settings: ModelSettings) => string | undefined;
}

/**
 * How a session is run: its run, its models and its settings. The models are given set up once
 * (`setUpSessionModels`, which a study calls to check them before it opens a run), or as the config and
 * their names, set up here.
 */
export type RunSessionOptions = SessionSettings & ({ readonly models: SessionModels } | { readonly config: PmiycConfig; readonly names: readonly string[] });

/** A session's options with its models set up: what every step of the session reads them from. */
type SessionPlan = SessionSettings & { readonly models: SessionModels };

interface SessionSettings {
  readonly records: RunRecords;
  readonly run: RunInfo;
  /** True when an earlier session of the run spent money already (a resume). */
  readonly resumed: boolean;
  /** Model calls in flight at once, across all models. */
  readonly concurrency: number;
  /** False is `--no-cache`: reuse nothing from earlier runs (this run's own calls still are: sharing, resume). */
  readonly cache: boolean;
  readonly maxCostUsd?: number;
  /** What the progress line counts ("conversations", "answers", "trials") and how many there are. */
  readonly unit: string;
  readonly total: number;
  /** Request hashes never to replay (the failed turns of --retry-failed). */
  readonly refresh?: ReadonlySet<string>;
  /** Take the run's lease even from a process that looks alive (--take-over). */
  readonly takeOver?: boolean;
  /** The command holding the run, shown to a second writer (e.g. `pmiyc run --resume`). */
  readonly command: string;
  /** The study's forecast of its calls, for an ETA from the calls remaining (without one: from the items remaining). */
  readonly callForecast?: CallForecastView;
  /** The share of the calls each model makes, for an ETA that a model's own limits hold up (see `ProgressSource.callShares`). */
  readonly callShares?: ReadonlyMap<string, number>;
  /** `--batch`: every model's calls go through its provider's batch service (models with `batch:` in the config do anyway). */
  readonly batch?: boolean;
  /**
   * False (`--no-check-models`): start without first asking each model whether it answers. Otherwise the
   * session starts only once every model with a server that the run has not had an answer from answers
   * (`checkModelsAnswer`); a dead one refuses the start (`DeadModelsError`, exit 2).
   */
  readonly checkModels?: boolean;
  /** The study's protocol's simulated replies, for its `sim/` agents (`SimulatedProtocol`; none for PMIYC's studies). */
  readonly simulatedProtocol?: SimulatedProtocol;
}

export interface RunSession {
  readonly run: RunInfo;
  /** Where the call store stood when the session began: the calls stored after it are this session's (`RunRecords.callTotals`). */
  readonly callsMark: number;
  readonly registry: ModelRegistry;
  readonly gate: RunGate;
  readonly meter: RunMeter;
  readonly signals: RunSignals;
  /** The run's models that have no price in the config: what they cost is not in the spend, which says so. */
  readonly modelsWithoutPrice: readonly string[];
  /** The run's models served by several replicas, each with what its replicas did in this session. */
  replicaUse(): Array<{ readonly model: string; readonly replicas: ReplicaPoolView }>;
  /**
   * Stops the progress display, the heartbeat and listening for signals; records how the session
   * ended (an exception without an ending: failed, by error) and frees the run. A run this session
   * created that holds nothing yet is removed instead: a start refused before any work leaves no run.
   * Resolves once the batch layer's work in flight has ended (a batch being submitted has its id stored;
   * a second Ctrl-C stops waiting for it), so the store may be closed then and nothing writes to it later.
   */
  end(ending?: SessionEnding): Promise<void>;
  /**
   * Ends the session after its work threw `error`, and gives what to throw in its place. A write the store's
   * disk refused (full, or a size limit reached) ends the run interrupted (`disk`), to resume once there is
   * room, and is thrown as the store words it; anything else ends it failed (`error`), thrown as it came.
   * When the disk lets not even that last write through, the run stays `running` under this process's lease,
   * which the next command finds dead once this process has ended: `interrupted (crash)`, resumable at once.
   */
  endAfter(error: unknown): Promise<unknown>;
}

/** What a study's outcome tells of its session, the same for every study. */
export interface SessionFacts {
  readonly meter: RunMeter;
  /** Where the call store stood when the session began: the calls stored after it are this session's. */
  readonly callsMark: number;
  /** Models whose calls stopped because their credentials were refused, with why. */
  readonly blockedModels: ReadonlyMap<string, string>;
  /** Where the spend stood when the budget stopped the session, if it did. */
  readonly budgetRefusal?: BudgetRefusal;
  /** Models stopped because their calls failed with a lasting cause several times in a row, with the last failure. */
  readonly stoppedModels: ReadonlyMap<string, ModelCallError>;
  /** The run's models without prices in the config: the spend does not count them, and says so. */
  readonly modelsWithoutPrice: readonly string[];
  /** The models served by several replicas, with what each replica did this session. */
  readonly replicaUse: ReadonlyArray<{ readonly model: string; readonly replicas: ReplicaPoolView }>;
}

/** A session's facts for its study's outcome, read once it has ended. */
export function sessionFacts(session: RunSession): SessionFacts {
  return {
    meter: session.meter,
    callsMark: session.callsMark,
    blockedModels: session.gate.blockedModels,
    ...(session.gate.budgetRefusal ? { budgetRefusal: session.gate.budgetRefusal } : {}),
    stoppedModels: session.gate.stoppedModels,
    modelsWithoutPrice: session.modelsWithoutPrice,
    replicaUse: session.replicaUse(),
  };
}

/** Work items in flight per model-call slot: an item waits on its own calls, so a few more keep every slot busy. */
export const ITEMS_PER_CALL_SLOT = 4;

/**
 * Work items in flight at once: ITEMS_PER_CALL_SLOT per call slot, or, when a model is batched, as many as its
 * largest batch holds (`batchSizes`, one per batched model), so that one wave (every item's next call) fills a
 * batch (docs/design/batches.md, "Waves").
 */
export function itemsInFlight(concurrency: number, batchSizes: readonly number[]): number {
  return Math.max(concurrency * ITEMS_PER_CALL_SLOT, ...batchSizes);
}

/** Why a stopping run stops, as the progress display says it: the signal (Ctrl-C for SIGINT) or what stopped it. */
function describeStopping(gate: RunGate, signals: RunSignals): string | undefined {
  switch (gate.stopReason) {
    case undefined:
      return undefined;
    case 'interrupted': {
      if (!signals.stop.aborted) return 'interrupted';
      const signal = stoppingSignal(signals);
      return signal === 'SIGINT' ? 'Ctrl-C' : signal;
    }
    case 'budget':
      return 'budget reached';
    case 'failures':
      return 'too many failures';
    case 'auth':
      return 'credentials refused';
    case 'lease':
      return 'run taken over';
  }
}

/**
 * Waits for the batch layer's work in flight: a batch being submitted is let finish so that its provider id
 * is stored (a resume then collects it instead of paying for it again). A second Ctrl-C stops waiting: the
 * batch stays recorded as being submitted, and a resume looks it up as after a kill.
 */
async function finishBatchWork(batchWork: BatchWork, world: SessionWorld): Promise<void> {
  const submissions = batchWork.submissions;
  if (submissions > 0 && !world.signals.abort.aborted) {
    world.tell(
      `waiting for ${formatCount(submissions)} provider batch ${submissions === 1 ? 'submission' : 'submissions'} to be answered, so that --resume collects ${submissions === 1 ? 'it' : 'them'} without paying again (Ctrl-C again to stop waiting)`,
    );
  }
  if (world.signals.abort.aborted) return;
  await new Promise<void>((resolve) => {
    const abandon = () => resolve();
    world.signals.abort.addEventListener('abort', abandon, { once: true });
    void batchWork.settled().then(() => {
      world.signals.abort.removeEventListener('abort', abandon);
      resolve();
    });
  });
}

/** Takes the run's lease, or says who holds it. A dead holder's lease is taken over, and said so. */
function takeRun(options: SessionPlan, world: SessionWorld): LeaseHolder {
  const nowMs = world.now().getTime();
  const leaseWorld = { ...world.owner, nowMs };
  const at = world.now().toISOString();
  const holder: LeaseHolder = { pid: world.owner.pid, host: world.owner.host, command: options.command, acquiredAt: at, heartbeatAt: at };
  let replacedLiveness: LeaseLiveness | undefined;
  const replaced = options.records.takeLease(options.run.id, holder, (current) => {
    replacedLiveness = leaseLiveness(current, leaseWorld);
    if (!replacedLiveness.alive) return;
    // A live process here could be stopped instead: taking its run over would have both make the same calls.
    const here = current.host === world.owner.host;
    if (!options.takeOver || here) throw new RunInUseError(options.run.name, current, nowMs, { here, takeOver: options.takeOver === true });
  });
  if (replaced && replacedLiveness) world.tell(describeTakeOver(options.run.name, replaced, replacedLiveness, nowMs, options.concurrency));
  return holder;
}

/** The stored identities of a run's models, when it has them (runs made before pmiyc recorded them do not). */
function storedServedBy(run: RunInfo): Record<string, string> {
  return { ...run.config.servedBy };
}

/**
 * What serves each model now (see models/model-identity.ts). A resumed run whose model is served
 * by something else than when it started would mix two models' answers: refused, with the way out.
 */
function servedBy(options: SessionPlan, world: SessionWorld): Record<string, string> {
  const { names, settingsFor } = options.models;
  const identities = Object.fromEntries(
    names.map((name) => {
      const settings = settingsFor(name);
      const fileSha256 = world.fileSha256?.(settings);
      return [name, modelIdentity(settings, fileSha256 ? { fileSha256 } : {})];
    }),
  );
  const before = storedServedBy(options.run);
  const changed = names.filter((name) => before[name] !== undefined && before[name] !== identities[name]);
  if (changed.length > 0) {
    const details = changed.map((name) => `${name} was "${before[name]}" and is now "${identities[name]}"`).join('; ');
    throw new InputError(
      `run ${options.run.name} would mix two models: ${details}. Serve the model as before, or set \`revision:\` for it in the config if both serve the same weights, or start a new run`,
    );
  }
  return identities;
}

/**
 * What a session checks and builds before any work, each step of which may refuse the start: what
 * serves each model (recorded), the run marked running, the gate, and the run's models.
 */
function beginSession(options: SessionPlan, world: SessionWorld, meter: RunMeter, ending: AbortSignal, batchWork: BatchWork) {
  const { records, run } = options;
  const identities = servedBy(options, world);
  records.recordRunConfig(run.id, 'servedBy', identities);
  records.setRunStatus(run.id, 'running');
  const callsMark = records.callsMark();
  const gate = new RunGate(options.maxCostUsd, options.resumed ? records.spentUsd(run.id) : 0);
  // Waits and batch polls end when the run stops, and at the latest when the session ends (before the store closes).
  const waitSignal = AbortSignal.any([gate.stopped, ending]);
  // Every waiting call listens to these: thousands may wait at once in a big run.
  setMaxListeners(0, world.signals.stop, world.signals.abort, gate.stopped, waitSignal);
  const ledger = records.batchLedger?.(run.id, { reuseEarlierRuns: options.cache });
  const registry = createRunModels(options.models, world.env, {
    // The kill -9 window: at most `concurrency` calls on the wire and fewer replies awaiting a commit.
    cache: records.callCache(run.id, { reuseEarlierRuns: options.cache }, { maxWaitingReplies: options.concurrency }),
    gate,
    meter,
    waitSignal,
    concurrency: options.concurrency,
    identityOf: (settings) => identities[settings.name] ?? modelIdentity(settings),
    ...(options.refresh ? { refresh: options.refresh } : {}),
    ...(options.simulatedProtocol ? { simulatedProtocol: options.simulatedProtocol } : {}),
    ...(ledger ? { batch: { ledger, all: options.batch === true, work: batchWork } } : {}),
    // Retries are counted in the progress display (with the last error), not told one by one.
    onModelBlocked: (model, error) => world.tell(`${error.message}; no more calls to ${model} in this run`),
    onModelStopped: (model, error) =>
      world.tell(
        `${error.message}; ${model} stopped after ${DEAD_AFTER_FAILURES} calls in a row failed so: its remaining ${options.unit} fail with this cause, the other models go on`,
      ),
    onReplicaEvent: (model, event) =>
      world.tell(
        event.kind === 'out'
          ? `${event.error.message}; replica ${event.endpoint} of ${model} is out for ${formatDuration(event.outForMs)}, its calls go to the others`
          : `${model}: replica ${event.endpoint} answers again`,
      ),
    now: () => world.now().getTime(),
  });
  // Simulated agents cost nothing: only real models can lack a price.
  const modelsWithoutPrice = options.models.names.filter((name) => {
    const settings = options.models.settingsFor(name);
    return settings.provider !== 'sim' && settings.inputUsdPerMillion === undefined && settings.outputUsdPerMillion === undefined;
  });
  return { gate, registry, callsMark, modelsWithoutPrice };
}

/** The run's models it has had an answer from in an earlier session (a call of its own stored under their identity). */
function modelsReached(options: SessionPlan): (name: string) => boolean {
  if (!options.resumed) return () => false;
  const { records, run } = options;
  const called = new Set(
    records
      .callTotals(run.id, records.callsMark())
      .byModel.filter((model) => model.inAll.calls > 0)
      .map((model) => model.identity),
  );
  const identities = storedServedBy(run);
  return (name) => identities[name] !== undefined && called.has(identities[name]);
}

/**
 * Before the session takes the run: asks each of its models that has a server, and that the run has not
 * had an answer from before, whether it answers (`checkModelsAnswer`). A dead one refuses the start with
 * one line per dead model (exit 2); a new run is then removed, as after any refused start. A signal stops
 * the check, as it stops a run (the work is held graceful meanwhile, so the process is not ended mid-way).
 */
async function checkBeforeStart(options: SessionPlan, world: SessionWorld): Promise<void> {
  if (options.checkModels === false) return;
  const release = world.holdGracefulStop?.() ?? (() => {});
  try {
    const { dead, notes } = await checkModelsAnswer({
      models: options.models,
      env: world.env,
      nowMs: () => world.now().getTime(),
      reached: modelsReached(options),
      abortSignal: world.signals.stop,
    });
    world.signals.stop.throwIfAborted();
    for (const note of notes) world.tell(note);
    if (dead.length > 0) throw new DeadModelsError(dead);
  } catch (error) {
    if (!options.resumed) options.records.discardRunIfEmpty(options.run.id);
    throw error;
  } finally {
    release();
  }
}

/**
 * The one session every run works in (tournaments and studies alike): first a check that its models
 * answer (unless `checkModels: false`), then the run's lease (one writer; a heartbeat; a run taken over
 * stops), models behind the run's call cache (every call committed before use, replayed on resume; scoped
 * by --no-cache), identified by what serves them, the run gate (signals, budget, refused credentials,
 * models that stopped answering), the global concurrency, and the progress display.
 */
export async function startRunSession(options: RunSessionOptions, world: SessionWorld): Promise<RunSession> {
  const plan: SessionPlan = 'models' in options ? options : { ...options, models: sessionModelsOf(options.config, world.env, options.names) };
  await checkBeforeStart(plan, world);
  return takeRunAndStart(plan, world);
}

function takeRunAndStart(options: SessionPlan, world: SessionWorld): RunSession {
  const { records, run } = options;
  const holder = takeRun(options, world);
  const meter = new RunMeter();
  const sessionOver = new AbortController();
  const batchWork = new BatchWork();
  const releaseSignals = world.holdGracefulStop?.(() => describePendingBatches(meter.pendingBatches())) ?? (() => {});
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const release = () => {
    clearInterval(heartbeat);
    releaseSignals();
    records.releaseLease(run.id, holder);
  };
  // A new run refused before any work (a model file that is missing, ...) is removed, not left as a crash.
  const discardIfNew = () => !options.resumed && records.discardRunIfEmpty(run.id);
  let started: ReturnType<typeof beginSession>;
  try {
    started = beginSession(options, world, meter, sessionOver.signal, batchWork);
  } catch (error) {
    // A refused resume leaves the run as it was.
    if (!discardIfNew()) records.setRunStatus(run.id, run.status, run.stopReason);
    release();
    throw error;
  }
  const { gate, registry, callsMark, modelsWithoutPrice } = started;
  heartbeat = keepLeaseAlive(options, world, holder, gate);
  const onStop = () => gate.stop('interrupted');
  world.signals.stop.addEventListener('abort', onStop, { once: true });
  const progress = world.progress ? startSessionProgress(world.progress, options, world, meter, started) : undefined;
  const end = async (ending?: SessionEnding): Promise<void> => {
    world.signals.stop.removeEventListener('abort', onStop);
    progress?.stop();
    clearInterval(heartbeat);
    // The batch layer stops (its timers cleared, its polls cancelled) and its work in flight ends before
    // the caller closes the store.
    sessionOver.abort(new RunStoppedError(gate.stopReason ?? 'interrupted'));
    await finishBatchWork(batchWork, world);
    releaseSignals();
    if (gate.stopReason === 'lease') return;
    try {
      if (ending !== undefined || !discardIfNew()) records.setRunStatus(run.id, ending?.status ?? 'failed', ending ? ending.stopReason : 'error');
    } finally {
      release();
    }
  };
  return {
    run,
    callsMark,
    registry,
    gate,
    meter,
    signals: world.signals,
    modelsWithoutPrice,
    replicaUse: () =>
      options.models.names.flatMap((model) => {
        const replicas = registry.replicasFor(model);
        return replicas ? [{ model, replicas }] : [];
      }),
    end,
    async endAfter(error) {
      const diskFull = diskFullOf(records, error);
      try {
        await end(diskFull ? DISK_FULL_ENDING : undefined);
      } catch (ending) {
        // The store refused the status too (its disk is still full): the first error says what to do.
        if (!diskFull) throw ending;
      }
      return diskFull ?? error;
    },
  };
}

/**
 * Renews the run's lease every LEASE_HEARTBEAT_MS; when another process has taken the run over, says so
 * and stops the gate (nothing new starts). The timer does not hold the process open.
 */
function keepLeaseAlive(options: SessionPlan, world: SessionWorld, holder: LeaseHolder, gate: RunGate): ReturnType<typeof setInterval> {
  const { records, run } = options;
  const heartbeat = setInterval(() => {
    let held: boolean;
    try {
      held = records.renewLease(run.id, holder, world.now().toISOString());
    } catch {
      // The store could not be written just now (locked past its timeout, full): the next beat tries again,
      // and the lease holds for LEASE_STALE_MS without one. A timer's exception would end the process.
      return;
    }
    if (held) return;
    world.tell(`run ${run.name} was taken over by another process: starting nothing new`);
    gate.stop('lease');
  }, LEASE_HEARTBEAT_MS);
  (heartbeat as { unref?: () => void }).unref?.();
  return heartbeat;
}

/** The live progress display of a session: its meter against the planned total, each model's limiter and replicas, the spend, and why it is stopping. */
function startSessionProgress(
  output: NonNullable<SessionWorld['progress']>,
  options: SessionPlan,
  world: SessionWorld,
  meter: RunMeter,
  { gate, registry, modelsWithoutPrice }: ReturnType<typeof beginSession>,
) {
  return startProgressDisplay(
    output,
    {
      meter,
      total: options.total,
      unit: options.unit,
      limiters: () =>
        options.models.names.map((model) => {
          const limiter = registry.limiterFor(model);
          const replicas = registry.replicasFor(model);
          return { model, ...(limiter ? { state: limiter.limiterState() } : {}), ...(replicas ? { replicas } : {}) };
        }),
      nowMs: () => world.now().getTime(),
      // The gate's spend starts from what earlier sessions of the run spent: the figure the run's outcome prints.
      spentUsd: () => gate.spent,
      modelsWithoutPrice,
      ...(options.callForecast ? { forecast: options.callForecast } : {}),
      ...(options.callShares ? { callShares: options.callShares } : {}),
      stopping: () => describeStopping(gate, world.signals),
    },
    world.progressIntervalMs,
  );
}

/** A full disk (or a size limit reached) as the store words it, when that is what `error` is, for a run that is kept. */
function diskFullOf(records: RunRecords, error: unknown): StoreFullError | undefined {
  return (error instanceof StoreFullError ? error : records.diskFullError?.(error))?.forStoppedRun();
}
