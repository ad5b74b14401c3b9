import type { ModelResult } from '../../metrics/group-tally.js';
import { NO_DATA } from '../../metrics/role-coverage.js';
import type { ModelLabels } from '../model-labels.js';
import { CHART_CONFIG, type ChartSpec, conditionLabel, conditionScale, MULTILINE_LABELS } from './chart-theme.js';

export interface ModelBarsInput {
  readonly id: string;
  readonly title: string;
  readonly subtitle: string;
  readonly axisTitle: string;
  readonly results: readonly ModelResult[];
  /** Models in display order. */
  readonly models: readonly string[];
}

/**
 * Figure 3: one bar per model and condition (single/multi-turn x subjective/misinformation side by
 * side), with the bootstrap interval as an error bar. A model without data in a condition (a row
 * with a `reason`) keeps its place on the axis with "no data" written where its bar would be; a
 * condition the model was never in has no bar.
 */
export function modelBarsChart(input: ModelBarsInput, labels: ModelLabels): ChartSpec {
  const values = input.results
    .filter((result) => Number.isFinite(result.value))
    .map((result) => ({
      model: labels.chart(result.model),
      condition: conditionLabel(result.domain, result.setting),
      value: result.value,
      ciLow: Number.isFinite(result.ciLow) ? result.ciLow : result.value,
      ciHigh: Number.isFinite(result.ciHigh) ? result.ciHigh : result.value,
    }));
  const withoutData = input.results
    .filter((result) => !Number.isFinite(result.value) && result.reason !== null)
    .map((result) => ({ model: labels.chart(result.model), condition: conditionLabel(result.domain, result.setting), zero: 0, noData: NO_DATA }));
  const scale = conditionScale(input.results);
  const x = {
    field: 'model',
    type: 'nominal',
    sort: input.models.map(labels.chart),
    title: null,
    scale: { paddingInner: 0.3, paddingOuter: 0.15 },
    axis: { labelAngle: 0, labelExpr: MULTILINE_LABELS, labelPadding: 8 },
  };
  const offset = { field: 'condition', type: 'nominal', sort: scale.domain };
  return {
    id: input.id,
    title: input.title,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      config: CHART_CONFIG,
      title: { text: input.title, subtitle: input.subtitle },
      data: { values: [...values, ...withoutData] },
      // With an offset channel the step is one bar, not one model.
      width: { step: 26 },
      height: 240,
      encoding: { x, xOffset: offset },
      layer: [
        {
          transform: [{ filter: 'datum.noData == null' }],
          mark: { type: 'bar', cornerRadiusTopLeft: 2, cornerRadiusTopRight: 2 },
          encoding: {
            y: { field: 'value', type: 'quantitative', title: input.axisTitle, axis: { tickCount: 6 } },
            color: { field: 'condition', type: 'nominal', title: null, scale, legend: { orient: 'top', direction: 'horizontal', labelLimit: 260 } },
          },
        },
        {
          transform: [{ filter: 'datum.noData != null' }],
          mark: { type: 'text', angle: 270, align: 'left', dx: 4, fontSize: 10, color: '#5b6170' },
          encoding: { y: { field: 'zero', type: 'quantitative', title: input.axisTitle }, text: { field: 'noData' } },
        },
        {
          transform: [{ filter: 'datum.noData == null' }],
          mark: { type: 'errorbar', ticks: { size: 6, color: '#1f2430' }, rule: { color: '#1f2430', strokeWidth: 1.2 } },
          encoding: { y: { field: 'ciLow', type: 'quantitative', title: input.axisTitle }, y2: { field: 'ciHigh' } },
        },
      ],
    },
  };
}
