import { CHART_CONFIG, type ChartSpec, MULTILINE_LABELS } from '../charts/chart-theme.js';
import type { ModelLabels } from '../model-labels.js';
import { JUDGE_CHART_ID, type JudgeStudySection } from './judge-section.js';

const SUBSETS = { all: 'all pairs', large: 'difference > threshold' } as const;

/**
 * The judge study as bars: accuracy per judge on all pairs and on pairs whose difference exceeds
 * the threshold, with 95% intervals as error bars and a dashed rule at chance (0.5). Id
 * `judge-accuracy`.
 */
export function judgeAccuracyChart(section: JudgeStudySection, labels: ModelLabels): ChartSpec {
  const large = `difference > ${section.threshold}`;
  const values = section.judges.flatMap((judge) =>
    [
      { subset: SUBSETS.all, estimate: judge.overall },
      { subset: large, estimate: judge.largeDifference },
    ]
      .filter(({ estimate }) => Number.isFinite(estimate.value))
      .map(({ subset, estimate }) => ({
        judge: labels.chart(judge.model),
        subset,
        accuracy: estimate.value,
        ciLow: Number.isFinite(estimate.ciLow) ? estimate.ciLow : estimate.value,
        ciHigh: Number.isFinite(estimate.ciHigh) ? estimate.ciHigh : estimate.value,
      })),
  );
  const subsets = [SUBSETS.all, large];
  const y = { field: 'accuracy', type: 'quantitative', title: 'Accuracy', scale: { domain: [0, 1] }, axis: { format: '.0%', tickCount: 5 } };
  return {
    id: JUDGE_CHART_ID,
    title: 'Accuracy of judge models at picking the argument people found more persuasive',
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      config: CHART_CONFIG,
      title: {
        text: 'Can a model judge persuasiveness?',
        subtitle: 'Accuracy on pairs rated by people, with 95% intervals over claims; the dashed line is chance.',
      },
      width: { step: 26 },
      height: 220,
      layer: [
        {
          data: { values },
          encoding: {
            x: {
              field: 'judge',
              type: 'nominal',
              sort: section.judges.map((judge) => labels.chart(judge.model)),
              title: null,
              scale: { paddingInner: 0.3, paddingOuter: 0.15 },
              axis: { labelAngle: 0, labelExpr: MULTILINE_LABELS, labelPadding: 8 },
            },
            xOffset: { field: 'subset', type: 'nominal', sort: subsets },
          },
          layer: [
            {
              mark: { type: 'bar', cornerRadiusTopLeft: 2, cornerRadiusTopRight: 2 },
              encoding: {
                y,
                color: {
                  field: 'subset',
                  type: 'nominal',
                  title: null,
                  scale: { domain: subsets, range: ['#9ecae1', '#2b6cb0'] },
                  legend: { orient: 'top', direction: 'horizontal' },
                },
              },
            },
            {
              mark: { type: 'errorbar', ticks: { size: 6, color: '#1f2430' }, rule: { color: '#1f2430', strokeWidth: 1.2 } },
              encoding: { y: { ...y, field: 'ciLow' }, y2: { field: 'ciHigh' } },
            },
          ],
        },
        {
          data: { values: [{ chance: section.chance }] },
          mark: { type: 'rule', strokeDash: [4, 4], color: '#5b6170' },
          encoding: { y: { field: 'chance', type: 'quantitative' } },
        },
      ],
    },
  };
}
