import { formatP } from '../../domain/text-labels.js';
import type { PeopleComparison } from '../../metrics/people/people-comparison.js';
import type { ChartSpec } from '../charts/chart-theme.js';
import { conditionLabel } from '../charts/chart-theme.js';
import { peopleChartId, peopleCurvesChart } from '../charts/people-curves-chart.js';
import type { RenderedChart } from '../charts/render-svg.js';
import { type CsvColumn, type CsvValue, csvTable } from '../csv/csv-table.js';
import { figureHtml, sectionHtml, tableHtml } from '../html/html-blocks.js';
import { html, type SafeHtml } from '../html/safe-html.js';
import { escapeMarkdown, markdownTable } from '../markdown/markdown-text.js';
import type { ModelLabels } from '../model-labels.js';
import { formatEstimate } from '../number-format.js';
import { verdict } from '../tables/comparison-tables.js';
import type { ReportTable } from '../tables/report-tables.js';
import type { PeopleReport } from './people-report.js';

/** The section's id (its anchor and contents entry). */
export const PEOPLE_SECTION_ID = 'people';

/** The comparisons of one condition and role, in the report's order, one list per chart. */
function rowGroups(report: PeopleReport): PeopleComparison[][] {
  const groups = new Map<string, PeopleComparison[]>();
  for (const row of report.comparisons) {
    const key = `${row.domain}/${row.setting}/${row.role}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()];
}

/** Who took part: the participant list's counts, or what the conversations say when the store keeps no list. */
function countsText(report: PeopleReport): string {
  const { participants: list, conversations } = report;
  const held = `${report.persons} ${report.persons === 1 ? 'person has' : 'persons have'} a conversation in the run (${conversations.completed} completed, ${conversations.failed} failed and not scored).`;
  if (list === null) return `The store keeps no participant list for these runs: ${held}`;
  const status = list.byStatus;
  return (
    `${list.total} participants on the study's list: ${status.invited} invited (not yet consented), ${status.consented} consented, ${status.conversing} conversing, ` +
    `${status.finished} finished and ${status.withdrawn} withdrawn (the dropouts); ${list.followUps} gave a follow-up rating. ${held}`
  );
}

function introText(report: PeopleReport): string {
  return (
    `People who took part in a study (agents person/<id>, pseudonymous) are real people, not models: nothing here is simulated, and they have no provider or price. ` +
    `${countsText(report)} ${report.statement} ` +
    `Susceptibility is the mean normalized change (NC) of a persuadee's agreement; effectiveness the same for the persuadees of a persuader.`
  );
}

function ownTable(report: PeopleReport): ReportTable {
  return {
    header: ['condition', 'people as', 'measure', 'people (n = conversations)', 'claims', 'models in the same role'],
    rows: report.estimates.map((row) => [
      conditionLabel(row.domain, row.setting),
      row.role,
      row.measure,
      { estimate: row.value, ciLow: row.ciLow, ciHigh: row.ciHigh, n: row.conversations, thin: row.thin },
      row.claims,
      row.modelsInRole,
    ]),
  };
}

function comparisonTable(report: PeopleReport): ReportTable {
  return {
    header: [
      'condition',
      'measure',
      'model',
      'people (n = conversations)',
      'model (n = conversations)',
      'people minus model',
      'claims',
      'p',
      'p (Holm)',
      'reading',
    ],
    rows: report.comparisons.map((row) => [
      conditionLabel(row.domain, row.setting),
      row.measure,
      { model: row.model },
      { estimate: row.people.value, ciLow: row.people.ciLow, ciHigh: row.people.ciHigh, n: row.people.conversations, thin: row.thin },
      { estimate: row.modelValue.value, ciLow: row.modelValue.ciLow, ciHigh: row.modelValue.ciHigh, n: row.modelValue.conversations, thin: row.thin },
      formatEstimate(row.difference, row.ciLow, row.ciHigh, row.thin),
      row.claims,
      formatP(row.p),
      formatP(row.pHolm),
      verdict(row.pHolm, row.thin),
    ]),
  };
}

/** Per condition and role: the people's and each model's mean agreement at each persuadee turn, over the claims both have. */
function curveTable(rows: readonly PeopleComparison[]): ReportTable {
  const turns = [...new Set(rows.flatMap((row) => row.curve.map((point) => point.turn)))].sort((a, b) => a - b);
  const cell = (row: PeopleComparison, turn: number, side: 'people' | 'model') => {
    const point = row.curve.find((entry) => entry.turn === turn);
    const value = point?.[side];
    return value ? { estimate: value.value, ciLow: value.ciLow, ciHigh: value.ciHigh, n: value.conversations, thin: row.thin } : 'n/a';
  };
  return {
    header: ['condition', 'compared with', 'agreement of', ...turns.map((turn) => `turn ${turn} (n = conversations)`)],
    rows: rows.flatMap((row) => [
      [conditionLabel(row.domain, row.setting), { model: row.model }, 'people', ...turns.map((turn) => cell(row, turn, 'people'))],
      [conditionLabel(row.domain, row.setting), { model: row.model }, { model: row.model }, ...turns.map((turn) => cell(row, turn, 'model'))],
    ]),
  };
}

function followUpTable(report: PeopleReport): ReportTable {
  return {
    header: ['condition', 'follow-up minus final decision, scale points (n = participants)', 'claims', 'p'],
    rows: report.followUp.map((row) => [
      conditionLabel(row.domain, row.setting),
      { estimate: row.change, ciLow: row.ciLow, ciHigh: row.ciHigh, n: row.participants, thin: row.thin },
      row.claims,
      formatP(row.p),
    ]),
  };
}

