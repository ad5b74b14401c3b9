import type { ReliabilityAnalysis } from '../../metrics/agreement/annotation-agreement.js';
import type { ChartSpec } from '../charts/chart-theme.js';
import type { RenderedChart } from '../charts/render-svg.js';
import { figureHtml, sectionHtml, tableHtml } from '../html/html-blocks.js';
import { html, type SafeHtml } from '../html/safe-html.js';
import { escapeMarkdown, markdownTable } from '../markdown/markdown-text.js';
import type { ModelLabels } from '../model-labels.js';
import { CONFUSION_CHART_ID, confusionChart } from './annotation-chart.js';
import { annotatorsTable, confusionTable, domainTable, persuadeeTable, reliabilityIntro, reliabilityTable } from './annotation-tables.js';

export { CONFUSION_CHART_ID } from './annotation-chart.js';

/** The section's anchor in index.html (`reliability` is the failures section). */
export const RELIABILITY_SECTION_ID = 'self-report';
/** The table-of-contents entry: [anchor, name]. */
export const RELIABILITY_TOC_ENTRY: readonly [string, string] = [RELIABILITY_SECTION_ID, 'Self-report reliability'];

const TITLE = 'Do persuadees report their agreement faithfully?';
const PAPER_REFERENCE = 'paper Sec. 5.2, Fig. 8';

/**
 * The charts of the study: the confusion matrix when there are labels, none otherwise. Append
 * them to the report's chart specs; they render with the others.
 */
export function annotationChartSpecs(study: ReliabilityAnalysis | null | undefined): ChartSpec[] {
  return study && study.labels > 0 ? [confusionChart(study)] : [];
}

/**
 * The HTML section, or nothing when the run has no imported labels (the report then has no such
 * section). Every text goes through the escaping template; the chart is Vega's SVG.
 */
export function annotationSectionHtml(study: ReliabilityAnalysis | null | undefined, labels: ModelLabels, chart: RenderedChart | undefined): SafeHtml {
  if (!study || study.labels === 0) return html``;
  const fold = (summary: string, content: SafeHtml) => html`<details><summary>${summary}</summary>${content}</details>`;
  return sectionHtml(RELIABILITY_SECTION_ID, TITLE, PAPER_REFERENCE, reliabilityIntro(study), [
    tableHtml(reliabilityTable(study), labels),
    figureHtml(chart),
    fold('The confusion matrix as a table', tableHtml(confusionTable(study), labels)),
    html`<h3>By annotator</h3>`,
    tableHtml(annotatorsTable(study), labels),
    html`<h3>By persuadee model</h3>`,
    tableHtml(persuadeeTable(study), labels),
    html`<h3>By domain</h3>`,
    tableHtml(domainTable(study), labels),
  ]);
}

/**
 * The Markdown section ('' without labels). `image` is the report's image helper: it returns the
 * Markdown image of a rendered chart by id, or '' when the chart is absent.
 */
export function annotationSectionMarkdown(study: ReliabilityAnalysis | null | undefined, labels: ModelLabels, image: (id: string) => string): string {
  if (!study || study.labels === 0) return '';
  const table = (value: Parameters<typeof markdownTable>[0]) => markdownTable(value, labels);
  return [
    `## Self-report reliability (${PAPER_REFERENCE})`,
    escapeMarkdown(reliabilityIntro(study)),
    table(reliabilityTable(study)),
    image(CONFUSION_CHART_ID),
    table(confusionTable(study)),
    '### By annotator',
    table(annotatorsTable(study)),
    '### By persuadee model',
    table(persuadeeTable(study)),
    '### By domain',
    table(domainTable(study)),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}
