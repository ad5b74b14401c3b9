import type { JudgePair } from '../../datasets/judge-pairs.js';
import { InputError } from '../../domain/errors/input-error.js';
import { samplingOf, selectionOf } from '../design-parts.js';
import type { JudgeResults } from './judge-results.js';

/** The pairs of the human ratings (the Anthropic persuasion data), as opposed to a user's file. */
export const ANTHROPIC_PAIRS = 'anthropic';

import type { RunConfig, StudyRun, StudyRunRecords } from '../run-config.js';
import type { StoredJudgeDesign } from './judge-config.js';

export type { StoredJudgeDesign } from './judge-config.js';

export interface JudgeDesignOptions {
  readonly models?: readonly string[];
  /** A JSONL file of the user's own pairs; the Anthropic ratings when absent. */
  readonly pairs?: string;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly maxAttempts: number;
}

/** The design of a new judge run from its options. */
export function judgeDesignFromOptions(options: JudgeDesignOptions): StoredJudgeDesign {
  if (!options.models || options.models.length === 0) throw new InputError('name the judge models: --models a,b');
  if (options.pairs !== undefined && options.dataDir !== undefined)
    throw new InputError('--data-dir is where the Anthropic ratings are read from: drop it when you give --pairs FILE');
  return {
    judges: [...new Set(options.models)],
    pairs: selectionOf(options.pairs ?? ANTHROPIC_PAIRS, options),
    sampling: samplingOf(options),
  };
}

/** The stored design of a judge run being resumed; refuses runs of other commands. */
function judgeDesignOfStoredRun(runName: string, config: RunConfig): { design: StoredJudgeDesign; configPath?: string } {
  if (config.kind !== 'judge')
    throw new InputError(`run ${runName} is not a judge run (made by \`pmiyc judge\`): name a judge run with --study, or resume it with its own command`);
  return { design: config.design, ...(config.configPath ? { configPath: config.configPath } : {}) };
}

/** The pairs of a run, and what the user should know about where they come from. */
export interface LoadedPairs {
  readonly pairs: JudgePair[];
  readonly source: string;
  readonly license: string;
  /** Pairs before --limit / --sample. */
  readonly available: number;
  readonly claims: number;
  /** Tied arguments left out (human ratings only). */
  readonly ties?: number;
}

/** Options that define a judge run: --resume takes them from the stored run instead. */
const DESIGN_FLAGS = [
  ['models', '--models'],
  ['pairs', '--pairs'],
  ['limit', '--limit'],
  ['sample', '--sample'],
] as const;

/**
 * The judge run `--resume` continues (named, or the latest) with its stored design; design flags
 * given again are refused. A new --data-dir is taken: the ratings may have moved, and the pairs'
 * checksum proves them the same.
 */
export function judgeRunToResume(
  store: Pick<StudyRunRecords, 'findRun' | 'location'> & { readonly judge: Pick<JudgeResults, 'latestRunOf'> },
  options: { readonly study?: string; readonly dataDir?: string } & Partial<Record<(typeof DESIGN_FLAGS)[number][0], unknown>>,
): { run: StudyRun; design: StoredJudgeDesign; configPath?: string } {
  const name = options.study ?? store.judge.latestRunOf('judge');
  if (name === undefined) throw new InputError(`${store.location} has no judge run to resume: start one with pmiyc judge --models a,b`);
  const run = store.findRun(name);
  const stored = judgeDesignOfStoredRun(run.name, run.config);
  const given = DESIGN_FLAGS.filter(([key]) => options[key] !== undefined).map(([, flag]) => flag);
  if (given.length > 0) throw new InputError(`--resume continues judge run ${run.name} with its own design: drop ${given.join(', ')}`);
  const design = options.dataDir === undefined ? stored.design : { ...stored.design, pairs: { ...stored.design.pairs, dataDir: options.dataDir } };
  return { run, design, ...(stored.configPath ? { configPath: stored.configPath } : {}) };
}
