import type { RenderedChart } from '../charts/render-svg.js';
import { escapeMarkdown, markdownTable } from '../markdown/markdown-text.js';
import type { ModelLabels } from '../model-labels.js';
import type { ReportProtocolSection } from '../report-document.js';
import { chartsByPlace, protocolChartIds, simulatedSentence } from './protocol-section-html.js';

/**
 * A protocol run's section in report.md: the same parts as in the HTML report, each table as a Markdown table, each
 * chart as an image of its SVG file beside report.md (`charts/<id>.svg`).
 */
function protocolSectionMarkdown(section: ReportProtocolSection, labels: ModelLabels, charts: Map<string, string[]>): string {
  const simulated = simulatedSentence(section, labels);
  const images = (place: string) => (charts.get(place) ?? []).map((image) => `${image}\n\n`).join('');
  const tables = section.figures.tables.map(
    (table) =>
      `### ${escapeMarkdown(table.title)}\n\n${table.note === undefined ? '' : `${escapeMarkdown(table.note)}\n\n`}${images(table.id)}${markdownTable(table, labels)}`,
  );
  return [
    `## ${escapeMarkdown(section.figures.title)} (run ${escapeMarkdown(section.run)})`,
    ...(simulated === '' ? [] : [`> **Simulated agents.** ${escapeMarkdown(simulated)}`]),
    ...section.figures.paragraphs.map(escapeMarkdown),
    ...(charts.has('') ? [images('').trimEnd()] : []),
    ...tables,
  ].join('\n\n');
}

/** Every section, in order, linking those of its charts that were rendered; '' when there is none. */
export function protocolSectionsMarkdown(sections: readonly ReportProtocolSection[], labels: ModelLabels, rendered: readonly RenderedChart[] = []): string {
  const ids = protocolChartIds(sections);
  const image = (id: string) => {
    const chart = rendered.find((candidate) => candidate.id === id);
    return chart === undefined ? undefined : `![${escapeMarkdown(chart.title)}](charts/${chart.id}.svg)`;
  };
  return sections.map((section, position) => protocolSectionMarkdown(section, labels, chartsByPlace(section, ids[position]!, image))).join('\n\n');
}
