import { taxonomySchema } from '../../config/taxonomy/taxonomy-schema.js';
import { InputError } from '../../domain/errors/input-error.js';
import type { Taxonomy } from '../../domain/taxonomy.js';
import { samplingOf } from '../design-parts.js';
import type { RunConfig, StudyRun, StudyRunRecords } from '../run-config.js';
import { checkDesignFlags, type DesignFlag, optionalText, type ResumeWording, studyToResume, typedWhenGiven } from '../study-resume.js';

import type { AnalysisConfig, AnalysisDesign } from './analysis-config.js';
import { type AnalysisGrain, analysisGrainOf, DEFAULT_GRAIN } from './analysis-grain.js';

export type { AnalysisConfig, AnalysisDesign } from './analysis-config.js';

/** Whether a stored run config is an analysis study's. */
export function isAnalysisConfig(config: RunConfig): boolean {
  return config.kind === 'analyze';
}

/** A stored study's config, or an error that says what the run is instead. */
export function analysisConfigOf(runName: string, config: RunConfig): AnalysisConfig {
  if (config.kind !== 'analyze') throw new InputError(`run ${runName} is not an analysis study: name one made by \`pmiyc analyze\``);
  return config;
}

/** The taxonomy a study labels with when --taxonomy is not given: the short rhetorical one (few labels, short prompts). */
export const DEFAULT_TAXONOMY = 'rhetoric';

export interface AnalysisDesignOptions {
  readonly judge?: readonly string[];
  readonly sample?: number;
  readonly probeDrift?: boolean;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly maxAttempts: number;
  /** How a judge is asked (default `conversation`). */
  readonly grain?: AnalysisGrain;
}

/** The design of a new study from its options and its loaded taxonomy. */
export function analysisDesignFromOptions(options: AnalysisDesignOptions, taxonomy: Taxonomy, taxonomySource: string): AnalysisDesign {
  const judges = [...(options.judge ?? [])];
  if (judges.length === 0) throw new InputError('name the judge models that label the turns: --judge a (or --judge a,b for several)');
  const twice = judges.find((name, index) => judges.indexOf(name) !== index);
  if (twice !== undefined) throw new InputError(`--judge names ${twice} twice: each judge labels every turn once; name it once`);
  return {
    judges,
    // Stored as the schema reads it back (a copy of plain items).
    taxonomy: taxonomySchema.parse(taxonomy),
    taxonomySource,
    ...(options.sample === undefined ? {} : { sample: options.sample }),
    probeDrift: options.probeDrift === true,
    sampling: samplingOf(options),
    // A per-turn study stores no key (read back as per turn), as before there was a choice.
    ...((options.grain ?? DEFAULT_GRAIN) === 'turn' ? {} : { grain: options.grain ?? DEFAULT_GRAIN }),
  };
}

/** What a run that is not a tournament is, for messages. */
const OTHER_RUNS: Readonly<Record<string, string>> = {
  analyze: 'an analysis study',
  consistency: 'a consistency study',
  judge: 'a judge run',
  'judge-synthesize': 'a synthesis run',
};

/** The tournament run a study reads (`--run`; default the latest tournament), refused when it is not a tournament. */
export function tournamentRunToAnalyse(records: Pick<StudyRunRecords, 'findRun' | 'latestRunOf' | 'location'>, name: string | undefined): StudyRun {
  if (name === undefined) {
    const latest = records.latestRunOf('tournament');
    if (latest === undefined)
      throw new InputError(`${records.location} has no tournament run to analyse: make one with pmiyc run, or import one with pmiyc import official`);
    return latest;
  }
  const run = records.findRun(name);
  const { config } = run;
  // As the store tells a run's kind: a tournament's config says run, demo or import (or nothing, before 0.2).
  const command = config.kind === 'unreadable' ? config.command : config.kind === 'tournament' || config.kind === 'import' ? undefined : config.kind;
  if (command !== undefined && !['run', 'demo', 'import'].includes(command))
    throw new InputError(
      `--run names the tournament run to analyse, but ${name} is ${OTHER_RUNS[String(command)] ?? `a ${String(command)} run`}: name a run made by \`pmiyc run\` or \`pmiyc import official\``,
    );
  return run;
}

/** The flags of `pmiyc analyze` that a resume compares with the stored study, as typed now. */
export interface AnalysisResumeFlags {
  readonly judge?: readonly string[];
  readonly sample?: number;
  readonly probeDrift?: boolean;
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly maxAttempts?: number;
  readonly seed?: number;
  readonly run?: string;
  readonly grain?: AnalysisGrain;
  /** `--taxonomy` as loaded now: where it came from (a built-in's name or the file's absolute path) and its items. */
  readonly taxonomy?: { readonly source: string; readonly taxonomy: Taxonomy };
}

