import type { Setting } from '../../domain/conversation.js';
import type { ModelLabels } from '../model-labels.js';
import { protocolChartSpecs } from '../protocols/protocol-charts.js';
import type { ReportDocument } from '../report-document.js';
import { driftChartSpecs } from '../sections/drift-section.js';
import { peopleChartSpecs } from '../sections/people-section.js';
import { annotationChartSpecs } from '../studies/annotation-section.js';
import { judgeAccuracyChart } from '../studies/judge-chart.js';
import { analysisChartSpecs } from '../studies/techniques-section.js';
import { conditionsOf, modelsOf } from '../tables/report-tables.js';
import type { ChartSpec } from './chart-theme.js';
import { initialScoresChart } from './initial-scores-chart.js';
import { modelBarsChart } from './model-bars.js';
import { pairHeatmapChart } from './pair-heatmap.js';
import { stanceChart } from './stance-chart.js';
import { turnCurvesChart } from './turn-curves-chart.js';

const SETTINGS: readonly Setting[] = ['single', 'multi'];

function modelCharts(document: ReportDocument, labels: ModelLabels): ChartSpec[] {
  const bars = (id: string, title: string, subtitle: string, axisTitle: string, results: ReportDocument['effectiveness']) =>
    results.length === 0 ? [] : [modelBarsChart({ id, title, subtitle, axisTitle, results, models: modelsOf(results) }, labels)];
  const interval = '95% intervals over claims.';
  return [
    ...bars(
      'effectiveness',
      'Effectiveness as persuader',
      `Mean over persuadees of the pair means of NC. ${interval}`,
      'Effectiveness (mean NC)',
      document.effectiveness,
    ),
    ...bars(
      'susceptibility',
      'Susceptibility as persuadee',
      `Mean over persuaders of the pair means of NC. ${interval}`,
      'Susceptibility (mean NC)',
      document.susceptibility,
    ),
    ...bars(
      'effectiveness-absolute',
      'Effectiveness on absolute change',
      `The same on st - s0 (scale points) instead of NC. ${interval}`,
      'Mean absolute change',
      document.absoluteChange.effectiveness,
    ),
    ...bars(
      'susceptibility-absolute',
      'Susceptibility on absolute change',
      `The same on st - s0 (scale points) instead of NC. ${interval}`,
      'Mean absolute change',
      document.absoluteChange.susceptibility,
    ),
  ];
}

/**
 * Every chart of the report, in reading order. Ids are stable file names: `effectiveness`,
 * `susceptibility` (and `-absolute`), `nc-matrix-<domain>-<setting>`, `turn-curves-<setting>`,
 * `stance-groups`, `initial-scores-<domain>`; with an analysis study, `ethics-effectiveness`; a protocol
 * section's, `<section anchor>-<its id>`.
 */
export function reportChartSpecs(document: ReportDocument, labels: ModelLabels): ChartSpec[] {
  const matrices = conditionsOf(document)
    .map((condition) => document.pairs.filter((pair) => pair.domain === condition.domain && pair.setting === condition.setting))
    .filter((pairs) => pairs.length > 0)
    .map((pairs) => pairHeatmapChart(pairs, labels));
  const curves = SETTINGS.map((setting) => document.turnCurves.filter((curve) => curve.setting === setting))
    .filter((list) => list.length > 0)
    .map((list) => turnCurvesChart(list[0]!.setting, list, labels));
  const stance = document.stanceGroups.some((group) => group.n > 0) ? [stanceChart(document.stanceGroups)] : [];
  const openings = (['subjective', 'misinformation'] as const)
    .map((domain) => ({ domain, list: document.initialScores.filter((entry) => entry.domain === domain) }))
    .filter(({ list }) => list.length > 0)
    .map(({ domain, list }) => initialScoresChart(domain, list, labels));
  return [
    ...modelCharts(document, labels),
    ...matrices,
    ...curves,
    ...stance,
    ...openings,
    ...annotationChartSpecs(document.studies.reliability),
    ...(document.studies.judge ? [judgeAccuracyChart(document.studies.judge, labels)] : []),
    ...analysisChartSpecs(document, labels),
    ...driftChartSpecs(document.drift, labels),
    ...peopleChartSpecs(document.people, labels),
    ...protocolChartSpecs(document.protocols ?? [], labels),
  ];
}
