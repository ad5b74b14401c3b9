import { createHash } from 'node:crypto';
import { parse as parseCsv } from 'csv-parse/sync';
import { DatasetError } from '../domain/errors/dataset-error.js';
import { deriveSeed } from '../domain/random.js';
import { compareByCodePoint } from './code-point-order.js';

/**
 * Preference pairs for the LLM-as-judge study (paper Sec. 4.1.2) from the human ratings of the
 * Anthropic persuasion data. The rule, with the counts it gives on the 3-claim sample, is in
 * docs/design/judge.md.
 */

/** Two arguments for the same claim, one of which people found more persuasive. */
export interface JudgePair {
  /** Stable: a hash of the claim and both argument texts, independent of which is better. */
  readonly id: string;
  readonly claim: string;
  readonly morePersuasive: string;
  readonly lessPersuasive: string;
  /** How much more persuasive: the better argument's score minus the other's (> 0; rating-scale points). */
  readonly scoreDifference: number;
}

/** One argument with its score: the mean over its raters of rating_final - rating_initial (1-7 scale). */
export interface RatedArgument {
  readonly claim: string;
  readonly argument: string;
  /** Sum of the raters' changes and their number, kept as integers so that comparisons are exact. */
  readonly changeSum: number;
  readonly raters: number;
}

export interface JudgePairSet {
  readonly pairs: JudgePair[];
  readonly claims: number;
  readonly arguments: number;
  /** Pairs of arguments with equal scores, which have no better argument and are left out. */
  readonly ties: number;
  /** Claims left out because they are Control claims (rated without an argument). */
  readonly controlClaims: number;
}

const REQUIRED_COLUMNS = ['claim', 'argument', 'source', 'rating_initial', 'rating_final'] as const;

/** "6 - Support" -> 6; the ratings are on a 1-7 scale. */
function readRating(location: string, row: number, column: string, value: string | undefined): number {
  const match = /^\s*([1-7])(?!\d)/.exec(value ?? '');
  if (!match) throw new DatasetError({ file: location }, `record ${row}: ${column} "${value ?? ''}" does not start with a rating from 1 to 7`);
  return Number(match[1]);
}

/**
 * The rated arguments of the Anthropic persuasion CSV (`worker_id` or the sample's `ID`,
 * `claim, argument, source, prompt_type, rating_initial, rating_final`). Rows of a claim that
 * has any `Control` row are left out. Arguments are grouped by their exact text within a claim.
 */
export function parseAnthropicRatings(location: string, text: string): { arguments: RatedArgument[]; controlClaims: number } {
  let rows: Array<Record<string, string>>;
  try {
    rows = parseCsv(text, { columns: true, bom: true, skip_empty_lines: true }) as Array<Record<string, string>>;
  } catch (error) {
    throw new DatasetError({ file: location }, `not valid CSV (${(error as Error).message})`);
  }
  const present = Object.keys(rows[0] ?? {});
  const missing = REQUIRED_COLUMNS.filter((column) => !present.includes(column));
  if (missing.length > 0)
    throw new DatasetError(
      { file: location },
      `missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (has ${present.join(', ')}): is this the Anthropic persuasion CSV?`,
    );
  const control = new Set(rows.filter((row) => row['source'] === 'Control').map((row) => row['claim']!));
  const byArgument = new Map<string, { claim: string; argument: string; changeSum: number; raters: number }>();
  rows.forEach((row, position) => {
    const claim = row['claim']!;
    if (control.has(claim)) return;
    const change =
      readRating(location, position + 1, 'rating_final', row['rating_final']) - readRating(location, position + 1, 'rating_initial', row['rating_initial']);
    const key = `${claim}\u0000${row['argument']!}`;
    const entry = byArgument.get(key) ?? { claim, argument: row['argument']!, changeSum: 0, raters: 0 };
    entry.changeSum += change;
    entry.raters += 1;
    byArgument.set(key, entry);
  });
  return { arguments: [...byArgument.values()], controlClaims: control.size };
}

/** The stable id of a pair: the first 16 hex digits of sha256 over the claim and both texts in code-point order. */
export function judgePairId(claim: string, first: string, second: string): string {
  const texts = [first, second].sort(compareByCodePoint);
  return createHash('sha256')
    .update(JSON.stringify([claim, ...texts]))
    .digest('hex')
    .slice(0, 16);
}

/** a - b of two mean scores, exact in integers, rounded to 9 decimals (so that 7/3 - 4/3 is 1, not 1.0000000000000002). */
function scoreDifferenceOf(a: RatedArgument, b: RatedArgument): number {
  const exact = (a.changeSum * b.raters - b.changeSum * a.raters) / (a.raters * b.raters);
  return Math.round(exact * 1e9) / 1e9;
}

/**
 * Every two arguments of a claim whose scores differ form a pair; the more persuasive is the one
 * with the higher score. No cap per claim. Claims in code-point order, arguments within a claim
 * in code-point order, pairs (i < j) in that order: the list does not depend on row order.
 */
export function buildJudgePairs(rated: { arguments: readonly RatedArgument[]; controlClaims: number }): JudgePairSet {
  const byClaim = new Map<string, RatedArgument[]>();
  for (const argument of rated.arguments) {
    const list = byClaim.get(argument.claim) ?? [];
    list.push(argument);
    byClaim.set(argument.claim, list);
  }
  const pairs: JudgePair[] = [];
  let ties = 0;
  for (const claim of [...byClaim.keys()].sort(compareByCodePoint)) {
    const list = byClaim.get(claim)!.sort((a, b) => compareByCodePoint(a.argument, b.argument));
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const difference = scoreDifferenceOf(list[i]!, list[j]!);
        if (difference === 0) {
          ties += 1;
          continue;
        }
        const [better, worse] = difference > 0 ? [list[i]!, list[j]!] : [list[j]!, list[i]!];
        pairs.push({
          id: judgePairId(claim, better.argument, worse.argument),
          claim,
          morePersuasive: better.argument,
          lessPersuasive: worse.argument,
          scoreDifference: Math.abs(difference),
        });
      }
    }
  }
  return { pairs, claims: byClaim.size, arguments: rated.arguments.length, ties, controlClaims: rated.controlClaims };
}

export interface JudgePairSelection {
  /** The first N pairs. */
  readonly limit?: number;
  /** A seeded sample of N pairs (the N with the lowest seeded rank), kept in list order. */
  readonly sample?: number;
  readonly seed?: number;
}

/** A pilot selection of pairs: `sample` first, then `limit`. */
export function selectJudgePairs(pairs: readonly JudgePair[], selection: JudgePairSelection): JudgePair[] {
  let selected = [...pairs];
  if (selection.sample !== undefined && selection.sample < selected.length) {
    const rank = (pair: JudgePair) => deriveSeed(selection.seed ?? 0, ['judge-sample', pair.id]);
    const chosen = new Set([...selected].sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id)).slice(0, selection.sample));
    selected = selected.filter((pair) => chosen.has(pair));
  }
  return selection.limit === undefined ? selected : selected.slice(0, selection.limit);
}

/** A checksum of a pair list's content and order: a resumed judge run must see the same pairs. */
export function judgePairsChecksum(pairs: readonly JudgePair[]): string {
  const hash = createHash('sha256');
  for (const pair of pairs) hash.update(JSON.stringify([pair.id, pair.claim, pair.morePersuasive, pair.lessPersuasive, pair.scoreDifference]));
  return hash.digest('hex');
}
