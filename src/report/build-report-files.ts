import { reportJson } from './build-report-document.js';
import { renderCharts } from './charts/render-svg.js';
import { reportChartSpecs } from './charts/report-charts.js';
import { claimPairsCsv, claimsCsv, modelsCsv, pairsCsv } from './csv/csv-report.js';
import { htmlReport } from './html/html-report.js';
import { markdownReport } from './markdown/markdown-report.js';
import { createModelLabels } from './model-labels.js';
import { acrossProtocolsCsvFiles } from './protocols/across-protocols-section.js';
import { protocolChartSpecs } from './protocols/protocol-charts.js';
import { protocolCsvFiles } from './protocols/protocol-csv.js';
import { protocolRunsHtml, protocolRunsJson, protocolRunsMarkdown } from './protocols/protocol-runs-report.js';
import { sectionModels } from './protocols/protocol-sections.js';
import { isProtocolRunsDocument, type ProtocolRunsDocument, type ReportDocument } from './report-document.js';
import type { ReportFormat } from './report-formats.js';
import { driftCsv } from './sections/drift-section.js';
import { peopleCsv } from './sections/people-section.js';
import { analysisCsvFiles } from './studies/analysis-csv.js';

/** A file of the report, relative to its folder: its text, or (the per-claim CSVs) its text in chunks made as they are read. */
export interface ReportFile {
  readonly path: string;
  readonly content: string | Iterable<string>;
}

/**
 * The report's files, in memory: `index.html` (self-contained), `report.md` with `charts/*.svg`,
 * `report.json`, `pairs.csv`, `models.csv`, `claims.csv` and `claim-pairs.csv` (and an analysis study's CSV files), for the formats asked. Charts are rendered only
 * when HTML or Markdown is asked for. The two per-claim CSVs are generators, made only as they are
 * written (a full tournament's are tens of megabytes). Writing them is the caller's business. A protocol
 * run's section adds a CSV per table (`<run>.<table id>.csv`); a report of protocol runs alone has only
 * those, its HTML, Markdown (with the sections' charts) and JSON (docs/design/protocols.md, "Report").
 */
export async function buildReportFiles(document: ReportDocument | ProtocolRunsDocument, formats: readonly ReportFormat[]): Promise<ReportFile[]> {
  if (isProtocolRunsDocument(document)) return protocolRunsFiles(document, formats);
  // A protocol run's models are named in its section only: they are labelled from what the run recorded.
  const labels = createModelLabels([...document.meta.models, ...sectionModels(document.protocols ?? [])]);
  const wants = (format: ReportFormat) => formats.includes(format);
  const charts = wants('html') || wants('md') ? await renderCharts(reportChartSpecs(document, labels)) : [];
  const files: ReportFile[] = [];
  if (wants('html')) files.push({ path: 'index.html', content: htmlReport(document, labels, charts) });
  if (wants('md')) {
    files.push({ path: 'report.md', content: markdownReport(document, labels, charts) });
    for (const chart of charts) files.push({ path: `charts/${chart.id}.svg`, content: chart.svg });
  }
  if (wants('json')) files.push({ path: 'report.json', content: reportJson(document) });
  if (wants('csv')) {
    files.push({ path: 'pairs.csv', content: pairsCsv(document, labels) });
    files.push({ path: 'models.csv', content: modelsCsv(document, labels) });
    files.push({ path: 'claims.csv', content: claimsCsv(document, labels) });
    files.push({ path: 'claim-pairs.csv', content: claimPairsCsv(document, labels) });
    files.push(...analysisCsvFiles(document, labels));
    if (document.drift) files.push({ path: 'drift.csv', content: driftCsv(document.drift, labels) });
    if (document.people) files.push({ path: 'people.csv', content: peopleCsv(document.people, labels) });
    files.push(...protocolCsvFiles(document.protocols ?? [], labels));
    files.push(...acrossProtocolsCsvFiles(document.acrossProtocols, labels));
  }
  return files;
}

/** The files of a report of protocol runs alone: the sections' own charts only, and no tournament CSV. */
async function protocolRunsFiles(document: ProtocolRunsDocument, formats: readonly ReportFormat[]): Promise<ReportFile[]> {
  const labels = createModelLabels(document.meta.models);
  const markdown = formats.includes('md');
  const charts = formats.includes('html') || markdown ? await renderCharts(protocolChartSpecs(document.protocols, labels)) : [];
  return [
    ...(formats.includes('html') ? [{ path: 'index.html', content: protocolRunsHtml(document, labels, charts) }] : []),
    ...(markdown ? [{ path: 'report.md', content: protocolRunsMarkdown(document, labels, charts) }] : []),
    ...(markdown ? charts.map((chart) => ({ path: `charts/${chart.id}.svg`, content: chart.svg })) : []),
    ...(formats.includes('json') ? [{ path: 'report.json', content: protocolRunsJson(document) }] : []),
    ...(formats.includes('csv') ? [...protocolCsvFiles(document.protocols, labels), ...acrossProtocolsCsvFiles(document.acrossProtocols, labels)] : []),
  ];
}
