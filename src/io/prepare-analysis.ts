import { resolve } from 'node:path';
import { InputError } from '../domain/errors/input-error.js';
import type { RunRecords } from '../runner/run-records.js';
import {
  type AnalysisDesign,
  type AnalysisDesignOptions,
  analysisDesignFromOptions,
  analysisToResume,
  DEFAULT_TAXONOMY,
} from '../studies/analysis/analysis-design.js';
import type { AnalysisResults } from '../studies/analysis/analysis-results.js';
import { loadTaxonomy } from './load-taxonomy.js';

/** What an analysis session runs: a new study's design from its options, or a stored study's own. */
export interface PreparedAnalysis {
  /** The study's name: given, or the stored study's; a new study without one is named analysis-N. */
  readonly name?: string;
  readonly design: AnalysisDesign;
  readonly seed: number;
  /** The tournament run to read: given (--run), the stored study's, or (undefined) the latest tournament. */
  readonly tournamentRun?: string;
  readonly configPath?: string;
}

/** What names an analysis study on the command line. */
interface StudyNames {
  readonly seed: number;
  readonly study?: string;
  readonly run?: string;
  readonly config?: string;
  readonly taxonomy?: string;
  readonly batch?: boolean;
}

/** A new study's design, its taxonomy read and checked before any store is opened: bad input leaves nothing behind. */
export async function prepareNewAnalysis(options: AnalysisDesignOptions & StudyNames): Promise<PreparedAnalysis> {
  const name = options.taxonomy ?? DEFAULT_TAXONOMY;
  const loaded = await loadTaxonomy(name);
  const source = loaded.source === 'built in' ? name : resolve(name);
  const design = analysisDesignFromOptions(options, loaded.taxonomy, source);
  return {
    design: options.batch ? { ...design, batch: true } : design,
    seed: options.seed,
    ...(options.study ? { name: options.study } : {}),
    ...(options.run ? { tournamentRun: options.run } : {}),
    ...(options.config ? { configPath: resolve(options.config) } : {}),
  };
}

/**
 * The stored study `--resume` continues: named with --study, else the latest study of --run, else the
 * latest study; its own design and seed, and the config it was run with unless one is given now.
 */
export function prepareAnalysisResume(
  store: Pick<RunRecords, 'findRun' | 'latestRunOf' | 'location'> & { readonly analysis: Pick<AnalysisResults, 'studyNames'> },
  options: Parameters<typeof analysisToResume>[1] & StudyNames,
): PreparedAnalysis {
  const study = options.study ?? (options.run === undefined ? undefined : store.analysis.studyNames(options.run).at(-1));
  if (options.study === undefined && options.run !== undefined && study === undefined)
    throw new InputError(`run ${options.run} has no analysis study to resume: start one with pmiyc analyze --run ${options.run} --judge MODEL`);
  const { run, config } = analysisToResume(store, { ...options, ...(study === undefined ? {} : { study }) });
  const path = options.config ?? config.configPath;
  // --batch given now batches the rest; a study started with it keeps batching.
  const design = options.batch ? { ...config.design, batch: true } : config.design;
  return { name: run.name, design, seed: run.seed, tournamentRun: config.tournamentRun, ...(path ? { configPath: path } : {}) };
}
