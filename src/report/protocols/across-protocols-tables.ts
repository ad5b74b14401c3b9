import { formatCount } from '../../domain/text-labels.js';
import type { ProtocolTable } from '../../studies/protocol-outputs.js';
import type { ReportTable } from '../tables/report-tables.js';
import type { AcrossProtocols } from './across-protocols-shape.js';

/**
 * What the table across protocols says in every format: its intro, its note (where each column came from and what
 * its n counts), the table of figures, and the rank correlations, said as descriptive.
 */

/** A model that took part in no run of a column. */
const NOT_IN_RUN = '–';

export const ACROSS_TITLE = 'One table across protocols';

export const ACROSS_INTRO =
  "Each model's headline figure from every protocol the reported runs hold, side by side: each figure with the interval and n its own section shows.";

const unitOf = (column: AcrossProtocols['columns'][number]) => `n = ${column.unit}`;

/** The table of figures: a row per model, a column per figure; a dash where the model took part in no run of it. */
export function acrossFiguresTable(across: AcrossProtocols): ProtocolTable {
  return {
    id: 'across-protocols',
    title: ACROSS_TITLE,
    header: ['model', ...across.columns.map((column) => `${column.title} (${unitOf(column)})`)],
    rows: across.rows.map((row) => [{ model: row.model }, ...row.cells.map((cell) => cell ?? NOT_IN_RUN)]),
  };
}

/** The paragraphs under the table: where each column came from and what it is, how models were matched, what a dash is. */
export function acrossNotes(across: AcrossProtocols): string[] {
  const columns = across.columns.map((column) => `${column.title}: ${column.description}; from run ${column.runs.join(', run ')}.`);
  const twice = across.alsoIn.map((entry) => `${entry.model}'s ${entry.column} is from run ${entry.run}; run ${entry.alsoIn} has one too, not shown.`);
  return [
    `Models are matched by their alias name across runs: a name is one row whoever it stands for in each run (What ran lists what each alias was). A dash (${NOT_IN_RUN}) means the model took part in no reported run of that column; "n/a" or "no data" that it took part and the figure has no value.`,
    ...columns,
    ...twice,
  ];
}

const rhoCell = (correlation: AcrossProtocols['correlations'][number], minimum: number) =>
  Number.isFinite(correlation.rho)
    ? { estimate: correlation.rho, ciLow: correlation.ciLow, ciHigh: correlation.ciHigh, n: correlation.models }
    : correlation.models < minimum
      ? `too few models (${correlation.models}; ${minimum} needed)`
      : 'no spread (every model alike on one figure)';

/** Spearman's rho of every two columns, over the models with both figures. */
export function acrossCorrelationsTable(across: AcrossProtocols): ReportTable {
  return {
    header: ['figure', 'against', "Spearman's rho (n = models)"],
    rows: across.correlations.map((correlation) => [correlation.first, correlation.second, rhoCell(correlation, across.minimumModels)]),
  };
}

/** What the correlations are and are not, said plainly above them. */
export function correlationsText(across: AcrossProtocols): string {
  const given = across.correlations.filter((correlation) => Number.isFinite(correlation.rho)).length;
  return `Spearman's rank correlation between every two figures, over the models that have both (n = models), with its ${Math.round(across.confidence * 100)}% interval (Fisher z, Bonett and Wright's variance), given where at least ${formatCount(across.minimumModels)} models have both (${formatCount(given)} of ${formatCount(across.correlations.length)} pairs here). It is descriptive: it says whether models that rank high on one figure tend to rank high on the other among these few models, not that one causes the other, and with a handful of models its interval is wide.`;
}
