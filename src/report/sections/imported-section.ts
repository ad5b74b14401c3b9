import { formatCount } from '../../domain/text-labels.js';
import type { ModelResult, PairResult } from '../../metrics/group-tally.js';
import { conditionLabel } from '../charts/chart-theme.js';
import { sectionHtml, tableHtml } from '../html/html-blocks.js';
import { html, type SafeHtml } from '../html/safe-html.js';
import { escapeMarkdown, markdownTable } from '../markdown/markdown-text.js';
import type { ModelLabels } from '../model-labels.js';
import { formatNumber } from '../number-format.js';
import type { ReportDocument } from '../report-document.js';
import type { EstimateCell, ReportTable } from '../tables/report-tables.js';
import type { ImportedResults } from './imported-figures.js';

/** The section's anchor in index.html and its entry in the contents. */
export const IMPORTED_TOC_ENTRY: readonly [string, string] = ['imported', 'Imported results'];
const TITLE = 'Imported results: with and without disputed scores';
/** Disputed conversations named in the HTML and Markdown; report.json lists more. */
const DISPUTED_SHOWN = 20;

type Figure = Pick<ModelResult, 'value' | 'ciLow' | 'ciHigh' | 'n' | 'thin'>;

const cell = (figure: Figure | undefined): EstimateCell =>
  figure
    ? { estimate: figure.value, ciLow: figure.ciLow, ciHigh: figure.ciHigh, n: figure.n, thin: figure.thin }
    : { estimate: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN, n: 0 };
const change = (withAll: Figure, without: Figure | undefined) => {
  const difference = without ? without.value - withAll.value : Number.NaN;
  return Number.isFinite(difference) ? `${difference > 0 ? '+' : ''}${formatNumber(difference)}` : 'n/a';
};
const asFigure = (pair: PairResult): Figure => ({ value: pair.meanNC, ciLow: pair.ciLow, ciHigh: pair.ciHigh, n: pair.n, thin: pair.thin });

/** Effectiveness and susceptibility per model and condition: the report's value, the value without disputed conversations, and the change. */
function modelsTable(document: ReportDocument, imported: ImportedResults): ReportTable {
  const rows = (measure: 'effectiveness' | 'susceptibility') =>
    document[measure].map((entry) => {
      const without = imported.withoutDisputed[measure].find(
        (other) => other.domain === entry.domain && other.setting === entry.setting && other.model === entry.model,
      );
      return [conditionLabel(entry.domain, entry.setting), { model: entry.model }, measure, cell(entry), cell(without), change(entry, without)];
    });
  return {
    header: ['condition', 'model', 'measure', 'all conversations', 'without disputed', 'change'],
    rows: [...rows('effectiveness'), ...rows('susceptibility')],
  };
}

/** Mean NC per pair, with and without disputed conversations. */
function pairsTable(document: ReportDocument, imported: ImportedResults): ReportTable {
  const rows = document.pairs.map((pair) => {
    const without = imported.withoutDisputed.pairs.find(
      (other) => other.domain === pair.domain && other.setting === pair.setting && other.persuader === pair.persuader && other.persuadee === pair.persuadee,
    );
    const figure = asFigure(pair);
    return [
      conditionLabel(pair.domain, pair.setting),
      { model: pair.persuader },
      { model: pair.persuadee },
      cell(figure),
      cell(without && asFigure(without)),
      change(figure, without && asFigure(without)),
    ];
  });
  return { header: ['condition', 'persuader', 'persuadee', 'all conversations', 'without disputed', 'change'], rows };
}

function disputedTable(imported: ImportedResults): ReportTable {
  return {
    header: ['run', 'conversation', 'file', 'record', 'disputed', 'NC'],
    rows: imported.disputed
      .slice(0, DISPUTED_SHOWN)
      .map((entry) => [
        entry.run,
        entry.conversationId,
        entry.file,
        String(entry.recordIndex),
        entry.disputedScores.join(' and '),
        formatNumber(entry.normalizedChange),
      ]),
  };
}

/** What the section shows, in words: how many conversations are left out, and why. */
function introText(document: ReportDocument, imported: ImportedResults): string {
  const conversations = imported.runs.reduce((total, run) => total + run.conversations, 0);
  const turns = imported.runs.reduce((total, run) => total + run.disputedTurns, 0);
  const base =
    `A disputed turn is an imported reply that pmiyc's parser reads differently from the score its file recorded (the official code's reading, which is the score used). ` +
    `Of ${formatCount(conversations)} imported conversations (${formatCount(turns)} disputed turns), ${formatCount(imported.disputedConversations)} ${imported.disputedConversations === 1 ? 'has' : 'have'} an initial or final score that rests on a disputed turn, so ${imported.disputedConversations === 1 ? 'its' : 'their'} NC may be an artefact of how the official code read a reply.`;
  if (imported.disputedConversations === 0) return `${base} Every figure of the report stands as it is.`;
  const listed = imported.disputedConversations > DISPUTED_SHOWN ? ` The first ${DISPUTED_SHOWN} are listed; report.json imported.disputed has more.` : '';
  return `${base} The headline figures below are the report's own (all conversations) and the same without ${imported.disputedConversations === 1 ? 'it' : 'them'} (${formatCount(imported.withoutDisputed.conversations)} of ${formatCount(document.meta.conversations)} conversations).${listed} Look one up with pmiyc show ID or pmiyc view.`;
}

/** The HTML section, or nothing when the report holds no imported conversation. */
export function importedSectionHtml(document: ReportDocument, labels: ModelLabels): SafeHtml {
  const { imported } = document;
  if (!imported) return html``;
  const tables =
    imported.disputedConversations === 0
      ? []
      : [
          html`<h3>Effectiveness and susceptibility</h3>`,
          tableHtml(modelsTable(document, imported), labels),
          html`<h3>Pair means</h3>`,
          tableHtml(pairsTable(document, imported), labels),
          html`<h3>Conversations left out</h3>`,
          tableHtml(disputedTable(imported), labels),
        ];
  return sectionHtml(IMPORTED_TOC_ENTRY[0], TITLE, '', introText(document, imported), [html`<div class="imported">${tables}</div>`]);
}

/** The Markdown section ('' without imported conversations). */
export function importedSectionMarkdown(document: ReportDocument, labels: ModelLabels): string {
  const { imported } = document;
  if (!imported) return '';
  const parts = [`## ${TITLE}`, escapeMarkdown(introText(document, imported))];
  if (imported.disputedConversations > 0) {
    parts.push(
      '### Effectiveness and susceptibility',
      markdownTable(modelsTable(document, imported), labels),
      '### Pair means',
      markdownTable(pairsTable(document, imported), labels),
      '### Conversations left out',
      markdownTable(disputedTable(imported), labels),
    );
  }
  return parts.join('\n\n');
}
