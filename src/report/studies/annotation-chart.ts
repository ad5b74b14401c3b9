import { AGREEMENT_SCORES, agreementLabel } from '../../domain/agreement-score.js';
import type { ReliabilityAnalysis } from '../../metrics/agreement/annotation-agreement.js';
import { CHART_CONFIG, type ChartSpec, INK } from '../charts/chart-theme.js';

/** The chart's id: its SVG is `charts/self-report-confusion.svg`. */
export const CONFUSION_CHART_ID = 'self-report-confusion';

const scoreName = (score: number) => `${score} ${agreementLabel(score as 1 | 2 | 3 | 4 | 5)}`;

/**
 * Figure 8: labels counted by the model's self-reported score (rows) and the annotator's label
 * (columns) on a sequential scale; the diagonal, where they agree, is outlined. Each cell shows
 * its count and its share of the row (how annotators read turns the model scored that way).
 */
export function confusionChart(study: ReliabilityAnalysis): ChartSpec {
  const names = AGREEMENT_SCORES.map(scoreName);
  const max = Math.max(1, ...study.confusion.flat());
  const values = AGREEMENT_SCORES.flatMap((model) => {
    const row = study.confusion[model - 1]!;
    const rowTotal = row.reduce((sum, count) => sum + count, 0);
    return AGREEMENT_SCORES.map((annotator) => {
      const count = row[annotator - 1]!;
      return {
        model: scoreName(model),
        annotator: scoreName(annotator),
        count,
        diagonal: model === annotator,
        strong: count / max >= 0.55,
        countText: String(count),
        shareText: rowTotal === 0 || count === 0 ? '' : `${Math.round((count / rowTotal) * 100)}% of row`,
      };
    });
  });
  const text = (field: string, dy: number, size: number, weight: number) => ({
    mark: { type: 'text', dy, fontSize: size, fontWeight: weight },
    encoding: { text: { field }, color: { condition: { test: 'datum.strong', value: 'white' }, value: INK } },
  });
  return {
    id: CONFUSION_CHART_ID,
    title: 'Persuadee self-reported score against the annotators\u2019 labels',
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      config: CHART_CONFIG,
      title: {
        text: 'Self-report against human labels',
        subtitle: `Labels per (model score, annotator label); the outlined diagonal is exact agreement. ${study.labels} labels.`,
      },
      data: { values },
      width: { step: 112 },
      height: { step: 52 },
      encoding: {
        // "1 Completely Oppose" one word a line, so that no label is cut short.
        x: {
          field: 'annotator',
          type: 'ordinal',
          sort: names,
          title: 'Annotator label',
          axis: { orient: 'bottom', labelAngle: 0, labelExpr: "split(datum.label, ' ')", domain: false, ticks: false, labelPadding: 8 },
        },
        y: { field: 'model', type: 'ordinal', sort: names, title: 'Model self-report', axis: { domain: false, ticks: false, labelPadding: 6 } },
      },
      layer: [
        {
          mark: { type: 'rect', stroke: 'white', strokeWidth: 2 },
          encoding: {
            color: {
              field: 'count',
              type: 'quantitative',
              title: 'labels',
              scale: { scheme: 'blues', domain: [0, max] },
              legend: { orient: 'right', gradientLength: 160 },
            },
          },
        },
        { transform: [{ filter: 'datum.diagonal' }], mark: { type: 'rect', fillOpacity: 0, stroke: INK, strokeWidth: 2 } },
        text('countText', -6, 15, 700),
        text('shareText', 11, 10, 400),
      ],
    },
  };
}
