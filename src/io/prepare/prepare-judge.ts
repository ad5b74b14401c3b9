import { resolve } from 'node:path';
import {
  type JudgeDesignOptions,
  judgeDesignFromOptions,
  judgeRunToResume,
  type LoadedPairs,
  type StoredJudgeDesign,
} from '../../studies/judge/judge-design.js';
import type { DataAccess } from '../inputs/data-access.js';
import { loadJudgePairs } from '../inputs/load-judge-pairs.js';
import type { PreparedStudy, StudyNameOptions } from './prepared-study.js';

/** What a judge session runs: a new run's design from its options, or a stored run's own, with its pairs read. */
export interface PreparedJudgeRun extends PreparedStudy<StoredJudgeDesign> {
  readonly pairs: LoadedPairs;
}

/** A new judge run, its pairs read before any store is opened: bad input never leaves an empty store behind. */
export async function prepareNewJudgeRun(options: JudgeDesignOptions & StudyNameOptions, data: DataAccess): Promise<PreparedJudgeRun> {
  const design = judgeDesignFromOptions(options);
  return {
    design,
    pairs: await loadJudgePairs(design, options.seed, data),
    seed: options.seed,
    ...(options.study ? { name: options.study } : {}),
    ...(options.config ? { configPath: resolve(options.config) } : {}),
  };
}

/** The stored judge run `--resume` continues (see `judgeRunToResume`), its pairs read again; a config given now replaces the run's. */
export async function prepareJudgeResume(
  store: Parameters<typeof judgeRunToResume>[0],
  options: Parameters<typeof judgeRunToResume>[1] & { readonly config?: string },
  data: DataAccess,
): Promise<PreparedJudgeRun> {
  const { run, design, configPath } = judgeRunToResume(store, options);
  const path = options.config ?? configPath;
  return { name: run.name, design, pairs: await loadJudgePairs(design, run.seed, data), seed: run.seed, ...(path ? { configPath: path } : {}) };
}
