import { AGREEMENT_SCORES, agreementLabel } from '../../domain/agreement-score.js';
import type { Domain } from '../../domain/claim.js';
import type { InitialScoreDistribution } from '../../metrics/initial-scores.js';
import type { ModelLabels } from '../model-labels.js';
import { formatNumber } from '../number-format.js';
import { CHART_CONFIG, type ChartSpec, SCORE_COLORS } from './chart-theme.js';

/** One entry per persuadee and score: its count and share of the persuadee's openings. */
function scoreShares(distributions: readonly InitialScoreDistribution[], rowLabel: (entry: InitialScoreDistribution) => string) {
  return distributions.flatMap((entry) =>
    AGREEMENT_SCORES.map((score) => ({
      persuadee: rowLabel(entry),
      score: `${score} ${agreementLabel(score)}`,
      order: score,
      count: entry.counts[`${score}`],
      share: entry.n === 0 ? 0 : entry.counts[`${score}`] / entry.n,
    })),
  );
}

/**
 * Appendix A: how each persuadee opened on the claims of one domain, as one bar of shares per
 * model from Completely Oppose (red) to Completely Support (blue), with counts in the segments.
 */
export function initialScoresChart(domain: Domain, distributions: readonly InitialScoreDistribution[], labels: ModelLabels): ChartSpec {
  const rowLabel = (entry: InitialScoreDistribution) => `${labels.text(entry.persuadee)}  (mean ${formatNumber(entry.mean)}, n = ${entry.n})`;
  const ordered = [...distributions].sort((a, b) => a.persuadee.localeCompare(b.persuadee));
  const scoreNames = AGREEMENT_SCORES.map((score) => `${score} ${agreementLabel(score)}`);
  const values = scoreShares(ordered, rowLabel);
  return {
    id: `initial-scores-${domain}`,
    title: `Initial stance of each persuadee on ${domain} claims`,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      config: { ...CHART_CONFIG, axis: { ...CHART_CONFIG.axis, labelLimit: 420 } },
      title: { text: `Initial stances: ${domain} claims`, subtitle: 'Share of claims per opening score; each (persuadee, claim) opening counted once.' },
      data: { values },
      width: 520,
      height: { step: 30 },
      transform: [
        { stack: 'share', groupby: ['persuadee'], sort: [{ field: 'order' }], offset: 'normalize', as: ['start', 'end'] },
        { calculate: '(datum.start + datum.end) / 2', as: 'middle' },
      ],
      encoding: { y: { field: 'persuadee', type: 'nominal', sort: ordered.map(rowLabel), title: null, axis: { labelLimit: 420 } } },
      layer: [
        {
          mark: { type: 'bar', stroke: 'white', strokeWidth: 1 },
          encoding: {
            x: { field: 'start', type: 'quantitative', title: 'Share of claims', scale: { domain: [0, 1] }, axis: { format: '%', tickCount: 5 } },
            x2: { field: 'end' },
            color: {
              field: 'score',
              type: 'ordinal',
              title: 'Opening score',
              sort: scoreNames,
              scale: { domain: scoreNames, range: SCORE_COLORS },
              legend: { orient: 'bottom', direction: 'horizontal', columns: 5, labelLimit: 200 },
            },
          },
        },
        {
          transform: [{ filter: 'datum.share >= 0.07' }],
          mark: { type: 'text', fontSize: 10, fontWeight: 600 },
          encoding: {
            x: { field: 'middle', type: 'quantitative' },
            text: { field: 'count' },
            color: { condition: { test: 'datum.order === 3', value: '#1f2430' }, value: 'white' },
          },
        },
      ],
    },
  };
}