function followUpText(report: PeopleReport): string {
  const given = report.participants?.followUps ?? 0;
  if (report.followUp.length === 0 && given === 0) return 'No follow-up rating was given.';
  const unmatched =
    report.followUpsUnmatched > 0
      ? ` ${report.followUpsUnmatched} follow-up ratings are left out: their conversation is not a completed conversation of a person persuadee (a person who was a persuader rates no final decision of their own).`
      : '';
  return `The change from a persuadee's final decision to their follow-up rating after the study's delay: positive means they agreed more later. Each claim counts once; 95% intervals over claims.${unmatched}`;
}

/** The section's charts: per condition and role, the agreement curves of people and the models compared with them. */
export function peopleChartSpecs(report: PeopleReport | undefined, labels: ModelLabels): ChartSpec[] {
  if (!report) return [];
  return rowGroups(report)
    .filter((rows) => rows.some((row) => row.curve.length > 0))
    .map((rows) => peopleCurvesChart(rows, labels));
}

/** The HTML section (`id="people"`). */
export function peopleSectionHtml(report: PeopleReport, labels: ModelLabels, chart: (id: string) => RenderedChart | undefined): SafeHtml {
  const groups = rowGroups(report);
  return sectionHtml(PEOPLE_SECTION_ID, 'People and models', '', introText(report), [
    tableHtml(ownTable(report), labels),
    ...(report.comparisons.length > 0 ? [tableHtml(comparisonTable(report), labels)] : []),
    ...groups.flatMap((rows) => [figureHtml(chart(peopleChartId(rows[0]!.domain, rows[0]!.setting, rows[0]!.role))), tableHtml(curveTable(rows), labels)]),
    sectionParagraph(followUpText(report)),
    ...(report.followUp.length > 0 ? [tableHtml(followUpTable(report), labels)] : []),
  ]);
}

function sectionParagraph(text: string): SafeHtml {
  return html`<h3>Follow-up</h3><p>${text}</p>`;
}

/** The Markdown section; `image(id)` gives a chart's image line (or '' when there is none). */
export function peopleSectionMarkdown(report: PeopleReport, labels: ModelLabels, image: (id: string) => string): string {
  return [
    '## People and models',
    escapeMarkdown(introText(report)),
    markdownTable(ownTable(report), labels),
    report.comparisons.length > 0 ? markdownTable(comparisonTable(report), labels) : '',
    ...rowGroups(report).flatMap((rows) => [image(peopleChartId(rows[0]!.domain, rows[0]!.setting, rows[0]!.role)), markdownTable(curveTable(rows), labels)]),
    '### Follow-up',
    escapeMarkdown(followUpText(report)),
    report.followUp.length > 0 ? markdownTable(followUpTable(report), labels) : '',
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}

type FollowUpRow = PeopleReport['followUp'][number];

/** A line of people.csv: a comparison of people with a model, or a condition's follow-up change. */
type PeopleLine = { readonly kind: 'comparison'; readonly row: PeopleComparison } | { readonly kind: 'follow-up'; readonly row: FollowUpRow };

/** A column whose value depends on the kind of line (empty for a kind without one). */
const byKind = (
  header: string,
  comparison: (row: PeopleComparison) => CsvValue,
  followUp: (row: FollowUpRow) => CsvValue = () => null,
): CsvColumn<PeopleLine> => ({ header, value: (line) => (line.kind === 'comparison' ? comparison(line.row) : followUp(line.row)) });

/** people.csv: one row per comparison (people against a model), then one per condition with the follow-up change. */
export function peopleCsv(report: PeopleReport, labels: ModelLabels): string {
  const columns: CsvColumn<PeopleLine>[] = [
    { header: 'kind', value: (line) => line.kind },
    { header: 'domain', value: (line) => line.row.domain },
    { header: 'setting', value: (line) => line.row.setting },
    byKind(
      'role',
      (row) => row.role,
      () => 'persuadee',
    ),
    byKind(
      'measure',
      (row) => row.measure,
      () => 'follow-up minus final',
    ),
    byKind('model', (row) => row.model),
    byKind('modelSimulated', (row) => labels.isSimulated(row.model)),
    byKind('people', (row) => row.people.value),
    byKind('peopleCiLow', (row) => row.people.ciLow),
    byKind('peopleCiHigh', (row) => row.people.ciHigh),
    byKind('peopleConversations', (row) => row.people.conversations),
    byKind('modelValue', (row) => row.modelValue.value),
    byKind('modelCiLow', (row) => row.modelValue.ciLow),
    byKind('modelCiHigh', (row) => row.modelValue.ciHigh),
    byKind('modelConversations', (row) => row.modelValue.conversations),
    byKind(
      'difference',
      (row) => row.difference,
      (row) => row.change,
    ),
    byKind(
      'ciLow',
      (row) => row.ciLow,
      (row) => row.ciLow,
    ),
    byKind(
      'ciHigh',
      (row) => row.ciHigh,
      (row) => row.ciHigh,
    ),
    byKind('se', (row) => row.se),
    byKind(
      'p',
      (row) => row.p,
      (row) => row.p,
    ),
    byKind('pHolm', (row) => row.pHolm),
    { header: 'claims', value: (line) => line.row.claims },
    { header: 'thin', value: (line) => line.row.thin },
    byKind(
      'participants',
      () => null,
      (row) => row.participants,
    ),
  ];
  const lines: PeopleLine[] = [
    ...report.comparisons.map((row) => ({ kind: 'comparison' as const, row })),
    ...report.followUp.map((row) => ({ kind: 'follow-up' as const, row })),
  ];
  return csvTable(columns, lines);
}
