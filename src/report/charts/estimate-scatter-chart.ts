import type { ProtocolEstimateCell, ProtocolEstimateScatter } from '../../studies/protocol-outputs.js';
import type { ModelLabels } from '../model-labels.js';
import { CHART_CONFIG, type ChartSpec, INK } from './chart-theme.js';

/**
 * A protocol's estimate scatter (`ProtocolEstimateScatter`) as a Vega-Lite spec: each point at its two estimates,
 * a horizontal bar over the x interval and a vertical bar over the y interval, the label beside it. Numbers are
 * written at full precision into each mark's accessible label (`numberFormat: ''`), so the SVG says what it drew.
 */

const isShown = (cell: ProtocolEstimateCell) => cell.reason === undefined && Number.isFinite(cell.estimate);
const low = (cell: ProtocolEstimateCell) => (Number.isFinite(cell.ciLow) ? cell.ciLow : cell.estimate);
const high = (cell: ProtocolEstimateCell) => (Number.isFinite(cell.ciHigh) ? cell.ciHigh : cell.estimate);

const quantity = (field: string) => ({ field, type: 'quantitative', scale: { zero: false } });

export function estimateScatterChart(id: string, chart: ProtocolEstimateScatter, labels: ModelLabels): ChartSpec {
  const values = chart.points
    .filter((point) => isShown(point.x) && isShown(point.y))
    .map((point) => ({
      label: typeof point.label === 'string' ? point.label : labels.chart(point.label.model),
      x: point.x.estimate,
      xLow: low(point.x),
      xHigh: high(point.x),
      y: point.y.estimate,
      yLow: low(point.y),
      yHigh: high(point.y),
    }));
  const bar = { type: 'rule', color: INK, strokeWidth: 1.2 };
  return {
    id,
    title: chart.title,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      config: { ...CHART_CONFIG, numberFormat: '' },
      title: chart.subtitle === undefined ? chart.title : { text: chart.title, subtitle: chart.subtitle },
      data: { values },
      width: 480,
      height: 320,
      layer: [
        { mark: bar, encoding: { x: quantity('xLow'), x2: { field: 'xHigh' }, y: quantity('y'), detail: { field: 'label' } } },
        { mark: bar, encoding: { y: quantity('yLow'), y2: { field: 'yHigh' }, x: quantity('x'), detail: { field: 'label' } } },
        {
          mark: { type: 'point', filled: true, size: 60, color: '#2b6cb0' },
          encoding: {
            x: { ...quantity('x'), axis: { title: chart.xTitle } },
            y: { ...quantity('y'), axis: { title: chart.yTitle } },
            detail: { field: 'label' },
          },
        },
        {
          mark: { type: 'text', align: 'left', dx: 6, dy: -6, fontSize: 10, color: '#5b6170', lineBreak: '\n', aria: false },
          encoding: { x: quantity('x'), y: quantity('y'), text: { field: 'label' } },
        },
      ],
    },
  };
}
