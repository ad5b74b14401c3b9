import type { JudgePair } from '../../datasets/judge-pairs.js';
import { InputError } from '../../domain/errors/input-error.js';
import { type SelectionAndSamplingOptions, samplingOf, selectionOf } from '../design-parts.js';
import type { JudgeResults } from './judge-results.js';

/** The pairs of the human ratings (the Anthropic persuasion data), as opposed to a user's file. */
export const ANTHROPIC_PAIRS = 'anthropic';

import type { RunConfig, StudyRun, StudyRunRecords } from '../run-config.js';
import { checkDesignFlags, type DesignFlag, listText, optionalText, type ResumeWording, studyToResume, typedWhenGiven } from '../study-resume.js';
import type { StoredJudgeDesign } from './judge-config.js';

export type { StoredJudgeDesign } from './judge-config.js';

export interface JudgeDesignOptions extends SelectionAndSamplingOptions {
  readonly models?: readonly string[];
  /** A JSONL file of the user's own pairs; the Anthropic ratings when absent. */
  readonly pairs?: string;
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

/** The flags `--resume` compares with a stored judge run. */
export interface JudgeResumeFlags {
  readonly study?: string;
  readonly dataDir?: string;
  readonly models?: readonly string[];
  readonly pairs?: string;
  readonly limit?: number;
  readonly sample?: number;
}

const WORDING: ResumeWording = {
  study: 'judge run',
  short: 'run',
  startOne: 'pmiyc judge --models a,b',
  startNew: 'start a new run (without --resume)',
};

/** Options that define a judge run: typed again on --resume, each must say what the run says. */
const DESIGN_FLAGS: readonly DesignFlag<StoredJudgeDesign, JudgeResumeFlags>[] = [
  { flag: '--models', keys: ['models'], stored: (design) => listText(design.judges), given: (flags) => listText(flags.models && [...new Set(flags.models)]) },
  { flag: '--pairs', keys: ['pairs'], stored: (design) => design.pairs.source, given: (flags) => flags.pairs ?? ANTHROPIC_PAIRS },
  { flag: '--limit', keys: ['limit'], stored: (design) => optionalText(design.pairs.limit), given: (flags) => optionalText(flags.limit) },
  { flag: '--sample', keys: ['sample'], stored: (design) => optionalText(design.pairs.sample), given: (flags) => optionalText(flags.sample) },
];

/**
 * The judge run `--resume` continues (named, or the latest) with its stored design (see
 * `studies/study-resume.ts`): flags typed again must say what it says. A new --data-dir is taken:
 * the ratings may have moved, and the pairs' checksum proves them the same.
 */
export function judgeRunToResume(
  store: Pick<StudyRunRecords, 'findRun' | 'location'> & { readonly judge: Pick<JudgeResults, 'latestRunOf'> },
  options: JudgeResumeFlags,
): { run: StudyRun; design: StoredJudgeDesign; configPath?: string } {
  const run = studyToResume(store, WORDING, { named: options.study, latest: () => store.judge.latestRunOf('judge') });
  const stored = judgeDesignOfStoredRun(run.name, run.config);
  checkDesignFlags(WORDING, run.name, DESIGN_FLAGS, stored.design, options, typedWhenGiven(options));
  const design = options.dataDir === undefined ? stored.design : { ...stored.design, pairs: { ...stored.design.pairs, dataDir: options.dataDir } };
  return { run, design, ...(stored.configPath ? { configPath: stored.configPath } : {}) };
}
