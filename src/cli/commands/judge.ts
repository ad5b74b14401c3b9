import { resolve } from 'node:path';
import { formatCount, labelModel } from '../../domain/text-labels.js';
import { loadConfig } from '../../io/load-config.js';
import { loadJudgePairs } from '../../io/load-judge-pairs.js';
import { judgeAccuracy } from '../../metrics/judge-accuracy.js';
import { describeCallsMade } from '../../report/run-totals-text.js';
import { formatJudgeText } from '../../report/studies/judge-text.js';
import { checkModels } from '../../runner/check-models.js';
import { describeReplicaUse } from '../../runner/replica-lines.js';
import { describeFailures, describeStop, EXIT_FAILED } from '../../runner/session-ending.js';
import { openStore, type Store } from '../../store/result-store.js';
import {
  type JudgeDesignOptions,
  judgeDesignFromOptions,
  judgeRunToResume,
  type LoadedPairs,
  type StoredJudgeDesign,
} from '../../studies/judge/judge-design.js';
import { type JudgeOutcome, runJudgeStudy } from '../../studies/judge/judge-study.js';
import { aboutRun, type CliContext, dataOf, type RunSignals, sessionWorldOf } from '../terminal.js';

export { judgeSynthesizeCommand } from './judge-synthesize.js';

export interface JudgeOptions extends JudgeDesignOptions {
  readonly store: string;
  /** The run's name (default judge-N); with --resume, the judge run to continue (default: the latest). */
  readonly study?: string;
  readonly resume: boolean;
  /** With --resume: take the run from a process that still holds it. */
  readonly takeOver?: boolean;
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
interface PreparedJudgeRun {
  readonly name?: string;
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
    pairs: await loadJudgePairs(design, options.seed, dataOf(context)),
    seed: options.seed,
    ...(options.study ? { name: options.study } : {}),
    ...(options.config ? { configPath: resolve(options.config) } : {}),
  };
}

async function prepareResume(store: Store, options: JudgeOptions, context: CliContext): Promise<PreparedJudgeRun> {
  const { run, design, configPath } = judgeRunToResume(store, options);
  const path = options.config ?? configPath;
  return { name: run.name, design, pairs: await loadJudgePairs(design, run.seed, dataOf(context)), seed: run.seed, ...(path ? { configPath: path } : {}) };
}

function printOutcome(outcome: JudgeOutcome, prepared: PreparedJudgeRun, store: Store, options: JudgeOptions, context: CliContext): number {
  const out = (line = '') => context.stdout.write(`${line}\n`);
  const { run, result, failures, ending } = outcome;
  const { pairs } = prepared;
  const claims = new Set(pairs.pairs.map((pair) => pair.claim)).size;
  const selected = pairs.pairs.length < pairs.available ? `, selected from ${formatCount(pairs.available)} pairs on ${pairs.claims} claims` : '';
  out(
    `Judge run ${run.name}: ${formatCount(pairs.pairs.length)} pairs from ${claims} claims${selected} (${pairs.source}; ${pairs.license}), ${prepared.design.judges.length} judges.`,
  );
  out();
  out(formatJudgeText(judgeAccuracy(store.judge.trials(run.id), { bootstrap: { replicates: 2000, confidence: 0.95, seed: run.seed } }), labelModel));
  out();
  out(
    `${result.done} trials this session, ${result.skipped} already done, ${result.failed} failed; ${describeCallsMade({
      calls: store.callTotals(run.id, outcome.callsMark),
      modelsWithoutPrice: outcome.modelsWithoutPrice,
      replayedThisSession: outcome.meter.replayedFrom,
      reusedThisSession: outcome.meter.callsShared,
      failedCallsThisSession: outcome.meter.callsFailed,
    })}. Stored in ${options.store}.`,
  );
  for (const { model, replicas } of outcome.replicaUse) out(`${describeReplicaUse(model, replicas)}.`);
  const resume = `pmiyc judge --store ${options.store} --study ${run.name} --resume`;
  if (ending.status !== 'completed') {
    const maxCost = options.maxCost === undefined ? {} : { maxCost: options.maxCost };
    context.stderr.write(`pmiyc: ${describeStop(ending, { resume, items: 'trials', blockedModels: outcome.blockedModels, ...maxCost })}\n`);
    return ending.exitCode;
  }
  if (result.failed > 0) {
    context.stderr.write(`pmiyc: ${describeFailures(failures, 'trials')} and are not stored; fix the cause, then ask them again: ${resume}\n`);
    return EXIT_FAILED;
  }
  return ending.exitCode;
}

/**
 * `pmiyc judge`: LLM as judge (paper Sec. 4.1.2; see studies/judge/judge-study.ts); the accuracy
 * table is printed at the end.
 */
export async function judgeCommand(options: JudgeOptions, context: CliContext, signals: RunSignals): Promise<number> {
  const fresh = options.resume ? undefined : await prepareNew(options, context);
  const freshConfig = fresh ? loadConfig(fresh.configPath) : undefined;
  if (fresh && freshConfig) checkModels(freshConfig, context.env, fresh.design.judges, options.maxCost);
  const store = openStore(options.store, { now: context.now, access: options.resume ? 'write' : 'create' });
  try {
    const prepared = fresh ?? (await prepareResume(store, options, context));
    let shown = 0;
    const outcome = await runJudgeStudy({
      store,
      design: prepared.design,
      pairs: prepared.pairs,
      config: freshConfig ?? loadConfig(prepared.configPath),
      seed: prepared.seed,
      concurrency: options.concurrency,
      cache: options.cache,
      resume: options.resume,
      takeOver: options.takeOver === true,
      ...(prepared.name ? { name: prepared.name } : {}),
      ...(options.maxCost === undefined ? {} : { maxCostUsd: options.maxCost }),
      about: aboutRun(context, options.gitRevision, prepared.configPath),
      onFailedTrial: (judge, pair, detail) => {
        shown += 1;
        if (shown <= FAILURES_SHOWN)
          context.stderr.write(
            `pmiyc: ${judge} on pair ${pair.id}: ${detail}${shown === FAILURES_SHOWN ? ' (further failures are counted, not shown)' : ''}\n`,
          );
      },
      world: sessionWorldOf(context, signals, store, options.progressIntervalMs),
    });
    return printOutcome(outcome, prepared, store, options, context);
  } finally {
    store.close();
  }
}
