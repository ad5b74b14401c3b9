import type { DriftEstimate } from '../../metrics/techniques/drift.js';
import type { ChartSpec } from '../charts/chart-theme.js';
import { conditionLabel } from '../charts/chart-theme.js';
import { modelBarsChart } from '../charts/model-bars.js';
import type { RenderedChart } from '../charts/render-svg.js';
import { type CsvColumn, csvTable } from '../csv/csv-table.js';
import { figureHtml, sectionHtml, tableHtml } from '../html/html-blocks.js';
import type { SafeHtml } from '../html/safe-html.js';
import { escapeMarkdown, markdownTable } from '../markdown/markdown-text.js';
import type { ModelLabels } from '../model-labels.js';
import type { EstimateCell, ReportTable } from '../tables/report-tables.js';
import type { DriftReport } from './drift-report.js';

/** The section's id (its anchor and contents entry) and its chart's id. */
export const DRIFT_SECTION_ID = 'drift';
export const DRIFT_CHART_ID = 'drift';

const driftCell = (row: DriftEstimate): EstimateCell => ({ estimate: row.drift, ciLow: row.ciLow, ciHigh: row.ciHigh, n: row.conversations, thin: row.thin });
const awayCell = (row: DriftEstimate): EstimateCell => ({
  estimate: row.movedAway,
  ciLow: row.movedAwayCiLow,
  ciHigh: row.movedAwayCiHigh,
  n: row.conversations,
  thin: row.thin,
});

/** One row per condition and persuader (or pair): drift, the share that moved away, and the probes without a usable answer or not asked. */
function driftTable(rows: readonly DriftEstimate[], pairs: boolean): ReportTable {
  return {
    header: [
      'condition',
      'persuader',
      ...(pairs ? ['persuadee'] : []),
      'drift, scale points (n = conversations)',
      'moved away from the claim (n = conversations)',
      'probe unusable',
      'probe missing',
    ],
    rows: rows.map((row) => [
      conditionLabel(row.domain, row.setting),
      { model: row.persuader },
      ...(pairs ? [{ model: row.persuadee ?? '' }] : []),
      driftCell(row),
      awayCell(row),
      row.unusable,
      row.missing,
    ]),
  };
}

function sourceText(report: DriftReport): string {
  return report.sources
    .map((entry) =>
      entry.source === 'run' ? `run ${entry.run}: its own records (pmiyc run --probe-drift)` : `run ${entry.run}: analysis study ${entry.study}`,
    )
    .join('; ');
}

function introText(report: DriftReport): string {
  const { counts } = report;
  return (
    "Drift is how far a persuader's own agreement with the claim moved during a conversation: its answer when asked, after the conversation and with it in context, " +
    'where it stands now, minus its stance before (its opening as a persuadee on the claim), in scale points from -4 to 4. Negative: it moved away from the claim it argued for ' +
    '(paper Sec. 5.3 observes persuaders being persuaded). A persuader row is the mean over its persuadees of the pair means; ' +
    `${Math.round(report.intervals.confidence * 100)}% intervals over claims. ` +
    `${counts.usable - counts.withoutStance} of ${counts.completed} completed conversations have both scores; ${counts.unusable} probes gave no usable answer, ${counts.missing} were not asked. ` +
    `Limits: the probe is one question after the conversation, not a measurement of belief; a model may answer still in its role, or echo the side it argued; ` +
    `its stance was asked in another context (as a persuadee), so part of a drift can be the change of question. Probes from ${sourceText(report)}.`
  );
}

/** The section's chart: each persuader's drift per condition, with its interval. */
export function driftChartSpecs(report: DriftReport | undefined, labels: ModelLabels): ChartSpec[] {
  if (!report || report.perPersuader.every((row) => !Number.isFinite(row.drift))) return [];
  const results = report.perPersuader.map((row) => ({
    domain: row.domain,
    setting: row.setting,
    model: row.persuader,
    value: row.drift,
    ciLow: row.ciLow,
    ciHigh: row.ciHigh,
    n: row.conversations,
    pairs: 0,
    claims: row.claims,
    thin: row.thin,
    failed: 0,
    reason: null,
  }));
  return [
    modelBarsChart(
      {
        id: DRIFT_CHART_ID,
        title: "Persuaders' drift after their conversations",
        subtitle: 'Probe score after the conversation minus the stance before, in scale points; 95% intervals over claims.',
        axisTitle: 'Drift (scale points)',
        results,
        models: [...new Set(results.map((result) => result.model))].sort(),
      },
      labels,
    ),
  ];
}

/** The HTML section (`id="drift"`). */
export function driftSectionHtml(report: DriftReport, labels: ModelLabels, chart: RenderedChart | undefined): SafeHtml {
  return sectionHtml(DRIFT_SECTION_ID, 'Are persuaders persuaded?', 'paper Sec. 5.3', introText(report), [
    figureHtml(chart),
    tableHtml(driftTable(report.perPersuader, false), labels),
    tableHtml(driftTable(report.perPair, true), labels),
  ]);
}

/** The Markdown section; `image(id)` gives the chart's image line (or '' when there is none). */
export function driftSectionMarkdown(report: DriftReport, labels: ModelLabels, image: (id: string) => string): string {
  return [
    '## Are persuaders persuaded? (paper Sec. 5.3)',
    escapeMarkdown(introText(report)),
    image(DRIFT_CHART_ID),
    markdownTable(driftTable(report.perPersuader, false), labels),
    '### Per pair',
    markdownTable(driftTable(report.perPair, true), labels),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}

type DriftRow = DriftReport['perPersuader'][number] | DriftReport['perPair'][number];

/** drift.csv: one row per condition and persuader (persuadee empty) or pair. */
export function driftCsv(report: DriftReport, labels: ModelLabels): string {
  const columns: CsvColumn<DriftRow>[] = [
    { header: 'domain', value: (row) => row.domain },
    { header: 'setting', value: (row) => row.setting },
    { header: 'persuader', value: (row) => row.persuader },
    { header: 'persuadee', value: (row) => row.persuadee },
    { header: 'persuaderSimulated', value: (row) => labels.isSimulated(row.persuader) },
    { header: 'drift', value: (row) => row.drift },
    { header: 'ciLow', value: (row) => row.ciLow },
    { header: 'ciHigh', value: (row) => row.ciHigh },
    { header: 'p', value: (row) => row.p },
    { header: 'movedAway', value: (row) => row.movedAway },
    { header: 'movedAwayCiLow', value: (row) => row.movedAwayCiLow },
    { header: 'movedAwayCiHigh', value: (row) => row.movedAwayCiHigh },
    { header: 'conversations', value: (row) => row.conversations },
    { header: 'claims', value: (row) => row.claims },
    { header: 'thin', value: (row) => row.thin },
    { header: 'unusable', value: (row) => row.unusable },
    { header: 'missing', value: (row) => row.missing },
    { header: 'withoutStance', value: (row) => row.withoutStance },
    { header: 'source', value: () => report.source },
  ];
  return csvTable(columns, [...report.perPersuader, ...report.perPair]);
}
