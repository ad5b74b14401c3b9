import { resolve } from 'node:path';
import { type JudgePair, judgePairsChecksum } from '../../datasets/judge-pairs.js';
import { InputError } from '../../domain/input-error.js';
import { judgeAccuracy } from '../../metrics/judge-accuracy.js';
import { formatJudgeText } from '../../report/studies/judge-text.js';
import { runTasks, type TasksResult } from '../../runner/run-tasks.js';
import { JudgeTable } from '../../store/judge-table.js';
import { ResultStore, type RunInfo } from '../../store/result-store.js';
import { judgePair } from '../../studies/judge-trial.js';
import {
  type JudgeDesignOptions,
  judgeDesignFromOptions,
  judgeDesignOfStoredRun,
  type LoadedPairs,
  loadJudgePairs,
  type StoredJudgeDesign,
} from '../judge-design.js';
import { loadConfig } from '../load-config.js';
import { describeFailures, describeStop, EXIT_FAILED, type SessionEnding, sessionEnding } from '../run-ending.js';
import { checkStudyModels, type StudySession, startStudySession } from '../study-session.js';
import { type CliContext, labelModel, type RunSignals } from '../terminal.js';

export { judgeSynthesizeCommand } from './judge-synthesize.js';

export interface JudgeOptions extends JudgeDesignOptions {
  readonly store: string;
  /** The run's name (default judge-N); with --resume, the judge run to continue (default: the latest). */
  readonly study?: string;
  readonly resume: boolean;
  readonly config?: string;
  readonly seed: number;
  readonly concurrency: number;
  readonly maxCost?: number;
  readonly cache: boolean;
  readonly gitRevision?: string;
  readonly progressIntervalMs?: number;
}

/** Failed trials described one by one; the rest are counted (a provider that is down would flood the terminal). */
const FAILURES_SHOWN = 5;
/** Options that define a judge run: --resume takes them from the stored run instead. */
const DESIGN_FLAGS: ReadonlyArray<[keyof JudgeOptions, string]> = [
  ['models', '--models'],
  ['pairs', '--pairs'],
  ['limit', '--limit'],
  ['sample', '--sample'],
];

interface PreparedJudgeRun {
  readonly run?: RunInfo;
  readonly design: StoredJudgeDesign;
  readonly pairs: LoadedPairs;
  readonly seed: number;
  readonly configPath?: string;
}

/** A new judge run, checked before any store is opened: bad input never leaves an empty store behind. */
async function prepareNew(options: JudgeOptions, context: CliContext): Promise<PreparedJudgeRun> {
  const design = judgeDesignFromOptions(options);
  return {
    design,
    pairs: await loadJudgePairs(design, options.seed, context),
    seed: options.seed,
    ...(options.config ? { configPath: resolve(options.config) } : {}),
  };
}

async function prepareResume(store: ResultStore, options: JudgeOptions, context: CliContext): Promise<PreparedJudgeRun> {
  const given = DESIGN_FLAGS.filter(([key]) => options[key] !== undefined).map(([, flag]) => flag);
  const name = options.study ?? new JudgeTable(store.sqlite).latestRunOf('judge');
  if (name === undefined) throw new InputError(`${options.store} has no judge run to resume: start one with pmiyc judge --models a,b`);
  const run = store.findRun(name);
  const stored = judgeDesignOfStoredRun(run.name, run.config);
  // The ratings may have moved: a new --data-dir is fine, the checksum below proves the pairs are the same.
  const design = options.dataDir === undefined ? stored.design : { ...stored.design, pairs: { ...stored.design.pairs, dataDir: options.dataDir } };
  const { configPath } = stored;
  if (given.length > 0) throw new InputError(`--resume continues judge run ${run.name} with its own design: drop ${given.join(', ')}`);
  const pairs = await loadJudgePairs(design, run.seed, context);
  if (run.claimsChecksum && judgePairsChecksum(pairs.pairs) !== run.claimsChecksum) {
    throw new InputError(
      `the pairs of judge run ${run.name} (${design.pairs.source}) are not the same as when it started: use the same pairs file or --data-dir`,
    );
  }
  const path = options.config ?? configPath;
  return { run, design, pairs, seed: run.seed, ...(path ? { configPath: path } : {}) };
}

