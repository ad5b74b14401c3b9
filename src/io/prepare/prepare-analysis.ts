import { resolve } from 'node:path';
import { InputError } from '../../domain/errors/input-error.js';
import type { Taxonomy } from '../../domain/taxonomy.js';
import {
  type AnalysisDesign,
  type AnalysisDesignOptions,
  type AnalysisResumeFlags,
  analysisDesignFromOptions,
  analysisToResume,
  DEFAULT_TAXONOMY,
} from '../../studies/analysis/analysis-design.js';
import type { AnalysisResults } from '../../studies/analysis/analysis-results.js';
import type { StudyRunRecords } from '../../studies/run-config.js';
import { loadTaxonomy } from '../inputs/load-taxonomy.js';
import type { PreparedStudy, StudyNameOptions } from './prepared-study.js';

/** What an analysis session runs: a new study's design from its options, or a stored study's own. */
export interface PreparedAnalysis extends PreparedStudy<AnalysisDesign> {
  /** The tournament run to read: given (--run), the stored study's, or (undefined) the latest tournament. */
  readonly tournamentRun?: string;
}

/** What names an analysis study on the command line. */
interface StudyNames extends StudyNameOptions {
  readonly run?: string;
  readonly taxonomy?: string;
  readonly batch?: boolean;
}

/** A taxonomy named by --taxonomy, read and checked, with where it came from as a study stores it: a built-in's name or the file's absolute path. */
async function namedTaxonomy(name: string): Promise<{ source: string; taxonomy: Taxonomy }> {
  const loaded = await loadTaxonomy(name);
  return { source: loaded.source === 'built in' ? name : resolve(name), taxonomy: loaded.taxonomy };
}

/** A new study's design, its taxonomy read and checked before any store is opened: bad input leaves nothing behind. */
export async function prepareNewAnalysis(options: AnalysisDesignOptions & StudyNames): Promise<PreparedAnalysis> {
  const { source, taxonomy } = await namedTaxonomy(options.taxonomy ?? DEFAULT_TAXONOMY);
  const design = analysisDesignFromOptions(options, taxonomy, source);
  return {
    design: options.batch ? { ...design, batch: true } : design,
    seed: options.seed,
    ...(options.study ? { name: options.study } : {}),
    ...(options.run ? { tournamentRun: options.run } : {}),
    ...(options.config ? { configPath: resolve(options.config) } : {}),
  };
}

/** The options `--resume` reads: which study, and every flag as given (defaults included: `given` says which were typed). */
interface ResumeOptions extends StudyNames, AnalysisDesignOptions {
  /** The options the user typed (not defaults). */
  readonly given: ReadonlySet<string>;
}

/** The flags typed now, for the comparison with the stored study; a --taxonomy typed is loaded, as for a new study. */
async function typedResumeFlags(options: ResumeOptions): Promise<AnalysisResumeFlags> {
  const typed = <K extends keyof ResumeOptions>(key: K) => (options.given.has(key) ? { [key]: options[key] } : {});
  const taxonomy = options.given.has('taxonomy') && options.taxonomy !== undefined ? await namedTaxonomy(options.taxonomy) : undefined;
  return {
    ...typed('judge'),
    ...typed('sample'),
    ...typed('probeDrift'),
    ...typed('temperature'),
    ...typed('maxTokens'),
    ...typed('maxAttempts'),
    ...typed('seed'),
    ...typed('run'),
    ...typed('grain'),
    ...(taxonomy ? { taxonomy } : {}),
  };
}

/**
 * The stored study `--resume` continues: named with --study, else the latest study of --run, else the
 * latest study; its own design and seed, and the config it was run with unless one is given now.
 * Flags typed again must say what the study says (`analysisToResume`).
 */
export async function prepareAnalysisResume(
  store: Pick<StudyRunRecords, 'findRun' | 'latestRunOf' | 'location'> & { readonly analysis: Pick<AnalysisResults, 'studyNames'> },
  options: ResumeOptions,
): Promise<PreparedAnalysis> {
  const study = options.study ?? (options.run === undefined ? undefined : store.analysis.studyNames(options.run).at(-1));
  if (options.study === undefined && options.run !== undefined && study === undefined)
    throw new InputError(`run ${options.run} has no analysis study to resume: start one with pmiyc analyze --run ${options.run} --judge MODEL`);
  const { run, config } = analysisToResume(store, { ...(study === undefined ? {} : { study }), flags: await typedResumeFlags(options) });
  const path = options.config ?? config.configPath;
  // --batch given now batches the rest; a study started with it keeps batching.
  const design = options.batch ? { ...config.design, batch: true } : config.design;
  return { name: run.name, design, seed: run.seed, tournamentRun: config.tournamentRun, ...(path ? { configPath: path } : {}) };
}
