import { AGREEMENT_SCORES } from '../../domain/agreement-score.js';
import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import type { ModelResult, PairResult } from '../../metrics/group-tally.js';
import type { ProtocolEstimateCell } from '../../studies/protocol-outputs.js';
import { conditionLabel } from '../charts/chart-theme.js';
import { formatNumber } from '../number-format.js';
import type { ReportDocument } from '../report-document.js';

/**
 * An estimate cell: value, interval and n, shown "0.42 [0.31, 0.55] n = 36" or "n/a". n means one
 * thing in a table (conversations, claims, ...): the table's header says which. The same shape a
 * protocol's section hands the report (studies/protocol-outputs.ts), so both render alike.
 */
export type EstimateCell = ProtocolEstimateCell;

/** A model name cell: renderers add the simulated label. */
interface ModelCell {
  readonly model: string;
}

export type TableCell = string | number | EstimateCell | ModelCell;

/** A table both the HTML and the Markdown writer render: one definition of what is shown. */
export interface ReportTable {
  /** Column titles; a model column title is a model cell, so that it carries the simulated label. */
  readonly header: readonly (string | ModelCell)[];
  readonly rows: readonly (readonly TableCell[])[];
}

export interface Condition {
  readonly domain: Domain;
  readonly setting: Setting;
}

const ORDER = (condition: Condition) => (condition.domain === 'subjective' ? 0 : 2) + (condition.setting === 'single' ? 0 : 1);

/** The conditions (domain x setting) present, in the paper's order. */
export function conditionsOf(document: Pick<ReportDocument, 'groups'>): Condition[] {
  return document.groups.map(({ domain, setting }) => ({ domain, setting })).sort((a, b) => ORDER(a) - ORDER(b));
}

const sameCondition = (a: Condition, b: Condition) => a.domain === b.domain && a.setting === b.setting;
const missing: EstimateCell = { estimate: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN, n: 0 };

/** The reason of a result without data, for its cell. */
const reasonOf = (result: { readonly reason: string | null }): { reason?: string } => (result.reason === null ? {} : { reason: result.reason });

/** A model's effectiveness or susceptibility in one condition as a cell: the value, its interval, n = conversations, and why it has none. */
export const modelResultCell = (result: ModelResult): EstimateCell => ({
  estimate: result.value,
  ciLow: result.ciLow,
  ciHigh: result.ciHigh,
  n: result.n,
  thin: result.thin,
  ...reasonOf(result),
});

/** Models of a list of results, sorted by name. */
export function modelsOf(results: ReadonlyArray<{ model: string }>): string[] {
  return [...new Set(results.map((result) => result.model))].sort();
}

/** Effectiveness or susceptibility (NC or absolute): one row per model, one column per condition. */
export function modelTable(document: ReportDocument, results: readonly ModelResult[]): ReportTable {
  const conditions = conditionsOf(document);
  return {
    header: ['model', ...conditions.map((condition) => `${conditionLabel(condition.domain, condition.setting)} (n = conversations)`)],
    rows: modelsOf(results).map((model) => [
      { model },
      ...conditions.map((condition): EstimateCell => {
        const result = results.find((entry) => entry.model === model && sameCondition(entry, condition));
        return result ? modelResultCell(result) : missing;
      }),
    ]),
  };
}

/** One condition's matrix as a table: persuaders down, persuadees across, NC or absolute change. */
export function pairMatrixTable(pairs: readonly PairResult[], measure: 'nc' | 'absolute' = 'nc'): ReportTable {
  const persuaders = [...new Set(pairs.map((pair) => pair.persuader))].sort();
  const persuadees = [...new Set(pairs.map((pair) => pair.persuadee))].sort();
  return {
    header: ['persuader \\ persuadee (n = conversations)', ...persuadees.map((model): ModelCell => ({ model }))],
    rows: persuaders.map((persuader) => [
      { model: persuader },
      ...persuadees.map((persuadee): EstimateCell => {
        const pair = pairs.find((entry) => entry.persuader === persuader && entry.persuadee === persuadee);
        if (!pair) return missing;
        return measure === 'nc'
          ? { estimate: pair.meanNC, ciLow: pair.ciLow, ciHigh: pair.ciHigh, n: pair.n, thin: pair.thin, ...reasonOf(pair) }
          : { estimate: pair.meanAbsoluteChange, ciLow: pair.absoluteCiLow, ciHigh: pair.absoluteCiHigh, n: pair.n, thin: pair.thin, ...reasonOf(pair) };
      }),
    ]),
  };
}

/** Figure 6 as numbers: one row per persuader and domain, one column per persuadee turn. */
export function turnCurveTable(document: ReportDocument, setting: Setting): ReportTable {
  const curves = document.turnCurves.filter((curve) => curve.setting === setting);
  const turns = [...new Set(curves.flatMap((curve) => curve.points.map((point) => point.turn)))].sort((a, b) => a - b);
  return {
    header: ['persuader', 'domain', ...turns.map((turn) => `turn ${turn} (n = conversations)`)],
    rows: curves.map((curve) => [
      { model: curve.persuader },
      curve.domain,
      ...turns.map((turn) => {
        const point = curve.points.find((candidate) => candidate.turn === turn);
        return point ? `${formatNumber(point.meanScore)} (n = ${point.n})` : 'n/a';
      }),
    ]),
  };
}

/** Figure 7 as numbers. */
export function stanceTable(document: ReportDocument): ReportTable {
  const conditions = conditionsOf(document);
  return {
    header: ["persuader's stance", ...conditions.map((condition) => `${conditionLabel(condition.domain, condition.setting)} (n = conversations)`)],
    rows: (conditions.length === 0 ? [] : ['opposing', 'neutral', 'supporting']).map((group) => [
      group,
      ...conditions.map((condition): EstimateCell => {
        const result = document.stanceGroups.find((entry) => entry.group === group && sameCondition(entry, condition));
        return result ? { estimate: result.meanNC, ciLow: result.ciLow, ciHigh: result.ciHigh, n: result.n, thin: result.thin } : missing;
      }),
    ]),
  };
}

/** Appendix A as numbers: an opening is one persuadee's first score on one claim, counted once. */
export function initialScoresTable(document: ReportDocument): ReportTable {
  const rows = [...document.initialScores].sort((a, b) => a.domain.localeCompare(b.domain) * -1 || a.persuadee.localeCompare(b.persuadee));
  return {
    header: ['persuadee', 'domain', ...AGREEMENT_SCORES.map(String), 'openings', 'mean'],
    rows: rows.map((entry) => [
      { model: entry.persuadee },
      entry.domain,
      ...AGREEMENT_SCORES.map((score) => entry.counts[`${score}`]),
      entry.n,
      formatNumber(entry.mean),
    ]),
  };
}
