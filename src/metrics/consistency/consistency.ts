import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Domain } from '../../domain/claim.js';
import { type BootstrapOptions, ClaimCellTable, DEFAULT_BOOTSTRAP } from '../intervals/claim-cell-table.js';
import { modeOf, modesOf, scoreSpread, studyClaimKey } from './consistency-spread.js';

/** One stored answer of the consistency study: a model's stance on a claim, asked once. */
export interface StanceSample {
  readonly model: string;
  readonly domain: Domain;
  readonly claimIndex: number;
  readonly claim: string;
  /** Null when no usable answer was had in any attempt. */
  readonly score: AgreementScore | null;
  /** Unusable replies among its attempts (those that were re-asked included). */
  readonly unusable: number;
}

/** One opening of a tournament run: a persuadee's initial score on a claim, counted once. */
export interface OpeningScore {
  readonly model: string;
  readonly domain: Domain;
  readonly claimIndex: number;
  readonly claim: string;
  readonly score: AgreementScore;
}

/** A mean over claims (or openings) with its percentile bootstrap interval over claims; NaN when n = 0. */
export interface ConsistencyEstimate {
  readonly value: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly n: number;
}

/** Match Rate and Avg Dif against a tournament run's openings. */
interface OpeningAgreement {
  /** Openings compared: on claims where the study has at least one usable answer. */
  readonly openings: number;
  /** % of compared openings (claims with a usable answer) equal to the most frequent answer, ties broken toward the lower score. */
  readonly matchRatePercent: ConsistencyEstimate;
  /**
   * The paper's Match Rate: the same over every opening, an opening whose claim has no usable answer
   * counting as no match (Table 1 divides by all 961 claims: GPT-4o-mini's 67.85 is 652 / 961).
   */
  readonly matchRateAllOpeningsPercent: ConsistencyEstimate;
  /** The same, counting a match when the opening equals any of the tied most frequent answers. */
  readonly matchRateAnyTiedModePercent: number;
  /** Compared openings whose claim had several equally frequent answers. */
  readonly tiedModes: number;
  /** Mean |opening - mean of the answers|, in scale points. */
  readonly avgDif: ConsistencyEstimate;
  /** Openings on claims without a usable answer in the study (not compared). */
  readonly openingsWithoutAnswers: number;
}

/** Table 1 for one model on one domain. */
export interface ConsistencyModelResult {
  readonly model: string;
  readonly domain: Domain;
  /** Claims with at least one stored answer. */
  readonly claims: number;
  /** Claims without a single usable answer: left out of every mean below. */
  readonly claimsWithoutAnswer: number;
  readonly samples: number;
  readonly usableSamples: number;
  /** Every unusable reply, re-asked ones included. */
  readonly unusableReplies: number;
  /** The true mean SD: mean over claims of the population SD of the answers. */
  readonly meanSd: ConsistencyEstimate;
  /** The paper's "Avg SD" column: mean over claims of the population VARIANCE of the answers. */
  readonly paperAvgSd: ConsistencyEstimate;
  /** Null when the study names no tournament run. */
  readonly openingAgreement: OpeningAgreement | null;
}

interface ClaimTally {
  readonly group: string;
  readonly claimKey: string;
  readonly counts: number[];
  samples: number;
  unusableReplies: number;
}

const groupOf = (model: string, domain: Domain) => `${model}\u0000${domain}`;
const DOMAIN_ORDER: Readonly<Record<Domain, number>> = { subjective: 0, misinformation: 1 };
const MISSING: ConsistencyEstimate = { value: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN, n: 0 };

/**
 * Accumulates a study's answers (and optionally a tournament run's openings) one at a time and
 * computes Table 1 per model and domain. Keeps five counts per (model, claim) and one score per
 * opening, never the answers themselves. Intervals: percentile bootstrap, claims resampled.
 */
export class ConsistencyAnalyzer {
  private readonly tallies = new Map<string, ClaimTally>();
  private readonly groups = new Map<string, { model: string; domain: Domain }>();
  private readonly openings: Array<{ tallyKey: string; group: string; claimKey: string; score: AgreementScore }> = [];

  addSample(sample: StanceSample): void {
    const group = groupOf(sample.model, sample.domain);
    if (!this.groups.has(group)) this.groups.set(group, { model: sample.model, domain: sample.domain });
    const claimKey = studyClaimKey(sample.domain, sample.claimIndex, sample.claim);
    const key = `${group}\u0000${claimKey}`;
    const tally = this.tallies.get(key) ?? { group, claimKey, counts: [0, 0, 0, 0, 0, 0], samples: 0, unusableReplies: 0 };
    this.tallies.set(key, tally);
    tally.samples += 1;
    tally.unusableReplies += sample.unusable;
    if (sample.score !== null) tally.counts[sample.score]! += 1;
  }

  addOpening(opening: OpeningScore): void {
    const group = groupOf(opening.model, opening.domain);
    const claimKey = studyClaimKey(opening.domain, opening.claimIndex, opening.claim);
    this.openings.push({ tallyKey: `${group}\u0000${claimKey}`, group, claimKey, score: opening.score });
  }

