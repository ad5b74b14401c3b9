import type { StanceGroupResult } from '../../metrics/group-tally.js';
import { STANCE_GROUPS } from '../../metrics/stance-groups.js';
import { CHART_CONFIG, type ChartSpec, conditionLabel, conditionScale } from './chart-theme.js';

const GROUP_TITLES: Record<string, string> = { opposing: 'Opposing (1-2)', neutral: 'Neutral (3)', supporting: 'Supporting (4-5)' };

/** Figure 7: mean NC by the persuader's own stance on the claim, per condition, with intervals. */
export function stanceChart(groups: readonly StanceGroupResult[]): ChartSpec {
  const values = groups
    .filter((group) => group.n > 0)
    .map((group) => ({
      group: GROUP_TITLES[group.group],
      condition: conditionLabel(group.domain, group.setting),
      meanNC: group.meanNC,
      ciLow: Number.isFinite(group.ciLow) ? group.ciLow : group.meanNC,
      ciHigh: Number.isFinite(group.ciHigh) ? group.ciHigh : group.meanNC,
      n: group.n,
    }));
  const scale = conditionScale(groups.filter((group) => group.n > 0));
  const order = STANCE_GROUPS.map((group) => GROUP_TITLES[group]!);
  return {
    id: 'stance-groups',
    title: "Mean normalized change by the persuader's own stance on the claim",
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      config: CHART_CONFIG,
      title: { text: 'Does a persuader do better when it agrees?', subtitle: "Mean NC by the persuader's own opening score on the claim, with 95% intervals." },
      data: { values },
      width: { step: 30 },
      height: 240,
      encoding: {
        x: {
          field: 'group',
          type: 'nominal',
          sort: order,
          title: "Persuader's own stance",
          scale: { paddingInner: 0.3, paddingOuter: 0.15 },
          axis: { labelAngle: 0 },
        },
        xOffset: { field: 'condition', type: 'nominal', sort: scale.domain },
      },
      layer: [
        {
          mark: { type: 'bar', cornerRadiusTopLeft: 2, cornerRadiusTopRight: 2 },
          encoding: {
            y: { field: 'meanNC', type: 'quantitative', title: 'Mean NC' },
            color: { field: 'condition', type: 'nominal', title: null, scale, legend: { orient: 'top', direction: 'horizontal', labelLimit: 260 } },
          },
        },
        {
          mark: { type: 'errorbar', ticks: { size: 6, color: '#1f2430' }, rule: { color: '#1f2430', strokeWidth: 1.2 } },
          encoding: { y: { field: 'ciLow', type: 'quantitative', title: 'Mean NC' }, y2: { field: 'ciHigh' } },
        },
      ],
    },
  };
}
