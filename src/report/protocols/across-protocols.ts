import type { ModelResult } from '../../metrics/group-tally.js';
import { RANK_CORRELATION_MINIMUM_UNITS, spearmanCorrelation } from '../../metrics/rank-correlation.js';
import type { ProtocolEstimateCell, ProtocolModelColumn } from '../../studies/protocol-outputs.js';
import { conditionLabel } from '../charts/chart-theme.js';
import type { ReportDocument, ReportProtocolSection } from '../report-document.js';
import { type Condition, conditionsOf, modelResultCell } from '../tables/report-tables.js';
import type { AcrossProtocols, AcrossProtocolsColumn, AcrossProtocolsCorrelation, AcrossProtocolsRow } from './across-protocols-shape.js';

/**
 * One table across protocols (docs/design/protocols.md, "One table across protocols"): a row per model, a column per
 * headline figure of each protocol the reported runs hold (PMIYC's effectiveness and susceptibility from the
 * tournament's own analysis, each protocol's from its section's `modelColumns`), each cell the very estimate its
 * own section shows, and Spearman's rank correlation between every two columns across the models that have both.
 * Models are matched by name. Pure: it names no protocol but PMIYC's, whose figures are the report's own.
 */

/** One source of columns: a run (or the tournament's runs together) and its columns. */
interface ColumnSource {
  readonly protocol: string;
  readonly runs: readonly string[];
  readonly columns: readonly ProtocolModelColumn[];
}

const RANK_CONFIDENCE = 0.95;

/** PMIYC's columns: effectiveness and susceptibility per condition of the tournament, the report's own cells. */
function tournamentColumns(document: Pick<ReportDocument, 'effectiveness' | 'susceptibility' | 'groups'>): ProtocolModelColumn[] {
  const conditions = conditionsOf(document);
  const named = (condition: Condition) => (conditions.length > 1 ? ` (${conditionLabel(condition.domain, condition.setting)})` : '');
  const suffix = (condition: Condition) => (conditions.length > 1 ? `-${condition.domain}-${condition.setting}` : '');
  const column = (measure: 'effectiveness' | 'susceptibility', condition: Condition, results: readonly ModelResult[]): ProtocolModelColumn => ({
    id: `pmiyc-${measure}${suffix(condition)}`,
    title: `PMIYC ${measure}${named(condition)}`,
    description:
      measure === 'effectiveness'
        ? "the mean normalized change a model's arguments cause in its persuadees (the report's effectiveness; higher persuades more)"
        : "the mean normalized change a model undergoes as persuadee (the report's susceptibility; higher is persuaded more)",
    unit: 'conversations',
    cells: results
      .filter((result) => result.domain === condition.domain && result.setting === condition.setting)
      .map((result) => ({ model: result.model, cell: modelResultCell(result) })),
  });
  return conditions.flatMap((condition) => [
    column('effectiveness', condition, document.effectiveness),
    column('susceptibility', condition, document.susceptibility),
  ]);
}

/** The columns of every source, one per protocol and column id: a later run of a protocol fills in the models the earlier ones lack. */
function mergedColumns(sources: readonly ColumnSource[]) {
  const merged = new Map<string, { column: AcrossProtocolsColumn; cells: Map<string, { run: string; cell: ProtocolEstimateCell }> }>();
  const alsoIn: Array<AcrossProtocols['alsoIn'][number]> = [];
  for (const source of sources) {
    for (const column of source.columns) {
      const key = `${source.protocol}\u0000${column.id}`;
      const entry = merged.get(key) ?? {
        column: { id: column.id, title: column.title, protocol: source.protocol, description: column.description, unit: column.unit, runs: [] },
        cells: new Map(),
      };
      merged.set(key, entry);
      const runName = source.runs.join(' + ');
      for (const { model, cell } of column.cells) {
        const earlier = entry.cells.get(model);
        if (earlier === undefined) entry.cells.set(model, { run: runName, cell });
        else alsoIn.push({ model, column: column.title, run: earlier.run, alsoIn: runName });
      }
    }
  }
  const columns = [...merged.values()].map(({ column, cells }) => ({
    column: { ...column, runs: [...new Set([...cells.values()].map((entry) => entry.run))] },
    cells,
  }));
  return { columns, alsoIn };
}

const hasFigure = (cell: ProtocolEstimateCell | null | undefined): cell is ProtocolEstimateCell => cell != null && Number.isFinite(cell.estimate);

function correlationsOf(columns: readonly AcrossProtocolsColumn[], rows: readonly AcrossProtocolsRow[]): AcrossProtocolsCorrelation[] {
  return columns.flatMap((first, firstIndex) =>
    columns.slice(firstIndex + 1).map((second, offset) => {
      const secondIndex = firstIndex + 1 + offset;
      const pairs = rows
        .filter((row) => hasFigure(row.cells[firstIndex]) && hasFigure(row.cells[secondIndex]))
        .map((row) => [row.cells[firstIndex]!.estimate, row.cells[secondIndex]!.estimate] as const);
      const enough = pairs.length >= RANK_CORRELATION_MINIMUM_UNITS;
      const rank = enough ? spearmanCorrelation(pairs, RANK_CONFIDENCE) : { rho: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN };
      return { first: first.title, second: second.title, models: pairs.length, rho: rank.rho, ciLow: rank.ciLow, ciHigh: rank.ciHigh };
    }),
  );
}

/**
 * The table across the reported runs' protocols, or none when they hold fewer than two protocols (PMIYC's
 * tournament counting as one). The tournament's columns first, then each protocol's in the order its runs were named.
 */
export function acrossProtocolsOf(
  tournament: { readonly runs: readonly string[]; readonly document: Pick<ReportDocument, 'effectiveness' | 'susceptibility' | 'groups'> } | undefined,
  sections: readonly ReportProtocolSection[],
): AcrossProtocols | undefined {
  const sources: ColumnSource[] = [
    ...(tournament ? [{ protocol: 'pmiyc', runs: tournament.runs, columns: tournamentColumns(tournament.document) }] : []),
    ...sections.map((section) => ({ protocol: section.protocol, runs: [section.run], columns: section.figures.modelColumns ?? [] })),
  ];
  if (new Set(sources.filter((source) => source.columns.length > 0).map((source) => source.protocol)).size < 2) return undefined;
  const { columns, alsoIn } = mergedColumns(sources);
  const models = [...new Set(columns.flatMap(({ cells }) => [...cells.keys()]))].sort((a, b) => a.localeCompare(b));
  const rows = models.map((model) => ({ model, cells: columns.map(({ cells }) => cells.get(model)?.cell ?? null) }));
  const shown = columns.map(({ column }) => column);
  return {
    columns: shown,
    rows,
    correlations: correlationsOf(shown, rows),
    minimumModels: RANK_CORRELATION_MINIMUM_UNITS,
    confidence: RANK_CONFIDENCE,
    alsoIn,
  };
}
