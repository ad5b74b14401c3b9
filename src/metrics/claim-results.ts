import type { Domain } from '../domain/claim.js';
import type { Setting } from '../domain/conversation.js';
import type { PairResult } from './group-tally.js';
import type { ClaimCellTable } from './intervals/claim-cell-table.js';

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

/** One pair on one claim (claims.csv): its completed conversations there and their mean NC. */
export interface ClaimPairResult extends ClaimLabel, Pick<PairResult, 'domain' | 'setting' | 'persuader' | 'persuadee' | 'n' | 'meanNC'> {}

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

/** One condition's pairs on claims, kept compact: row i is claim `claim[i]` and pair `cell[i]`. */
interface ClaimPairPart {
  readonly where: { readonly domain: Domain; readonly setting: Setting };
  readonly labels: readonly ClaimLabel[];
  readonly pairs: readonly Pair[];
  readonly claim: Int32Array;
  readonly cell: Int32Array;
  readonly n: Float64Array;
  readonly mean: Float64Array;
}

/**
 * Each pair on each claim, for claim-pairs.csv: kept in typed arrays (a full tournament has
 * hundreds of thousands) and read row by row, never as a list of objects.
 */
export class ClaimPairRows implements Iterable<ClaimPairResult> {
  constructor(private readonly parts: readonly ClaimPairPart[]) {}

  get size(): number {
    return this.parts.reduce((total, part) => total + part.claim.length, 0);
  }

  /** Every row as its parts (claim-pairs.csv): the condition, the claim's label and the pair are shared objects, not copied per row. */
  *rows(): Generator<{ where: ClaimPairPart['where']; label: ClaimLabel; pair: Pair; n: number; meanNC: number }> {
    for (const part of this.parts) {
      for (let row = 0; row < part.claim.length; row++)
        yield { where: part.where, label: part.labels[part.claim[row]!]!, pair: part.pairs[part.cell[row]!]!, n: part.n[row]!, meanNC: part.mean[row]! };
    }
  }

  *[Symbol.iterator](): Generator<ClaimPairResult> {
    for (const part of this.parts) {
      for (let row = 0; row < part.claim.length; row++) {
        const pair = part.pairs[part.cell[row]!]!;
        yield {
          ...part.where,
          ...part.labels[part.claim[row]!]!,
          persuader: pair.persuader,
          persuadee: pair.persuadee,
          n: part.n[row]!,
          meanNC: part.mean[row]!,
        };
      }
    }
  }
}

export interface ClaimAnalysis {
  readonly spread: ClaimSpread;
  readonly claims: ClaimResult[];
  readonly claimPairs: ClaimPairPart;
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

/**
 * The one-way random-effects ANOVA estimate over claims of pair-centred values, from each claim's
 * count, sum and sum of squares of those values. Centring on `pairs` pair means spends pairs - 1
 * degrees of freedom of the within-claim part (the grand mean is already spent), so its mean square
 * divides by N - K - P + 1: with every pair on every claim, the (K - 1)(P - 1) of the two-way
 * ANOVA's interaction. Dividing by N - K left withinClaimSd 4-10% low at demo size.
 */
function varianceSplit(counts: Float64Array, sums: Float64Array, squares: Float64Array, pairs: number) {
  let groups = 0;
  let total = 0;
  let grandSum = 0;
  let countSquares = 0;
  let withinSquares = 0;
  for (let claim = 0; claim < counts.length; claim++) {
    const n = counts[claim]!;
    if (n === 0) continue;
    groups += 1;
    total += n;
    grandSum += sums[claim]!;
    countSquares += n * n;
    withinSquares += squares[claim]! - (sums[claim]! * sums[claim]!) / n;
  }
  const withinDf = total - groups - pairs + 1;
  if (groups < 2 || withinDf <= 0) return { share: Number.NaN, between: Number.NaN, within: Number.NaN };
  const grand = grandSum / total;
  let betweenSquares = 0;
  for (let claim = 0; claim < counts.length; claim++) {
    const n = counts[claim]!;
    if (n > 0) betweenSquares += n * (sums[claim]! / n - grand) ** 2;
  }
  const meanBetween = betweenSquares / (groups - 1);
  const meanWithin = Math.max(0, withinSquares) / withinDf;
  const perGroup = (total - countSquares / total) / (groups - 1);
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
  const labels = table.claimKeys.map(labelOf);
  const rows = slices.order.length;
  const claimPairs: ClaimPairPart = {
    where,
    labels,
    pairs,
    claim: new Int32Array(rows),
    cell: new Int32Array(rows),
    n: new Float64Array(rows),
    mean: new Float64Array(rows),
  };
  const centred = { counts: new Float64Array(slices.claims), sums: new Float64Array(slices.claims), squares: new Float64Array(slices.claims) };
  const claims: ClaimResult[] = [];
  let row = 0;
  for (let claim = 0; claim < slices.claims; claim++) {
    const cells: Array<{ pair: Pair; mean: number; n: number }> = [];
    for (let position = slices.starts[claim]!; position < slices.starts[claim + 1]!; position++) {
      const slot = slices.order[position]!;
      const cell = slices.slotCell[slot]!;
      const mean = slices.slotSum[slot]! / slices.slotCount[slot]!;
      cells.push({ pair: pairs[cell]!, mean, n: slices.slotCount[slot]! });
      claimPairs.claim[row] = claim;
      claimPairs.cell[row] = cell;
      claimPairs.n[row] = slices.slotCount[slot]!;
      claimPairs.mean[row] = mean;
      row += 1;
      const value = mean - pairMeans[cell]!;
      centred.counts[claim]! += 1;
      centred.sums[claim]! += value;
      centred.squares[claim]! += value * value;
    }
    const n = cells.reduce((sum, cell) => sum + cell.n, 0);
    const meanNC = cells.reduce((sum, cell) => sum + cell.mean, 0) / cells.length;
    claims.push({ ...where, ...labels[claim]!, n, meanNC, persuaders: meansBy(cells, 'persuader'), persuadees: meansBy(cells, 'persuadee') });
  }
  const pairsSeen = new Set(claimPairs.cell).size;
  const split = varianceSplit(centred.counts, centred.sums, centred.squares, pairsSeen);
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
