import type { RenderedChart } from '../charts/render-svg.js';
import { figureHtml, sectionHtml, tableHtml } from '../html/html-blocks.js';
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

/**
 * Each section's chart ids by the protocol's own chart id, in section order: the section's anchor and the chart's id
 * (`llm-persuasion-benchmark-lpb-offense-defense`), so two runs' charts never share a file.
 */
export function protocolChartIds(sections: readonly ReportProtocolSection[]): Array<ReadonlyMap<string, string>> {
  const anchors = protocolAnchors(sections);
  return sections.map((section, position) => new Map((section.figures.charts ?? []).map((chart) => [chart.id, `${anchors[position]}-${chart.id}`])));
}

/**
 * Where a section's charts go: each before the table it names (`beforeTable`), the others (key '') after the
 * paragraphs; as the rendered charts, or the ids of those not rendered.
 */
export function chartsByPlace<T>(section: ReportProtocolSection, ids: ReadonlyMap<string, string>, shown: (id: string) => T | undefined): Map<string, T[]> {
  const places = new Map<string, T[]>();
  for (const chart of section.figures.charts ?? []) {
    const rendered = shown(ids.get(chart.id)!);
    if (rendered === undefined) continue;
    const place = chart.beforeTable ?? '';
    places.set(place, [...(places.get(place) ?? []), rendered]);
  }
  return places;
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

function sectionBody(section: ReportProtocolSection, labels: ModelLabels, charts: Map<string, RenderedChart[]>): SafeHtml[] {
  const simulated = simulatedSentence(section, labels);
  const [, ...paragraphs] = section.figures.paragraphs;
  const figures = (place: string) => (charts.get(place) ?? []).map(figureHtml);
  return [
    simulated === '' ? html`` : html`<p class="notice"><strong>Simulated agents.</strong> ${simulated}</p>`,
    ...paragraphs.map((paragraph) => html`<p class="intro">${paragraph}</p>`),
    ...figures(''),
    ...section.figures.tables.map(
      (table) =>
        html`<h3>${table.title}</h3>${table.note === undefined ? '' : html`<p class="intro">${table.note}</p>`}${figures(table.id)}${tableHtml(table, labels)}`,
    ),
  ];
}

/** Every section, in order, with its charts among those rendered (`protocolChartSpecs`). */
export function protocolSectionsHtml(sections: readonly ReportProtocolSection[], labels: ModelLabels, rendered: readonly RenderedChart[] = []): SafeHtml {
  const anchors = protocolAnchors(sections);
  const ids = protocolChartIds(sections);
  const shown = (id: string) => rendered.find((chart) => chart.id === id);
  return html`${sections.map((section, position) =>
    sectionHtml(
      anchors[position]!,
      section.figures.title,
      `run ${section.run}`,
      section.figures.paragraphs[0] ?? '',
      sectionBody(section, labels, chartsByPlace(section, ids[position]!, shown)),
    ),
  )}`;
}
