import { formatCount } from '../../domain/text-labels.js';
import { judgeAccuracy, type ProportionEstimate } from '../../metrics/agreement/judge-accuracy.js';
import type { BootstrapOptions } from '../../metrics/intervals/claim-cell-table.js';
import type { RenderedChart } from '../charts/render-svg.js';
import { figureHtml, sectionHtml, tableHtml } from '../html/html-blocks.js';
import { html, type SafeHtml } from '../html/safe-html.js';
import { escapeMarkdown, markdownTable } from '../markdown/markdown-text.js';
import type { ModelLabels } from '../model-labels.js';
import type { EstimateCell, ReportTable } from '../tables/report-tables.js';
import type { JudgePairSource, JudgeSectionTrial, JudgeStudySection } from './judge-figures.js';

export type { JudgePairSource, JudgeSectionTrial, JudgeStudySection } from './judge-figures.js';

/** The section's id (its anchor and contents entry) and its chart's id. */
export const JUDGE_SECTION_ID = 'judge';
export const JUDGE_CHART_ID = 'judge-accuracy';

/** The section's data from the trials of the reported runs (streamed once; pair ids kept to count pairs). */
export function buildJudgeSection(
  trials: Iterable<JudgeSectionTrial>,
  context: { runs: string[]; sources: JudgePairSource[]; bootstrap: BootstrapOptions; threshold?: number },
): JudgeStudySection {
  const threshold = context.threshold ?? 1;
  const pairIds = new Set<string>();
  const large = new Set<string>();
  const claims = new Set<string>();
  const counted = function* () {
    for (const trial of trials) {
      pairIds.add(trial.pairId);
      claims.add(trial.claim);
      if (trial.scoreDifference > threshold) large.add(trial.pairId);
      yield trial;
    }
  };
  const summary = judgeAccuracy(counted(), { threshold, bootstrap: context.bootstrap });
  return {
    runs: context.runs,
    sources: context.sources,
    pairs: { total: pairIds.size, largeDifference: large.size, claims: claims.size },
    threshold,
    chance: 0.5,
    judges: summary.judges,
    bootstrap: { ...context.bootstrap, unit: 'claim', method: 'percentile' },
  };
}

const cell = (estimate: ProportionEstimate): EstimateCell => ({ estimate: estimate.value, ciLow: estimate.ciLow, ciHigh: estimate.ciHigh, n: estimate.n });

/** One row per judge: accuracy overall and on large differences, unusable replies, first-shown rate. */
function judgeTable(section: JudgeStudySection): ReportTable {
  return {
    header: [
      'judge',
      'accuracy (n = usable answers)',
      `accuracy, difference > ${section.threshold} (n = usable answers)`,
      'unusable replies',
      'chose the first shown (n = usable answers)',
    ],
    rows: section.judges.map((judge) => [
      { model: judge.model },
      cell(judge.overall),
      cell(judge.largeDifference),
      judge.overall.unusable,
      cell(judge.firstChosen),
    ]),
  };
}

function introText(section: JudgeStudySection): string {
  const { pairs, bootstrap } = section;
  return (
    `Each judge saw ${formatCount(pairs.total)} pairs of arguments for the same claim (${pairs.claims} claims), one of which people found more persuasive, ` +
    `each pair in a seeded random order, and chose the more persuasive. Accuracy is over usable replies; chance is 0.50. ` +
    `${formatCount(pairs.largeDifference)} pairs differ by more than ${section.threshold} point${section.threshold === 1 ? '' : 's'} in the human scores. ` +
    `"Chose the first shown" near 0.50 means no position bias. ${Math.round(bootstrap.confidence * 100)}% percentile bootstrap intervals over claims.`
  );
}

function sourcesText(section: JudgeStudySection): string {
  return [...new Set(section.sources.map((source) => `${source.source}, licence ${source.license}`))].join('; ');
}

/** The HTML section (`id="judge"`); `chart` is the rendered `judge-accuracy` chart when there is one. */
export function judgeSectionHtml(section: JudgeStudySection, labels: ModelLabels, chart: RenderedChart | undefined): SafeHtml {
  const sources = section.sources.length === 0 ? html`` : html`<p class="intro">Pairs from ${sourcesText(section)}.</p>`;
  return sectionHtml(JUDGE_SECTION_ID, 'Can a model judge persuasiveness?', 'paper Sec. 4.1.2', introText(section), [
    figureHtml(chart),
    tableHtml(judgeTable(section), labels),
    sources,
  ]);
}

/** The Markdown section; `image(id)` gives the chart's image line (or '' when there is none). */
export function judgeSectionMarkdown(section: JudgeStudySection, labels: ModelLabels, image: (id: string) => string): string {
  const sources = section.sources.length === 0 ? '' : `\n\nPairs from ${escapeMarkdown(sourcesText(section))}.`;
  return `## Can a model judge persuasiveness? (paper Sec. 4.1.2)\n\n${escapeMarkdown(introText(section))}\n\n${image(JUDGE_CHART_ID)}\n\n${markdownTable(judgeTable(section), labels)}${sources}`;
}