function startRun(store: ResultStore, prepared: PreparedJudgeRun, models: Record<string, unknown>, options: JudgeOptions, context: CliContext): RunInfo {
  if (prepared.run) return prepared.run;
  if (options.study !== undefined && store.hasRun(options.study))
    throw new InputError(`run "${options.study}" already exists in ${options.store}: continue it with --resume, or choose another --study name`);
  const { pairs } = prepared;
  return store.createRun({
    name: options.study ?? store.nextRunName('judge'),
    seed: prepared.seed,
    packageVersion: context.packageVersion,
    config: {
      command: 'judge',
      design: prepared.design,
      pairs: {
        source: pairs.source,
        license: pairs.license,
        count: pairs.pairs.length,
        available: pairs.available,
        claims: pairs.claims,
        ...(pairs.ties === undefined ? {} : { ties: pairs.ties }),
      },
      models,
      ...(prepared.configPath ? { configPath: prepared.configPath } : {}),
    },
    claimsChecksum: judgePairsChecksum(pairs.pairs),
    ...(options.gitRevision ? { gitRevision: options.gitRevision } : {}),
  });
}

/** Trials in order: pair by pair, every judge on a pair before the next, so all judges progress together. */
function* plannedTrials(pairs: readonly JudgePair[], judges: readonly string[]): Generator<{ judge: string; pair: JudgePair }> {
  for (const pair of pairs) for (const judge of judges) yield { judge, pair };
}

interface ExecuteParts {
  readonly session: StudySession;
  readonly table: JudgeTable;
  readonly concurrency: number;
  readonly context: CliContext;
  readonly signals: RunSignals;
}

async function execute(run: RunInfo, prepared: PreparedJudgeRun, { session, table, concurrency, context, signals }: ExecuteParts) {
  const { design } = prepared;
  const failures = new Map<string, number>();
  const result = await runTasks({
    tasks: plannedTrials(prepared.pairs.pairs, design.judges),
    // Each trial has at most one call on the wire; the shared semaphore bounds calls, so keep more trials ready.
    concurrency: 4 * concurrency,
    gate: session.gate,
    abortSignal: signals.abort,
    isDone: ({ judge, pair }) => table.has(run.id, judge, pair.id),
    onSkipped: () => (session.meter.conversationsSkipped += 1),
    run: async ({ judge, pair }) => {
      const outcome = await judgePair({
        model: session.registry.modelFor(judge),
        modelName: judge,
        pair,
        runSeed: run.seed,
        settings: design.sampling,
        abortSignal: signals.abort,
      });
      session.meter.conversationsDone += 1;
      if (outcome.status === 'failed') {
        session.meter.conversationsFailed += 1;
        failures.set(outcome.reason, (failures.get(outcome.reason) ?? 0) + 1);
        const shown = [...failures.values()].reduce((sum, count) => sum + count, 0);
        if (shown <= FAILURES_SHOWN)
          context.stderr.write(
            `pmiyc: ${judge} on pair ${pair.id}: ${outcome.detail}${shown === FAILURES_SHOWN ? ' (further failures are counted, not shown)' : ''}\n`,
          );
        return 'failed';
      }
      table.save(run.id, outcome.record);
      if (outcome.record.chosen === null) session.meter.conversationsFailed += 1;
      return 'done';
    },
  });
  return { result, failures };
}

