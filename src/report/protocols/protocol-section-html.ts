import { sectionHtml, tableHtml } from '../html/html-blocks.js';
import { html, type SafeHtml } from '../html/safe-html.js';
import type { ModelLabels } from '../model-labels.js';
import type { ReportProtocolSection } from '../report-document.js';

/**
 * A protocol run's section in the HTML report: its title and run, a notice when simulated agents took part,
 * the protocol's paragraphs, then each table under its title and note, rendered like every table of the
 * report (estimates with their interval and n, models with the simulated badge).
 */

/** Each section's anchor: the protocol's id and the run's name ("ape-ape-a"), made unique by position where two would meet. */
export function protocolAnchors(sections: readonly ReportProtocolSection[]): string[] {
  const anchors: string[] = [];
  for (const [position, section] of sections.entries()) {
    const anchor = `${section.figures.id}-${section.run.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    anchors.push(anchors.includes(anchor) ? `${anchor}-${position + 1}` : anchor);
  }
  return anchors;
}

/** The table of contents' entries of the sections. */
export function protocolTocEntries(sections: readonly ReportProtocolSection[]): Array<readonly [string, string]> {
  const anchors = protocolAnchors(sections);
  return sections.map((section, position) => [anchors[position]!, `${section.protocol} run ${section.run}`] as const);
}

/** The sentence on simulated agents of a section, or none: said in every format where the section's figures are. */
export function simulatedSentence(section: ReportProtocolSection, labels: ModelLabels): string {
  const simulated = section.models.filter((entry) => labels.isSimulated(entry.model)).map((entry) => entry.model);
  if (simulated.length === 0) return '';
  const who =
    simulated.length === section.models.length
      ? 'Every model of this run is a simulated agent'
      : `${simulated.join(', ')} ${simulated.length === 1 ? 'is a simulated agent' : 'are simulated agents'}`;
  return `${who} with planted behaviour: these figures show that the pipeline works, not how any real model behaves.`;
}

function sectionBody(section: ReportProtocolSection, labels: ModelLabels): SafeHtml[] {
  const simulated = simulatedSentence(section, labels);
  const [, ...paragraphs] = section.figures.paragraphs;
  return [
    simulated === '' ? html`` : html`<p class="notice"><strong>Simulated agents.</strong> ${simulated}</p>`,
    ...paragraphs.map((paragraph) => html`<p class="intro">${paragraph}</p>`),
    ...section.figures.tables.map(
      (table) => html`<h3>${table.title}</h3>${table.note === undefined ? '' : html`<p class="intro">${table.note}</p>`}${tableHtml(table, labels)}`,
    ),
  ];
}

/** Every section, in order. */
export function protocolSectionsHtml(sections: readonly ReportProtocolSection[], labels: ModelLabels): SafeHtml {
  const anchors = protocolAnchors(sections);
  return html`${sections.map((section, position) =>
    sectionHtml(anchors[position]!, section.figures.title, `run ${section.run}`, section.figures.paragraphs[0] ?? '', sectionBody(section, labels)),
  )}`;
}
