import { InputError } from '../../domain/errors/input-error.js';
import type { StudyRun } from '../run-config.js';
import { type AnalysisConfig, analysisConfigOf } from './analysis-design.js';
import type { AnalysisResults } from './analysis-results.js';

/** The analysis study whose labels a viewer or `pmiyc show` uses for a tournament run, with its design. */
export interface ChosenStudy {
  readonly name: string;
  readonly runId: number;
  readonly config: AnalysisConfig;
  /** Every analysis study of the tournament run, oldest first. */
  readonly studies: readonly string[];
}

/**
 * The analysis study to read a tournament run's labels from: the one asked for, or else the run's
 * latest; undefined when the run has none. Asking for a name that is not one of the run's studies
 * is an InputError that lists them.
 */
export function chooseStudy(
  source: { findRun(name: string): StudyRun; readonly analysis: Pick<AnalysisResults, 'studyNames'> },
  tournamentRun: string,
  asked: string | undefined,
): ChosenStudy | undefined {
  const studies = source.analysis.studyNames(tournamentRun);
  if (asked !== undefined && !studies.includes(asked)) {
    throw new InputError(
      studies.length === 0
        ? `run ${tournamentRun} has no analysis study (so no analysis ${asked}): make one with pmiyc analyze --run ${tournamentRun}`
        : `${asked} is not an analysis study of run ${tournamentRun}: its studies are ${studies.join(', ')}`,
    );
  }
  const name = asked ?? studies.at(-1);
  if (name === undefined) return undefined;
  const run = source.findRun(name);
  return { name, runId: run.id, config: analysisConfigOf(name, run.config), studies };
}
