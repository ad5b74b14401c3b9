import { escapeMarkdown, markdownTable } from '../markdown/markdown-text.js';
import type { ModelLabels } from '../model-labels.js';
import type { ReportProtocolSection } from '../report-document.js';
import { simulatedSentence } from './protocol-section-html.js';

/** A protocol run's section in report.md: the same parts as in the HTML report, each table as a Markdown table. */
function protocolSectionMarkdown(section: ReportProtocolSection, labels: ModelLabels): string {
  const simulated = simulatedSentence(section, labels);
  const tables = section.figures.tables.map(
    (table) => `### ${escapeMarkdown(table.title)}\n\n${table.note === undefined ? '' : `${escapeMarkdown(table.note)}\n\n`}${markdownTable(table, labels)}`,
  );
  return [
    `## ${escapeMarkdown(section.figures.title)} (run ${escapeMarkdown(section.run)})`,
    ...(simulated === '' ? [] : [`> **Simulated agents.** ${escapeMarkdown(simulated)}`]),
    ...section.figures.paragraphs.map(escapeMarkdown),
    ...tables,
  ].join('\n\n');
}

/** Every section, in order; '' when there is none. */
export function protocolSectionsMarkdown(sections: readonly ReportProtocolSection[], labels: ModelLabels): string {
  return sections.map((section) => protocolSectionMarkdown(section, labels)).join('\n\n');
}