function printOutcome(
  run: RunInfo,
  prepared: PreparedJudgeRun,
  table: JudgeTable,
  outcome: { result: TasksResult; failures: Map<string, number> },
  ending: SessionEnding,
  session: StudySession,
  options: JudgeOptions,
  context: CliContext,
  spentUsd: number,
): number {
  const out = (line = '') => context.stdout.write(`${line}\n`);
  const { result, failures } = outcome;
  const { pairs } = prepared;
  const claims = new Set(pairs.pairs.map((pair) => pair.claim)).size;
  const selected = pairs.pairs.length < pairs.available ? `, selected from ${pairs.available.toLocaleString('en-US')} pairs on ${pairs.claims} claims` : '';
  out(
    `Judge run ${run.name}: ${pairs.pairs.length.toLocaleString('en-US')} pairs from ${claims} claims${selected} (${pairs.source}; ${pairs.license}), ${prepared.design.judges.length} judges.`,
  );
  out();
  out(formatJudgeText(judgeAccuracy(table.trials(run.id), { bootstrap: { replicates: 2000, confidence: 0.95, seed: run.seed } }), labelModel));
  out();
  out(
    `${result.done} trials this session, ${result.skipped} already done, ${result.failed} failed; spent $${spentUsd.toFixed(4)} on calls this run made. Stored in ${options.store}.`,
  );
  const resume = `pmiyc judge --store ${options.store} --study ${run.name} --resume`;
  if (ending.status === 'interrupted') {
    const stop = describeStop(ending, {
      resume,
      items: 'trials',
      blockedModels: session.gate.blockedModels,
      ...(options.maxCost === undefined ? {} : { maxCost: options.maxCost }),
    });
    context.stderr.write(`pmiyc: ${stop}\n`);
    return ending.exitCode;
  }
  if (result.failed > 0) {
    context.stderr.write(`pmiyc: ${describeFailures(failures, 'trials')} and are not stored; fix the cause, then ask them again: ${resume}\n`);
    return EXIT_FAILED;
  }
  return ending.exitCode;
}

/**
 * `pmiyc judge`: LLM as judge (paper Sec. 4.1.2). Every judge sees every pair once, in a seeded
 * order; trials are stored one by one (resumable with --resume), calls go through the call store
 * (replayed when asked again), and the accuracy table is printed at the end.
 */
export async function judgeCommand(options: JudgeOptions, context: CliContext, signals: RunSignals): Promise<number> {
  const fresh = options.resume ? undefined : await prepareNew(options, context);
  const freshConfig = fresh ? loadConfig(fresh.configPath) : undefined;
  const freshModels = fresh && freshConfig ? checkStudyModels(freshConfig, fresh.design.judges, options.maxCost, context) : undefined;
  const store = options.resume ? ResultStore.openExisting(options.store, { now: context.now }) : ResultStore.open(options.store, { now: context.now });
  try {
    const prepared = fresh ?? (await prepareResume(store, options, context));
    const config = freshConfig ?? loadConfig(prepared.configPath);
    const models = freshModels ?? checkStudyModels(config, prepared.design.judges, options.maxCost, context);
    const run = startRun(store, prepared, models, options, context);
    const table = new JudgeTable(store.sqlite);
    const session = startStudySession(
      {
        store,
        run,
        resumed: prepared.run !== undefined,
        config,
        names: prepared.design.judges,
        concurrency: options.concurrency,
        cache: options.cache,
        command: options.resume ? 'pmiyc judge --resume' : 'pmiyc judge',
        unit: 'trials',
        total: prepared.pairs.pairs.length * prepared.design.judges.length,
        ...(options.maxCost === undefined ? {} : { maxCost: options.maxCost }),
        ...(options.progressIntervalMs ? { progressIntervalMs: options.progressIntervalMs } : {}),
      },
      context,
      signals,
    );
    let outcome: Awaited<ReturnType<typeof execute>>;
    let ending: SessionEnding | undefined;
    try {
      outcome = await execute(run, prepared, { session, table, concurrency: options.concurrency, context, signals });
      ending = sessionEnding(outcome.result, outcome.result.failed, signals);
    } finally {
      session.end(ending);
    }
    return printOutcome(run, prepared, table, outcome, ending, session, options, context, store.spentUsd(run.id));
  } finally {
    store.close();
  }
}
