import { DatasetError } from '../../domain/errors/dataset-error.js';
import { LPB_DIAGNOSTICS_LEADING_COLUMNS, LPB_PROBE_COLUMNS, LPB_STANCE_SCALE } from './lpb-facts.js';
import type { MarkdownTable } from './lpb-markdown-tables.js';

/**
 * The report's sections beside the per-cell table that a cell's record takes from: the topics' names (`Shift by
 * Topic`), the probes of the unstable cells (`Measurement Stability Watchlist`) and the conversation problems
 * flagged (`Conversation Diagnostics Watchlist`). Each row is checked; a problem names the file and line.
 */

/** The pre and post stance probes of one cell, as the watchlist prints them. */
export interface LpbProbes {
  readonly pre: readonly number[];
  readonly post: readonly number[];
}

/** A diagnostics column's key: its words in camelCase, each lower-cased first (`Recon XML-like`: `reconXmlLike`). */
function lpbDiagnosticKey(column: string): string {
  const words = column.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  return words.map((word, at) => (at === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())).join('');
}

/** A topic's short name by its proposition id (`prop_0004`). */
export function lpbTopicsOf(file: string, table: MarkdownTable | null): Map<string, string> {
  const topics = new Map<string, string>();
  for (const row of table?.rows ?? []) {
    const id = row.cells.get('Topic ID') ?? '';
    const topic = row.cells.get('Topic') ?? '';
    if (!/^prop_\d+$/.test(id) || topic === '') throw new DatasetError({ file, line: row.line }, `a topic row needs a Topic ID (prop_NNNN) and a Topic`);
    topics.set(id, topic);
  }
  return topics;
}

function stancesOf(file: string, line: number, column: string, value: string): number[] {
  const stances = value.split(',').map((part) => part.trim());
  const { low, high } = LPB_STANCE_SCALE;
  if (stances.some((part) => !/^-?\d+$/.test(part) || Number(part) < low || Number(part) > high))
    throw new DatasetError({ file, line }, `${column} is "${value}", not stances from ${low} to ${high} separated by commas`);
  return stances.map(Number);
}

/** Each listed cell's probes, by cell. */
export function lpbProbesOf(file: string, table: MarkdownTable | null): Map<string, LpbProbes> {
  const probes = new Map<string, LpbProbes>();
  for (const row of table?.rows ?? []) {
    const cell = row.cells.get(LPB_PROBE_COLUMNS.cell) ?? '';
    const pre = stancesOf(file, row.line, LPB_PROBE_COLUMNS.pre, row.cells.get(LPB_PROBE_COLUMNS.pre) ?? '');
    const post = stancesOf(file, row.line, LPB_PROBE_COLUMNS.post, row.cells.get(LPB_PROBE_COLUMNS.post) ?? '');
    probes.set(cell, { pre, post });
  }
  return probes;
}

/**
 * Each listed cell's diagnostics, by cell: every count column of the watchlist under its camelCase name
 * (`Persuasion label echo`: `persuasionLabelEcho`), so a column a later bundle adds is kept too.
 */
export function lpbDiagnosticsOf(file: string, table: MarkdownTable | null): Map<string, Record<string, number>> {
  const diagnostics = new Map<string, Record<string, number>>();
  if (table === null) return diagnostics;
  const counted = table.header.filter((column) => !(LPB_DIAGNOSTICS_LEADING_COLUMNS as readonly string[]).includes(column));
  for (const row of table.rows) {
    const counts: Record<string, number> = {};
    for (const column of counted) {
      const value = row.cells.get(column) ?? '';
      if (!/^\d+$/.test(value)) throw new DatasetError({ file, line: row.line }, `${column} is "${value}", not a whole count`);
      counts[lpbDiagnosticKey(column)] = Number(value);
    }
    diagnostics.set(row.cells.get('Cell') ?? '', counts);
  }
  return diagnostics;
}
