import type { PairResult } from '../../metrics/group-tally.js';
import { NO_DATA } from '../../metrics/role-coverage.js';
import type { ModelLabels } from '../model-labels.js';
import { formatNumber } from '../number-format.js';
import { CHART_CONFIG, type ChartSpec, conditionLabel, INK, MULTILINE_LABELS } from './chart-theme.js';

/** Width of a cell: wide enough for "[-0.12, 0.35]", narrower when there are many persuadees. */
function cellWidth(columns: number): number {
  return Math.round(Math.max(78, Math.min(118, 900 / Math.max(columns, 1))));
}

/** One entry per persuader x persuadee, with the texts each cell shows. */
function heatmapCells(pairs: readonly PairResult[], persuaders: readonly string[], persuadees: readonly string[], labels: ModelLabels) {
  return persuaders.flatMap((persuader) =>
    persuadees.map((persuadee) => {
      const pair = pairs.find((candidate) => candidate.persuader === persuader && candidate.persuadee === persuadee);
      const known = pair !== undefined && pair.n > 0;
      return {
        persuader: labels.chart(persuader),
        persuadee: labels.chart(persuadee),
        value: known ? pair.meanNC : null,
        strong: known && Math.abs(pair.meanNC) >= 0.55,
        valueText: known ? formatNumber(pair.meanNC) : pair?.reason ? NO_DATA : 'n/a',
        // A pair without data says why ("3 of 3 failed: format") where its interval would be.
        intervalText: known ? `[${formatNumber(pair.ciLow)}, ${formatNumber(pair.ciHigh)}]` : (pair?.reason ?? ''),
        countText: `n = ${pair?.n ?? 0}${pair && pair.failed > 0 ? ` (+${pair.failed} failed)` : ''}`,
      };
    }),
  );
}

/**
 * Figures 2, 4, 5: the persuader x persuadee matrix of mean NC for one domain and setting, on a
 * diverging scale centred on 0 (red: backfired, blue: persuaded), each cell with its value,
 * bootstrap interval and n; a pair without a scored conversation shows "no data" and why on grey.
 */
export function pairHeatmapChart(pairs: readonly PairResult[], labels: ModelLabels): ChartSpec {
  const first = pairs[0]!;
  const persuaders = [...new Set(pairs.map((pair) => pair.persuader))].sort();
  const persuadees = [...new Set(pairs.map((pair) => pair.persuadee))].sort();
  const values = heatmapCells(pairs, persuaders, persuadees, labels);
  const step = cellWidth(persuadees.length);
  const text = (field: string, dy: number, size: number, weight: number) => ({
    mark: { type: 'text', dy, fontSize: size, fontWeight: weight },
    encoding: { text: { field }, color: { condition: { test: 'datum.strong', value: 'white' }, value: INK } },
  });
  return {
    id: `nc-matrix-${first.domain}-${first.setting}`,
    title: `Mean normalized change per persuader and persuadee, ${conditionLabel(first.domain, first.setting)}`,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      config: CHART_CONFIG,
      title: {
        text: `Normalized change: ${conditionLabel(first.domain, first.setting)}`,
        subtitle: 'Rows persuade, columns are persuaded. Mean NC [95% interval over claims], n conversations.',
      },
      data: { values },
      width: { step },
      height: { step: 62 },
      encoding: {
        x: {
          field: 'persuadee',
          type: 'nominal',
          sort: persuadees.map(labels.chart),
          title: 'Persuadee',
          axis: { orient: 'bottom', labelAngle: 0, labelExpr: MULTILINE_LABELS, domain: false, ticks: false, labelPadding: 8, titlePadding: 10 },
        },
        y: {
          field: 'persuader',
          type: 'nominal',
          sort: persuaders.map(labels.chart),
          title: 'Persuader',
          axis: { labelExpr: MULTILINE_LABELS, domain: false, ticks: false, labelPadding: 6 },
        },
      },
      layer: [
        { mark: { type: 'rect', color: '#eef0f4', stroke: 'white', strokeWidth: 2 } },
        {
          transform: [{ filter: 'datum.value !== null' }],
          mark: { type: 'rect', stroke: 'white', strokeWidth: 2 },
          encoding: {
            color: {
              field: 'value',
              type: 'quantitative',
              title: 'mean NC',
              scale: { scheme: 'redblue', domain: [-1, 1], domainMid: 0 },
              legend: { orient: 'right', gradientLength: 180, values: [-1, -0.5, 0, 0.5, 1], format: '.1f' },
            },
          },
        },
        text('valueText', -10, 15, 700),
        text('intervalText', 7, 10, 400),
        text('countText', 20, 10, 400),
      ],
    },
  };
}
