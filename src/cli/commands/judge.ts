import { loadConfig } from '../../io/inputs/load-config.js';
import { prepareJudgeResume, prepareNewJudgeRun } from '../../io/prepare/prepare-judge.js';
import { judgeAccuracy } from '../../metrics/agreement/judge-accuracy.js';
import { judgeSessionText } from '../../report/studies/judge-text.js';
import { checkModels } from '../../runner/models/check-models.js';
import { openStore } from '../../store/result-store.js';
import type { JudgeDesignOptions } from '../../studies/judge/judge-design.js';
import { runJudgeStudy } from '../../studies/judge/judge-study.js';
import type { SessionOptions } from '../shared-options.js';
import { aboutRun, type CliContext, dataOf, printClosing, type RunSignals, sessionWorldOf } from '../terminal.js';

export { judgeSynthesizeCommand } from './judge-synthesize.js';

export interface JudgeOptions extends JudgeDesignOptions, SessionOptions {
  /** The run's name (default judge-N); with --resume, the judge run to continue (default: the latest). */
  readonly study?: string;
  readonly resume: boolean;
  /** With --resume: take the run from a process that still holds it. */
  readonly takeOver?: boolean;
}

/** Failed trials described one by one; the rest are counted (a provider that is down would flood the terminal). */
const FAILURES_SHOWN = 5;

/**
 * `pmiyc judge`: LLM as judge (paper Sec. 4.1.2; see studies/judge/judge-study.ts); the accuracy
 * table is printed at the end.
 */
export async function judgeCommand(options: JudgeOptions, context: CliContext, signals: RunSignals): Promise<number> {
  const fresh = options.resume ? undefined : await prepareNewJudgeRun(options, dataOf(context));
  const freshConfig = fresh ? await loadConfig(fresh.configPath) : undefined;
  if (fresh && freshConfig) checkModels(freshConfig, context.env, fresh.design.judges, options.maxCost);
  const store = openStore(options.store, { now: context.now, access: options.resume ? 'write' : 'create' });
  try {
    const prepared = fresh ?? (await prepareJudgeResume(store, options, dataOf(context)));
    let shown = 0;
    const outcome = await runJudgeStudy({
      store,
      design: prepared.design,
      pairs: prepared.pairs,
      config: freshConfig ?? (await loadConfig(prepared.configPath)),
      seed: prepared.seed,
      concurrency: options.concurrency,
      cache: options.cache,
      resume: options.resume,
      takeOver: options.takeOver === true,
      ...(options.checkModels === false ? { checkModels: false } : {}),
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
    const accuracy = judgeAccuracy(store.judge.trials(outcome.run.id), { bootstrap: { replicates: 2000, confidence: 0.95, seed: outcome.run.seed } });
    const calls = store.callTotals(outcome.run.id, outcome.callsMark);
    const judges = prepared.design.judges.length;
    const maxCost = options.maxCost === undefined ? {} : { maxCost: options.maxCost };
    printClosing(context, judgeSessionText({ outcome, pairs: prepared.pairs, judges, accuracy, calls, storePath: options.store, ...maxCost }));
    return outcome.ending.exitCode;
  } finally {
    store.close();
  }
}
