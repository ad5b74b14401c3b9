import { z } from 'zod';
import { taxonomySchema } from '../../config/taxonomy/taxonomy-schema.js';
import { InputError } from '../../domain/errors/input-error.js';
import type { Taxonomy } from '../../domain/taxonomy.js';
import type { RunInfo, RunRecords } from '../../runner/run-records.js';
import { samplingOf, samplingSchema } from '../design-parts.js';

/**
 * What an analysis study is (`pmiyc analyze`, issue 29), as stored in its `runs` row
 * (`config.command = 'analyze'`), so that --resume asks exactly the same questions and a report can
 * say which judges read which turns with which taxonomy. The taxonomy is stored whole: a report never
 * depends on a file that may have changed since.
 */
const analysisDesignSchema = z.object({
  /** The judge models, in the order given (`--judge a,b`). */
  judges: z.array(z.string()).min(1),
  /** The taxonomy the judges label with, as loaded (a built-in's name or a file's items). */
  taxonomy: taxonomySchema,
  /** Where the taxonomy came from: a built-in's name or the file's absolute path. */
  taxonomySource: z.string(),
  /** Conversations analysed: a seeded sample of the run's (`--sample N`); absent: all of them. */
  sample: z.number().int().min(1).optional(),
  /** Whether each persuader's stance is asked again after its conversation (`--probe-drift`). */
  probeDrift: z.boolean().default(false),
  sampling: samplingSchema,
  /** Every judge's calls through its provider's batch service (`--batch`): kept so that a resume batches too. */
  batch: z.boolean().optional(),
});

const analysisConfigSchema = z.looseObject({
  command: z.literal('analyze'),
  /** The tournament run whose conversations are analysed. */
  tournamentRun: z.string(),
  design: analysisDesignSchema,
  /** Judges that are simulated agents (labelled in every output). */
  simulated: z.array(z.string()).default([]),
  configPath: z.string().optional(),
});

export type AnalysisConfig = z.infer<typeof analysisConfigSchema>;

/** Whether a stored run config is an analysis study's. */
export function isAnalysisConfig(config: unknown): boolean {
  return analysisConfigSchema.safeParse(config).success;
}

/** A stored study's config, or an error that says what the run is instead. */
export function analysisConfigOf(runName: string, config: unknown): AnalysisConfig {
  const parsed = analysisConfigSchema.safeParse(config);
  if (!parsed.success) throw new InputError(`run ${runName} is not an analysis study: name one made by \`pmiyc analyze\``);
  return parsed.data;
}

export type AnalysisDesign = z.infer<typeof analysisDesignSchema>;

/** The taxonomy a study labels with when --taxonomy is not given: the short rhetorical one (few labels, short prompts). */
export const DEFAULT_TAXONOMY = 'rhetoric';

export interface AnalysisDesignOptions {
  readonly judge?: readonly string[];
  readonly sample?: number;
  readonly probeDrift?: boolean;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly maxAttempts: number;
}

/** The design of a new study from its options and its loaded taxonomy. */
export function analysisDesignFromOptions(options: AnalysisDesignOptions, taxonomy: Taxonomy, taxonomySource: string): AnalysisDesign {
  const judges = [...new Set(options.judge ?? [])];
  if (judges.length === 0) throw new InputError('name the judge models that label the turns: --judge a (or --judge a,b for several)');
  return {
    judges,
    // Stored as the schema reads it back (a copy of plain items).
    taxonomy: taxonomySchema.parse(taxonomy),
    taxonomySource,
    ...(options.sample === undefined ? {} : { sample: options.sample }),
    probeDrift: options.probeDrift === true,
    sampling: samplingOf(options),
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
export function tournamentRunToAnalyse(records: Pick<RunRecords, 'findRun' | 'latestRunOf' | 'location'>, name: string | undefined): RunInfo {
  if (name === undefined) {
    const latest = records.latestRunOf('tournament');
    if (latest === undefined)
      throw new InputError(`${records.location} has no tournament run to analyse: make one with pmiyc run, or import one with pmiyc import official`);
    return latest;
  }
  const run = records.findRun(name);
  const command = (run.config as { command?: unknown }).command;
  // As the store tells a run's kind: a tournament's config says run, demo or import (or nothing, before 0.2).
  if (command !== undefined && !['run', 'demo', 'import'].includes(String(command)))
    throw new InputError(
      `--run names the tournament run to analyse, but ${name} is ${OTHER_RUNS[String(command)] ?? `a ${String(command)} run`}: name a run made by \`pmiyc run\` or \`pmiyc import official\``,
    );
  return run;
}

/** Options that define a study: --resume takes them from the stored study instead. */
const DESIGN_FLAGS = [
  ['judge', '--judge'],
  ['taxonomy', '--taxonomy'],
  ['sample', '--sample'],
] as const;

/** What a resumed study is: its run, its own design, the tournament run it reads, its config file. */
export interface AnalysisToResume {
  readonly run: RunInfo;
  readonly config: AnalysisConfig;
}

/**
 * The analysis study `--resume` continues (named with --study, or the latest), with its stored
 * design: design flags given again, or another tournament run, are refused with what to do instead.
 */
export function analysisToResume(
  records: Pick<RunRecords, 'findRun' | 'latestRunOf' | 'location'>,
  options: { readonly study?: string; readonly run?: string; readonly probeDrift?: boolean } & Partial<Record<(typeof DESIGN_FLAGS)[number][0], unknown>>,
): AnalysisToResume {
  const run = options.study === undefined ? records.latestRunOf('analyze') : records.findRun(options.study);
  if (run === undefined) throw new InputError(`${records.location} has no analysis study to resume: start one with pmiyc analyze --judge MODEL`);
  const config = analysisConfigOf(run.name, run.config);
  const given: string[] = DESIGN_FLAGS.filter(([key]) => options[key] !== undefined).map(([, flag]) => flag);
  // --probe-drift is off unless given: given again on a study started with it, it changes nothing.
  if (options.probeDrift === true && !config.design.probeDrift) given.push('--probe-drift');
  if (given.length > 0) throw new InputError(`--resume continues analysis study ${run.name} with its own design: drop ${given.join(', ')}`);
  if (options.run !== undefined && options.run !== config.tournamentRun)
    throw new InputError(`study ${run.name} analyses run ${config.tournamentRun}: drop --run, or start a new study without --resume`);
  return { run, config };
}
