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

const EXIT_FAILED = 1;
const EXIT_INTERRUPTED = 130;
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

async function prepare(store: ResultStore, options: JudgeOptions, context: CliContext): Promise<PreparedJudgeRun> {
  if (!options.resume) {
    if (options.study !== undefined && store.hasRun(options.study))
      throw new InputError(`run "${options.study}" already exists in ${options.store}: continue it with --resume, or choose another --study name`);
    const design = judgeDesignFromOptions(options);
    return {
      design,
      pairs: await loadJudgePairs(design, options.seed, context),
      seed: options.seed,
      ...(options.config ? { configPath: options.config } : {}),
    };
  }
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
  if (prepared.run) {
    store.setRunStatus(prepared.run.id, 'running');
    return prepared.run;
  }
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
  if (result.status === 'stopped') {
    const why =
      result.stopReason === 'budget'
        ? `before the next call could take the spend past --max-cost $${options.maxCost}; resume with a higher limit: ${resume} --max-cost <USD>`
        : `; everything finished so far is stored. Resume with: ${resume}`;
    context.stderr.write(`pmiyc: stopped ${why}\n`);
    return result.stopReason === 'budget' ? EXIT_FAILED : EXIT_INTERRUPTED;
  }
  if (result.failed > 0) {
    context.stderr.write(
      `pmiyc: ${result.failed} trials failed (${[...failures].map(([reason, count]) => `${reason}: ${count}`).join(', ')}) and are not stored; fix the cause, then ask them again: ${resume}\n`,
    );
    return EXIT_FAILED;
  }
  return 0;
}

/**
 * `pmiyc judge`: LLM as judge (paper Sec. 4.1.2). Every judge sees every pair once, in a seeded
 * order; trials are stored one by one (resumable with --resume), calls go through the call store
 * (replayed when asked again), and the accuracy table is printed at the end.
 */
export async function judgeCommand(options: JudgeOptions, context: CliContext, signals: RunSignals): Promise<number> {
  const store = ResultStore.open(options.store, { now: context.now });
  try {
    const prepared = await prepare(store, options, context);
    const config = loadConfig(prepared.configPath);
    const models = checkStudyModels(config, prepared.design.judges, options.maxCost, context);
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
        unit: 'trials',
        total: prepared.pairs.pairs.length * prepared.design.judges.length,
        ...(options.maxCost === undefined ? {} : { maxCost: options.maxCost }),
        ...(options.progressIntervalMs ? { progressIntervalMs: options.progressIntervalMs } : {}),
      },
      context,
      signals,
    );
    let outcome: Awaited<ReturnType<typeof execute>>;
    try {
      outcome = await execute(run, prepared, { session, table, concurrency: options.concurrency, context, signals });
    } finally {
      session.end();
    }
    store.setRunStatus(run.id, outcome.result.status === 'completed' ? (outcome.result.failed > 0 ? 'failed' : 'completed') : 'stopped');
    return printOutcome(run, prepared, table, outcome, options, context, store.spentUsd(run.id));
  } finally {
    store.close();
  }
}
