import { DatasetError } from '../../domain/errors/dataset-error.js';
import { LPB_ALIGNMENTS, LPB_CELL_COLUMNS, LPB_OUTCOMES, LPB_SIDES, LPB_STANCE_SCALE, type LpbOutcome, type LpbSide } from './lpb-facts.js';
import type { MarkdownRow, MarkdownTable } from './lpb-markdown-tables.js';

/** One row of the per-cell table, read and checked: one conversation of one persuader and target on one side of a proposition. */
export interface LpbCell {
  /** `prop_NNNN__<persuader>__<target>__<pro|con>__<condition>`: the cell's name, and its item key in the run. */
  readonly cell: string;
  readonly proposition: string;
  readonly persuader: string;
  readonly target: string;
  readonly side: LpbSide;
  readonly condition: string;
  readonly outcome: LpbOutcome;
  readonly terminalStage: string | null;
  readonly terminalError: string | null;
  /** The mean of the pre probes on the proposition's scale (-3..3), as published (three decimals). */
  readonly preMean: number | null;
  readonly preRoomToMove: number | null;
  readonly conversionOrConsolidation: string | null;
  readonly postMean: number | null;
  /** Post minus pre, sign-flipped for `con`: positive is toward the persuader's side. */
  readonly signedShift: number | null;
  readonly reconClipped: number | null;
  readonly persuasionClipped: number | null;
  readonly startAlignment: string | null;
  readonly endAlignment: string | null;
  /** The row's line in the report. */
  readonly line: number;
}

const ALIGNMENT_WORDS = [...LPB_ALIGNMENTS, 'unknown'];
/** Three-decimal rounding of the published figures: a shift may differ from post - pre by two roundings. */
const ROUNDING_SLACK = 0.0015;

type Problem = (detail: string) => DatasetError;

const textOrNull = (value: string) => (value === '' ? null : value);

function numberOrNull(value: string, column: string, problem: Problem): number | null {
  if (value === '') return null;
  if (!/^-?\d+(\.\d+)?$/.test(value)) throw problem(`${column} is "${value}", not a number`);
  return Number(value);
}

function countOrNull(value: string, column: string, problem: Problem): number | null {
  const parsed = numberOrNull(value, column, problem);
  if (parsed !== null && !Number.isInteger(parsed)) throw problem(`${column} is "${value}", not a whole count`);
  return parsed;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], column: string, problem: Problem): T {
  const found = allowed.find((known) => known === value);
  if (found === undefined) throw problem(`${column} is "${value}", not one of ${allowed.join(', ')}`);
  return found;
}

/** The parts of a cell's name; a name not in the benchmark's shape is a problem. */
function partsOfName(cell: string, problem: Problem) {
  const parts = cell.split('__');
  const [proposition, persuader, target, side, condition] = parts;
  if (parts.length !== 5 || !/^prop_\d+$/.test(proposition!) || !persuader || !target || !condition)
    throw problem(`the cell "${cell}" is not named prop_NNNN__<persuader>__<target>__<pro|con>__<condition>`);
  return { proposition: proposition!, persuader, target, side: oneOf(side!, LPB_SIDES, "the cell name's side", problem), condition };
}

function checkedMeans(cell: Pick<LpbCell, 'outcome' | 'side' | 'preMean' | 'postMean' | 'signedShift'>, problem: Problem): void {
  const { low, high } = LPB_STANCE_SCALE;
  for (const [name, value] of [
    ['Pre mean', cell.preMean],
    ['Post mean', cell.postMean],
  ] as const)
    if (value !== null && (value < low || value > high)) throw problem(`${name} ${value} is off the stance scale ${low}..${high}`);
  if (cell.outcome !== 'completed') return;
  if (cell.preMean === null || cell.postMean === null || cell.signedShift === null)
    throw problem('a completed cell has no Pre mean, Post mean or Signed shift');
  const expected = (cell.postMean - cell.preMean) * (cell.side === 'con' ? -1 : 1);
  if (Math.abs(expected - cell.signedShift) > ROUNDING_SLACK)
    throw problem(`Signed shift ${cell.signedShift} is not Post mean - Pre mean (${expected.toFixed(3)}) signed for the ${cell.side} side`);
}

/** One per-cell row read and checked; a problem is a DatasetError naming the file and line. */
function cellOf(file: string, row: MarkdownRow): LpbCell {
  const problem: Problem = (detail) => new DatasetError({ file, line: row.line }, `${detail}: is this the benchmark's per-cell table?`);
  const cell = (column: (typeof LPB_CELL_COLUMNS)[number]) => row.cells.get(column) ?? '';
  const name = partsOfName(cell('Cell'), problem);
  if (cell('Side') !== name.side) throw problem(`Side is "${cell('Side')}" but the cell's name says ${name.side}`);
  if (cell('Condition') !== name.condition) throw problem(`Condition is "${cell('Condition')}" but the cell's name says ${name.condition}`);
  const alignment = (column: 'Start alignment' | 'End alignment') => (cell(column) === '' ? null : oneOf(cell(column), ALIGNMENT_WORDS, column, problem));
  const read: LpbCell = {
    cell: cell('Cell'),
    ...name,
    outcome: oneOf(cell('Outcome'), LPB_OUTCOMES, 'Outcome', problem),
    terminalStage: textOrNull(cell('Terminal stage')),
    terminalError: textOrNull(cell('Terminal error')),
    preMean: numberOrNull(cell('Pre mean'), 'Pre mean', problem),
    preRoomToMove: numberOrNull(cell('Pre room to move'), 'Pre room to move', problem),
    conversionOrConsolidation: textOrNull(cell('Conversion vs consolidation')),
    postMean: numberOrNull(cell('Post mean'), 'Post mean', problem),
    signedShift: numberOrNull(cell('Signed shift'), 'Signed shift', problem),
    reconClipped: countOrNull(cell('Recon clipped'), 'Recon clipped', problem),
    persuasionClipped: countOrNull(cell('Persuasion clipped'), 'Persuasion clipped', problem),
    startAlignment: alignment('Start alignment'),
    endAlignment: alignment('End alignment'),
    line: row.line,
  };
  checkedMeans(read, problem);
  return read;
}

/**
 * The per-cell table read row by row: every cell checked (its name's parts, side and condition against its
 * columns, the outcome, numbers on the scale, the signed shift against the two means), a cell given twice
 * refused. The first problem is a DatasetError naming the file and line.
 */
export function lpbCellsOf(file: string, table: MarkdownTable): LpbCell[] {
  const missing = LPB_CELL_COLUMNS.filter((column) => !table.header.includes(column));
  if (missing.length > 0)
    throw new DatasetError({ file, line: table.headerLine }, `the per-cell table lacks the columns ${missing.join(', ')}: is this the benchmark's report?`);
  const seen = new Map<string, number>();
  return table.rows.map((row) => {
    const cell = cellOf(file, row);
    const earlier = seen.get(cell.cell);
    if (earlier !== undefined) throw new DatasetError({ file, line: row.line }, `the cell ${cell.cell} is given again (first at line ${earlier})`);
    seen.set(cell.cell, row.line);
    return cell;
  });
}
