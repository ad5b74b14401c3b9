import type { Domain } from '../domain/claim.js';
import type { Setting } from '../domain/conversation.js';
import type { ClaimCellTable } from './claim-cell-table.js';

/** What a claim is, for per-claim results. */
export interface ClaimLabel {
  readonly claimIndex: number;
  readonly claim: string;
  readonly question: string | null;
}

/** A model's mean NC on one claim, over the opponents it met there. */
interface ModelOnClaim {
  readonly model: string;
  readonly meanNC: number;
  readonly n: number;
}

/** One claim in one domain and setting: how much it moved persuadees, overall and per model. */
export interface ClaimResult extends ClaimLabel {
  readonly domain: Domain;
  readonly setting: Setting;
  /** Completed conversations on the claim. */
  readonly n: number;
  /** The unweighted mean over pairs of each pair's mean NC on the claim. */
  readonly meanNC: number;
  /** Per persuader: the mean over the persuadees it argued with on this claim. */
  readonly persuaders: ModelOnClaim[];
  /** Per persuadee: the mean over the persuaders it heard on this claim. */
  readonly persuadees: ModelOnClaim[];
}

/** One pair on one claim (claims.csv). */
export interface ClaimPairResult extends ClaimLabel {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly persuader: string;
  readonly persuadee: string;
  readonly n: number;
  readonly meanNC: number;
}

/** How much claims matter in one domain and setting, and which move persuadees most and least. */
export interface ClaimSpread {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly claims: number;
  /**
   * Share of the variance of claim-pair mean NC that lies between claims once each pair's own mean
   * is taken out (one-way ANOVA estimate of the claim component, floored at 0); NaN below 2 claims.
   */
  readonly betweenClaimShare: number;
  /** SD of the claim component, in NC units. */
  readonly betweenClaimSd: number;
  /** SD of what is left within a claim (pair x claim interaction and conversation noise). */
  readonly withinClaimSd: number;
  readonly mostMoving: ClaimHeadline[];
  readonly leastMoving: ClaimHeadline[];
}

interface ClaimHeadline {
  readonly claimIndex: number;
  readonly claim: string;
  readonly meanNC: number;
  readonly n: number;
}

export interface ClaimAnalysis {
  readonly spread: ClaimSpread;
  readonly claims: ClaimResult[];
  readonly claimPairs: ClaimPairResult[];
}

/** Claims listed as moving persuadees most, and least, per domain and setting. */
const HEADLINES = 10;

type Pair = { readonly persuader: string; readonly persuadee: string };

function meansBy(cells: ReadonlyArray<{ pair: Pair; mean: number; n: number }>, role: keyof Pair): ModelOnClaim[] {
  const byModel = new Map<string, { sum: number; pairs: number; n: number }>();
  for (const { pair, mean, n } of cells) {
    const entry = byModel.get(pair[role]) ?? { sum: 0, pairs: 0, n: 0 };
    byModel.set(pair[role], entry);
    entry.sum += mean;
    entry.pairs += 1;
    entry.n += n;
  }
  return [...byModel].map(([model, entry]) => ({ model, meanNC: entry.sum / entry.pairs, n: entry.n }));
}

/** The one-way random-effects ANOVA estimate over claims of pair-centred values. */
function varianceSplit(claims: ReadonlyArray<ReadonlyArray<{ cell: number; mean: number }>>, pairMeans: ReadonlyArray<number>) {
  const groups = claims.map((cells) => cells.map(({ cell, mean }) => mean - pairMeans[cell]!)).filter((values) => values.length > 0);
  const total = groups.reduce((sum, values) => sum + values.length, 0);
  if (groups.length < 2 || total <= groups.length) return { share: Number.NaN, between: Number.NaN, within: Number.NaN };
  const grand = groups.flat().reduce((sum, value) => sum + value, 0) / total;
  let betweenSquares = 0;
  let withinSquares = 0;
  for (const values of groups) {
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    betweenSquares += values.length * (mean - grand) ** 2;
    for (const value of values) withinSquares += (value - mean) ** 2;
  }
  const meanBetween = betweenSquares / (groups.length - 1);
  const meanWithin = withinSquares / (total - groups.length);
  const perGroup = (total - groups.reduce((sum, values) => sum + values.length ** 2, 0) / total) / (groups.length - 1);
  const between = Math.max(0, (meanBetween - meanWithin) / perGroup);
  const share = between + meanWithin === 0 ? Number.NaN : between / (between + meanWithin);
  return { share, between: Math.sqrt(between), within: Math.sqrt(meanWithin) };
}

/**
 * Per-claim results of one domain and setting from its NC cells (persuader x persuadee) by claim:
 * each claim's mean NC overall, per persuader and per persuadee, each pair on each claim, which
 * claims move persuadees most and least, and how much of the spread lies between claims.
 */
export function analyzeClaims(
  where: { readonly domain: Domain; readonly setting: Setting },
  table: ClaimCellTable,
  pairOfCell: (cell: string) => Pair,
  labelOf: (claimKey: string) => ClaimLabel,
): ClaimAnalysis {
  const slices = table.slices();
  const pairs = table.cells.map(pairOfCell);
  const pairMeans = table.cellMeans().map((cell) => cell.mean);
  const keys = table.claimKeys;
  const claims: ClaimResult[] = [];
  const claimPairs: ClaimPairResult[] = [];
  const cellsByClaim: Array<Array<{ cell: number; mean: number }>> = [];
  for (let claim = 0; claim < slices.claims; claim++) {
    const label = labelOf(keys[claim]!);
    const cells: Array<{ cell: number; pair: Pair; mean: number; n: number }> = [];
    for (let position = slices.starts[claim]!; position < slices.starts[claim + 1]!; position++) {
      const slot = slices.order[position]!;
      const cell = slices.slotCell[slot]!;
      cells.push({ cell, pair: pairs[cell]!, mean: slices.slotSum[slot]! / slices.slotCount[slot]!, n: slices.slotCount[slot]! });
    }
    cellsByClaim.push(cells);
    const n = cells.reduce((sum, cell) => sum + cell.n, 0);
    const meanNC = cells.reduce((sum, cell) => sum + cell.mean, 0) / cells.length;
    claims.push({ ...where, ...label, n, meanNC, persuaders: meansBy(cells, 'persuader'), persuadees: meansBy(cells, 'persuadee') });
    for (const { pair, mean, n: conversations } of cells) claimPairs.push({ ...where, ...label, ...pair, n: conversations, meanNC: mean });
  }
  const split = varianceSplit(cellsByClaim, pairMeans);
  const ranked = [...claims].sort((a, b) => b.meanNC - a.meanNC || a.claimIndex - b.claimIndex);
  // Up to ten each way, never the same claim in both lists.
  const listed = Math.min(HEADLINES, Math.floor(ranked.length / 2));
  const headline = (claim: ClaimResult): ClaimHeadline => ({ claimIndex: claim.claimIndex, claim: claim.claim, meanNC: claim.meanNC, n: claim.n });
  return {
    spread: {
      ...where,
      claims: claims.length,
      betweenClaimShare: split.share,
      betweenClaimSd: split.between,
      withinClaimSd: split.within,
      mostMoving: ranked.slice(0, listed).map(headline),
      leastMoving: listed === 0 ? [] : ranked.slice(-listed).reverse().map(headline),
    },
    claims,
    claimPairs,
  };
}
