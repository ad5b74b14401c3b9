import { analyzeReliability, type ReliabilityAnalysis } from '../metrics/annotation-agreement.js';
import type { BootstrapOptions } from '../metrics/claim-cell-table.js';
import { AnnotationTable } from '../store/annotation-table.js';
import type { ResultStore } from '../store/result-store.js';

/**
 * The self-report reliability study of runs (`studies.reliability` of report.json): the labels
 * imported with `pmiyc annotate import`, compared with the models' own scores. Null when the runs
 * have no labels, so that the report leaves the section out.
 */
export function loadReliabilityStudy(store: ResultStore, runIds: readonly number[], bootstrap: BootstrapOptions): ReliabilityAnalysis | null {
  const rows = new AnnotationTable(store.sqlite).rows(runIds);
  return rows.length === 0 ? null : analyzeReliability(rows, bootstrap);
}
