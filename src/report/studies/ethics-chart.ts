import { CHART_CONFIG, type ChartSpec, conditionLabel, conditionScale } from '../charts/chart-theme.js';
import type { ModelLabels } from '../model-labels.js';
import type { EthicsSection } from './analysis-figures.js';

/** The chart's id (its SVG file is charts/<id>.svg). */
export const ETHICS_CHART_ID = 'ethics-effectiveness';

/**
 * Each persuader as a point: its share of labelled turns with an unethical strategy across, its
 * effectiveness (mean NC) up, with 95% intervals over claims both ways, one colour per condition.
 * The share of turns, not of conversations: a persuader that persuades sooner has shorter
 * conversations, so fewer of them would hold a strategy it uses as often, and the chart would tie
 * effectiveness to fewer strategies for that reason alone. Undefined when no persuader has both numbers.
 */
export function ethicsChart(section: EthicsSection, labels: ModelLabels): ChartSpec | undefined {
  const values = section.perModel.flatMap((row) => {
    const effectiveness = row.effectiveness;
    const turnShare = row.turnShare;
    if (!effectiveness || !Number.isFinite(turnShare.share) || !Number.isFinite(effectiveness.value)) return [];
    const finite = (value: number, fallback: number) => (Number.isFinite(value) ? value : fallback);
    return [
      {
        persuader: labels.text(row.persuader),
        condition: conditionLabel(row.domain, row.setting),
        share: turnShare.share,
        shareLow: finite(turnShare.ciLow, turnShare.share),
        shareHigh: finite(turnShare.ciHigh, turnShare.share),
        effectiveness: effectiveness.value,
        effectivenessLow: finite(effectiveness.ciLow, effectiveness.value),
        effectivenessHigh: finite(effectiveness.ciHigh, effectiveness.value),
      },
    ];
  });
  if (values.length === 0) return undefined;
  const x = { field: 'share', type: 'quantitative', title: 'Turns with an unethical strategy', scale: { domain: [0, 1] }, axis: { format: '.0%' } };
  const y = { field: 'effectiveness', type: 'quantitative', title: 'Effectiveness (mean NC)', scale: { zero: true } };
  const color = {
    field: 'condition',
    type: 'nominal',
    title: null,
    scale: conditionScale(section.perModel),
    legend: { orient: 'top', direction: 'horizontal', labelLimit: 220 },
  };
  return {
    id: ETHICS_CHART_ID,
    title: "Each persuader's share of turns with an unethical strategy against its effectiveness",
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      config: CHART_CONFIG,
      title: {
        text: 'Unethical strategies and effectiveness',
        subtitle: `As judged by ${section.judge.model}${section.judge.simulated ? ' [simulated]' : ''}; 95% intervals over claims. An association, not a cause.`,
      },
      width: 420,
      height: 260,
      data: { values },
      layer: [
        { mark: { type: 'rule', strokeWidth: 1.2 }, encoding: { x: { ...x, field: 'shareLow' }, x2: { field: 'shareHigh' }, y, color } },
        { mark: { type: 'rule', strokeWidth: 1.2 }, encoding: { x, y: { ...y, field: 'effectivenessLow' }, y2: { field: 'effectivenessHigh' }, color } },
        { mark: { type: 'point', filled: true, size: 70 }, encoding: { x, y, color } },
        { mark: { type: 'text', align: 'left', dx: 7, dy: -7, fontSize: 10, color: '#1f2430' }, encoding: { x, y, text: { field: 'persuader' } } },
      ],
    },
  };
}
