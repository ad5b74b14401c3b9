import { formatCount } from '../../domain/text-labels.js';
import { reportJsonText } from '../build-report-document.js';
import type { RenderedChart } from '../charts/render-svg.js';
import { sectionHtml, tableHtml } from '../html/html-blocks.js';
import { configurations } from '../html/html-report.js';
import { REPORT_CSS } from '../html/report-style.js';
import { html, type SafeHtml, trusted } from '../html/safe-html.js';
import { escapeMarkdown, markdownTable } from '../markdown/markdown-text.js';
import type { ModelLabels } from '../model-labels.js';
import { formatTimestamp } from '../number-format.js';
import type { ProtocolRunsDocument } from '../report-document.js';
import { runSeedText } from '../sections/imported-notes.js';
import { runsTable } from '../tables/operation-tables.js';
import { aliasesNote, aliasesTable } from '../tables/what-ran-table.js';
import { acrossProtocolsHtml, acrossProtocolsMarkdown, acrossTocEntries } from './across-protocols-section.js';
import { protocolSectionsHtml, protocolTocEntries } from './protocol-section-html.js';
import { protocolSectionsMarkdown } from './protocol-section-markdown.js';
import { protocolSectionsJson } from './protocol-sections.js';

/**
 * The report of protocol runs alone (no tournament among them): a masthead, each run's section, and what ran
 * (the runs, what each alias was, each run's stored configuration), in HTML, Markdown and report.json.
 */

const runNamesOf = (document: ProtocolRunsDocument) => document.meta.runs.map((run) => run.name).join(' + ');

function simulatedNotice(document: ProtocolRunsDocument): string {
  const simulated = document.meta.models.filter((entry) => entry.simulated);
  if (simulated.length === 0) return '';
  return simulated.length === document.meta.models.length
    ? 'Every model in this report is a simulated agent with planted behaviour: the numbers show that the pipeline works, not how any real model behaves.'
    : `${simulated.length} of ${document.meta.models.length} models are simulated agents with planted behaviour (${simulated.map((entry) => entry.model).join(', ')}): their numbers say nothing about real models.`;
}

const WHAT_RAN_INTRO = 'The runs of this report, and what each model alias was when its run started.';

function mastheadHtml(document: ProtocolRunsDocument): SafeHtml {
  const { meta } = document;
  const seeds = [...new Set(meta.runs.map(runSeedText))].join(', ');
  const notice = simulatedNotice(document);
  return html`<header class="masthead"><div class="page">
<p class="eyebrow">pmiyc · Persuade Me If You Can</p>
<h1>Protocol runs: ${runNamesOf(document)}</h1>
<p class="lede"><span>${meta.models.length} models</span><span>${formatCount(meta.conversations)} conversations</span><span>seed ${seeds}</span><span>${meta.generatedBy}, ${formatTimestamp(meta.generatedAt)}</span></p>
${notice === '' ? '' : html`<p class="notice"><strong>Simulated agents.</strong> ${notice}</p>`}</div></header>`;
}

function whatRanHtml(document: ProtocolRunsDocument, labels: ModelLabels): SafeHtml {
  const note = aliasesNote(document);
  return sectionHtml('provenance', 'What ran', '', WHAT_RAN_INTRO, [
    tableHtml(runsTable(document), labels),
    html`<h3>Models</h3>`,
    tableHtml(aliasesTable(document), labels),
    note === '' ? html`` : html`<p class="intro">${note}</p>`,
    ...configurations(document),
  ]);
}

/** index.html: one self-contained page, like the tournament's report (inline CSS, no script). */
export function protocolRunsHtml(document: ProtocolRunsDocument, labels: ModelLabels, charts: readonly RenderedChart[] = []): string {
  const toc = [...acrossTocEntries(document.acrossProtocols), ...protocolTocEntries(document.protocols), ['provenance', 'What ran'] as const];
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${document.meta.generatedBy}">
<title>pmiyc report: ${runNamesOf(document)}</title><style>${trusted(REPORT_CSS)}</style></head>
<body>${mastheadHtml(document)}<main class="page">
<nav class="toc" aria-label="Contents">${toc.map(([id, name]) => html`<a href="${`#${id}`}">${name}</a>`)}</nav>
${acrossProtocolsHtml(document.acrossProtocols, labels)}${protocolSectionsHtml(document.protocols, labels, charts)}${whatRanHtml(document, labels)}
<footer class="method">Written by ${document.meta.generatedBy}.</footer>
</main></body></html>
`;
  return page.value;
}

/** report.md; its sections' charts are SVG files beside it (`charts/<id>.svg`). */
export function protocolRunsMarkdown(document: ProtocolRunsDocument, labels: ModelLabels, charts: readonly RenderedChart[] = []): string {
  const { meta } = document;
  const notice = simulatedNotice(document);
  const note = aliasesNote(document);
  return `${[
    `# pmiyc report: ${escapeMarkdown(runNamesOf(document))}`,
    ...(notice === '' ? [] : [`> **Simulated agents.** ${escapeMarkdown(notice)}`]),
    `${formatCount(meta.conversations)} conversations; ${escapeMarkdown(meta.generatedBy)}, ${formatTimestamp(meta.generatedAt)}.`,
    acrossProtocolsMarkdown(document.acrossProtocols, labels),
    protocolSectionsMarkdown(document.protocols, labels, charts),
    `## What ran\n\n${escapeMarkdown(WHAT_RAN_INTRO)}\n\n${markdownTable(runsTable(document), labels)}\n\n### Models\n\n${markdownTable(aliasesTable(document), labels)}${note === '' ? '' : `\n\n${escapeMarkdown(note)}`}`,
  ].join('\n\n')}\n`;
}

/** report.json: what ran and each section's protocol JSON; NaN (no data) as null. */
export function protocolRunsJson(document: ProtocolRunsDocument): string {
  const runs = document.meta.runs.map(({ runConfig: _read, ...run }) => run);
  return reportJsonText({ ...document, meta: { ...document.meta, runs }, protocols: protocolSectionsJson(document.protocols) });
}
