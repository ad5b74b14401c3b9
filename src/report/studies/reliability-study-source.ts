import { analyzeReliability, type ReliabilityAnalysis } from '../../metrics/agreement/annotation-agreement.js';
import type { BootstrapOptions } from '../../metrics/intervals/claim-cell-table.js';
import { chooseStudy } from '../../studies/chosen-study.js';
import type { StudyRun } from '../../studies/run-config.js';
import type { ReportSource } from '../report-source.js';

/**
 * The self-report reliability study of runs (`studies.reliability` of report.json): the labels
 * imported with `pmiyc annotate import`, compared with the models' own scores. Null when the runs
 * have no labels, so that the report leaves the section out.
 */
export function loadReliabilityStudy(store: ReportSource, runs: readonly StudyRun[], bootstrap: BootstrapOptions): ReliabilityAnalysis | null {
  const labelled = chooseStudy(store, { kind: 'annotation', runs, every: true });
  if (labelled.length === 0) return null;
  const rows = store.annotations.rows(labelled.map(({ study }) => study.id));
  return rows.length === 0 ? null : analyzeReliability(rows, bootstrap);
}