/** A stored study as --resume compares it: its config and its run (the seed). */
interface StoredStudy {
  readonly config: AnalysisConfig;
  readonly run: StudyRun;
}

type ResumeCheck = DesignFlag<StoredStudy, AnalysisResumeFlags>;

const optional = optionalText;
const givenOrNot = (value: boolean | undefined) => (value ? 'given' : 'not given');

/** A taxonomy as stored, to compare a file loaded again with the one a study started with. */
const taxonomyText = (taxonomy: unknown) => JSON.stringify(taxonomySchema.parse(taxonomy));

/** The flags that define what a study asks: on --resume each one typed must say what the study says. */
const RESUME_CHECKS: readonly ResumeCheck[] = [
  { flag: '--run', keys: ['run'], stored: ({ config }) => config.tournamentRun, given: (flags) => optional(flags.run) },
  { flag: '--judge', keys: ['judge'], stored: ({ config }) => config.design.judges.join(','), given: (flags) => (flags.judge ?? []).join(',') },
  {
    flag: '--taxonomy',
    keys: ['taxonomy'],
    stored: ({ config }) => config.design.taxonomySource,
    given: (flags) => flags.taxonomy?.source ?? '(none)',
  },
  { flag: '--sample', keys: ['sample'], stored: ({ config }) => optional(config.design.sample), given: (flags) => optional(flags.sample) },
  { flag: '--probe-drift', keys: ['probeDrift'], stored: ({ config }) => givenOrNot(config.design.probeDrift), given: (flags) => givenOrNot(flags.probeDrift) },
  {
    flag: '--temperature',
    keys: ['temperature'],
    stored: ({ config }) => String(config.design.sampling.temperature),
    given: (flags) => optional(flags.temperature),
  },
  {
    flag: '--max-tokens',
    keys: ['maxTokens'],
    stored: ({ config }) => String(config.design.sampling.maxOutputTokens),
    given: (flags) => optional(flags.maxTokens),
  },
  {
    flag: '--max-attempts',
    keys: ['maxAttempts'],
    stored: ({ config }) => String(config.design.sampling.maxAttempts),
    given: (flags) => optional(flags.maxAttempts),
  },
  { flag: '--grain', keys: ['grain'], stored: ({ config }) => analysisGrainOf(config.design), given: (flags) => optional(flags.grain) },
  { flag: '--seed', keys: ['seed'], stored: ({ run }) => String(run.seed), given: (flags) => optional(flags.seed) },
];

/** What a resumed study is: its run, its own design, the tournament run it reads, its config file. */
export interface AnalysisToResume {
  readonly run: StudyRun;
  readonly config: AnalysisConfig;
}

const WORDING: ResumeWording = {
  study: 'analysis study',
  short: 'study',
  startOne: 'pmiyc analyze --judge MODEL',
  startNew: 'start a new study (without --resume)',
};

/** A taxonomy file typed again that was edited since the study started (it labels with the taxonomy it stored). */
function taxonomyChanged(run: StudyRun, config: AnalysisConfig, flags: AnalysisResumeFlags): string[] {
  const taxonomy = flags.taxonomy;
  if (taxonomy && taxonomy.source === config.design.taxonomySource && taxonomyText(taxonomy.taxonomy) !== taxonomyText(config.design.taxonomy))
    return [`--taxonomy ${taxonomy.source} has changed since study ${run.name} started (it labels with the taxonomy it stored)`];
  return [];
}

/**
 * The analysis study `--resume` continues (named with --study, or the latest), with its stored
 * design (see `studies/study-resume.ts`). The flags typed again (the up-arrow habit) are welcome
 * when they say what the study says; any that differs is named with both values and the resume
 * refused. `flags` holds only what the user typed (not defaults).
 */
export function analysisToResume(
  records: Pick<StudyRunRecords, 'findRun' | 'latestRunOf' | 'location'>,
  options: { readonly study?: string; readonly flags: AnalysisResumeFlags },
): AnalysisToResume {
  const run = studyToResume(records, WORDING, { named: options.study, latest: () => records.latestRunOf('analyze')?.name });
  const config = analysisConfigOf(run.name, run.config);
  const { flags } = options;
  checkDesignFlags(WORDING, run.name, RESUME_CHECKS, { config, run }, flags, typedWhenGiven(flags), taxonomyChanged(run, config, flags));
  return { run, config };
}
