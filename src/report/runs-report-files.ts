import { join } from 'node:path';
import { buildReportFiles, type ReportFile } from './build-report-files.js';
import { isProtocolRunsDocument } from './report-document.js';
import type { ReportFormat } from './report-formats.js';
import type { RunsReport } from './runs-report.js';
import { defaultReportFolder, type WrittenReport } from './texts/report-written-text.js';

/**
 * The files of a runs report in the formats asked, placed in `out` (default `defaultReportFolder`,
 * named after the runs and the `--compare` baseline), and what `reportWrittenText` says of them once
 * they are written.
 */
export async function runsReportFiles(
  report: RunsReport,
  formats: readonly ReportFormat[],
  out: string | undefined,
  baseline: string | undefined,
): Promise<{ readonly files: ReportFile[]; readonly written: WrittenReport }> {
  const { runs, document, conversations, duplicates, comparisonNote } = report;
  const folder = out ?? defaultReportFolder(runs, baseline);
  const files = (await buildReportFiles(document, formats)).map((file) => ({ path: join(folder, file.path), content: file.content }));
  const disputedConversations = isProtocolRunsDocument(document) ? 0 : (document.imported?.disputedConversations ?? 0);
  const paths = files.map((file) => file.path);
  return { files, written: { folder, files: paths, conversations, duplicates, disputedConversations, ...(comparisonNote ? { comparisonNote } : {}) } };
}
