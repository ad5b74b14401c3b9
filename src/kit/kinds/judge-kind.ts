import type { PmiycConfig } from '../../config/config-schema.js';
import { loadConfig } from '../../io/inputs/load-config.js';
import { type PreparedJudgeRun, prepareJudgeResume, prepareNewJudgeRun } from '../../io/prepare/prepare-judge.js';
import { judgeAccuracy } from '../../metrics/agreement/judge-accuracy.js';
import { judgeSessionText } from '../../report/studies/judge-text.js';
import type { JudgeDesignOptions } from '../../studies/judge/judge-design.js';
import { type JudgeOutcome, runJudgeStudy } from '../../studies/judge/judge-study.js';
import { dataOf } from '../command-context.js';
import { checkedConfig, type StudyCommandOptions, type StudyKind } from '../study-command.js';

export interface JudgeCommandOptions extends JudgeDesignOptions, StudyCommandOptions {
  /** The run's name (default judge-N); with --resume, the judge run to continue (default: the latest). */
  readonly study?: string;
}

type Prepared = PreparedJudgeRun & { readonly config: PmiycConfig };

/** `pmiyc judge`: LLM as judge (paper Sec. 4.1.2); the accuracy table is printed at the end. */
export const judgeKind: StudyKind<JudgeCommandOptions, Prepared, JudgeOutcome> = {
  prepareNew: async (options, context) => {
    const fresh = await prepareNewJudgeRun(options, dataOf(context));
    return { ...fresh, config: await checkedConfig(fresh.configPath, fresh.design.judges, options, context) };
  },
  prepareResume: async (store, options, context) => {
    const prepared = await prepareJudgeResume(store, options, dataOf(context));
    return { ...prepared, config: await loadConfig(prepared.configPath) };
  },
  run: ({ store, prepared, input, failures }) =>
    runJudgeStudy({
      ...input,
      store,
      design: prepared.design,
      pairs: prepared.pairs,
      onFailedTrial: (judge, pair, detail) => failures(`${judge} on pair ${pair.id}: ${detail}`),
    }),
  closing: ({ store, options, prepared }, outcome) => {
    const accuracy = judgeAccuracy(store.judge.trials(outcome.run.id), { bootstrap: { replicates: 2000, confidence: 0.95, seed: outcome.run.seed } });
    const calls = store.callTotals(outcome.run.id, outcome.callsMark);
    const judges = prepared.design.judges.length;
    const maxCost = options.maxCost === undefined ? {} : { maxCost: options.maxCost };
    return { closing: judgeSessionText({ outcome, pairs: prepared.pairs, judges, accuracy, calls, storePath: options.store, ...maxCost }) };
  },
};