  /** Table 1 per (model, domain), subjective first. `compareOpenings`: a tournament run is linked. */
  finish(options: { readonly compareOpenings: boolean; readonly bootstrap?: BootstrapOptions }): ConsistencyModelResult[] {
    const table = new ClaimCellTable();
    const counts = this.addSpreads(table);
    const agreement = options.compareOpenings ? this.compareOpenings(table) : undefined;
    const estimates = estimatesOf(table, options.bootstrap ?? DEFAULT_BOOTSTRAP);
    const estimate = (cell: string) => estimates.get(cell) ?? MISSING;
    return [...this.groups.entries()]
      .sort(([, a], [, b]) => a.model.localeCompare(b.model) || DOMAIN_ORDER[a.domain] - DOMAIN_ORDER[b.domain])
      .map(([group, { model, domain }]) => {
        const tally = counts.get(group)!;
        const compared = agreement?.get(group) ?? { compared: 0, anyTiedMode: 0, tied: 0, withoutAnswers: 0 };
        return {
          model,
          domain,
          ...tally,
          meanSd: estimate(`${group}\u0000sd`),
          paperAvgSd: estimate(`${group}\u0000variance`),
          openingAgreement: agreement
            ? {
                openings: compared.compared,
                matchRatePercent: percent(estimate(`${group}\u0000match`)),
                matchRateAllOpeningsPercent: percent(estimate(`${group}\u0000match over all`)),
                matchRateAnyTiedModePercent: compared.compared === 0 ? Number.NaN : (100 * compared.anyTiedMode) / compared.compared,
                tiedModes: compared.tied,
                avgDif: estimate(`${group}\u0000difference`),
                openingsWithoutAnswers: compared.withoutAnswers,
              }
            : null,
        };
      });
  }

  /** Adds each scored claim's SD and variance to the table; returns the counts per group. */
  private addSpreads(table: ClaimCellTable) {
    const counts = new Map(
      [...this.groups.keys()].map((group) => [group, { claims: 0, claimsWithoutAnswer: 0, samples: 0, usableSamples: 0, unusableReplies: 0 }]),
    );
    for (const tally of this.tallies.values()) {
      const entry = counts.get(tally.group)!;
      const spread = scoreSpread(tally.counts);
      entry.claims += 1;
      entry.samples += tally.samples;
      entry.usableSamples += spread.n;
      entry.unusableReplies += tally.unusableReplies;
      if (spread.n === 0) {
        entry.claimsWithoutAnswer += 1;
        continue;
      }
      table.add(`${tally.group}\u0000sd`, tally.claimKey, spread.sd);
      table.add(`${tally.group}\u0000variance`, tally.claimKey, spread.variance);
    }
    return counts;
  }

  /** Adds each opening's match (0/1) and absolute difference to the table; returns the counts per group. */
  private compareOpenings(table: ClaimCellTable) {
    const counts = new Map<string, { compared: number; anyTiedMode: number; tied: number; withoutAnswers: number }>();
    for (const opening of this.openings) {
      const tally = this.tallies.get(opening.tallyKey);
      if (!this.groups.has(opening.group)) continue;
      const entry = counts.get(opening.group) ?? { compared: 0, anyTiedMode: 0, tied: 0, withoutAnswers: 0 };
      counts.set(opening.group, entry);
      const spread = tally ? scoreSpread(tally.counts) : undefined;
      if (!tally || !spread || spread.n === 0) {
        entry.withoutAnswers += 1;
        table.add(`${opening.group}\u0000match over all`, opening.claimKey, 0);
        continue;
      }
      const modes = modesOf(tally.counts);
      entry.compared += 1;
      if (modes.length > 1) entry.tied += 1;
      if (modes.includes(opening.score)) entry.anyTiedMode += 1;
      const match = modeOf(tally.counts) === opening.score ? 1 : 0;
      table.add(`${opening.group}\u0000match`, tally.claimKey, match);
      table.add(`${opening.group}\u0000match over all`, tally.claimKey, match);
      table.add(`${opening.group}\u0000difference`, tally.claimKey, Math.abs(opening.score - spread.mean));
    }
    return counts;
  }
}

/** Every cell's plain mean with its own interval (each statistic is one cell). */
function estimatesOf(table: ClaimCellTable, bootstrap: BootstrapOptions): Map<string, ConsistencyEstimate> {
  const means = table.cellMeans();
  const intervals = table.bootstrap(
    means.map((_, position) => [position]),
    bootstrap,
  );
  return new Map(means.map((mean, position) => [mean.cell, { value: mean.mean, ...intervals[position]!, n: mean.n }]));
}

function percent(estimate: ConsistencyEstimate): ConsistencyEstimate {
  return { value: 100 * estimate.value, ciLow: 100 * estimate.ciLow, ciHigh: 100 * estimate.ciHigh, n: estimate.n };
}

/** Table 1 of a whole study at once (tests, library users). */
export function analyzeConsistency(
  samples: Iterable<StanceSample>,
  openings: Iterable<OpeningScore> | undefined,
  bootstrap: BootstrapOptions = DEFAULT_BOOTSTRAP,
): ConsistencyModelResult[] {
  const analyzer = new ConsistencyAnalyzer();
  for (const sample of samples) analyzer.addSample(sample);
  for (const opening of openings ?? []) analyzer.addOpening(opening);
  return analyzer.finish({ compareOpenings: openings !== undefined, bootstrap });
}
