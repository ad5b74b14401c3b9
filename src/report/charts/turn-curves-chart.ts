import type { Setting } from '../../domain/conversation.js';
import type { TurnCurve } from '../../metrics/turn-curves.js';
import type { ModelLabels } from '../model-labels.js';
import { CHART_CONFIG, type ChartSpec } from './chart-theme.js';

/** "1 (initial)", "3", ..., "9 (final)". */
function turnLabelExpression(finalTurn: number): string {
  return `datum.value === 1 ? '1 (initial)' : datum.value === ${finalTurn} ? '${finalTurn} (final)' : '' + datum.value`;
}

/**
 * Figure 6: the mean persuadee score at each persuadee turn, one line per persuader, solid for
 * subjective and dashed for misinformation claims. Early-stopped conversations count as 5 up to
 * the final decision, which is always their real final score.
 */
export function turnCurvesChart(setting: Setting, curves: readonly TurnCurve[], labels: ModelLabels): ChartSpec {
  const values = curves.flatMap((curve) =>
    curve.points.map((point) => ({ persuader: labels.text(curve.persuader), domain: curve.domain, turn: point.turn, meanScore: point.meanScore, n: point.n })),
  );
  const finalTurn = Math.max(...curves.map((curve) => curve.turnsPlanned));
  const turns = [...new Set(values.map((value) => value.turn))].sort((a, b) => a - b);
  return {
    id: `turn-curves-${setting}`,
    title: `Mean persuadee agreement at each persuadee turn, ${setting}-turn conversations`,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      config: CHART_CONFIG,
      title: {
        text: `Agreement over the conversation: ${setting}-turn`,
        subtitle: 'Mean persuadee score per persuader. Solid: subjective, dashed: misinformation. Early stops count as 5 until the final decision.',
      },
      data: { values },
      width: Math.max(360, 90 * turns.length),
      height: 260,
      encoding: {
        x: { field: 'turn', type: 'ordinal', sort: turns, title: 'Persuadee turn', axis: { labelAngle: 0, labelExpr: turnLabelExpression(finalTurn) } },
        y: { field: 'meanScore', type: 'quantitative', title: 'Mean agreement (1-5)', scale: { domain: [1, 5] }, axis: { values: [1, 2, 3, 4, 5] } },
        color: {
          field: 'persuader',
          type: 'nominal',
          title: 'Persuader',
          scale: { scheme: 'tableau10' },
          legend: { orient: 'right', labelLimit: 260, symbolType: 'stroke', symbolStrokeWidth: 3, symbolSize: 400 },
        },
      },
      layer: [
        {
          mark: { type: 'line', strokeWidth: 2.2 },
          encoding: {
            strokeDash: {
              field: 'domain',
              type: 'nominal',
              title: 'Claims',
              scale: {
                domain: ['subjective', 'misinformation'],
                range: [
                  [1, 0],
                  [6, 4],
                ],
              },
              legend: { symbolType: 'stroke', symbolSize: 400, encoding: { symbols: { update: { stroke: { value: '#1f2430' }, strokeWidth: { value: 2 } } } } },
            },
          },
        },
        { mark: { type: 'point', filled: true, size: 46 } },
      ],
    },
  };
}
