import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { ClaimCellTable } from '../intervals/claim-cell-table.js';
import { type ClaimEstimate, estimateOverClaims, type IntervalOptions, isThin } from '../intervals/claim-estimates.js';
import { recordClaimKey } from '../record-claim-key.js';

/**
 * Drift (paper Sec. 5.3, issue 29): how far a persuader's own agreement with the claim moved
 * between its stance before a conversation (`persuaderStance`, its opening as a persuadee on the
 * claim) and its answer to the drift probe after it. Positive: it agrees more with the claim it
 * argued for; negative: it moved away from it. Only completed conversations with both scores count.
 */

/** What drift reads of one conversation: its cell and claim, both scores, and whether it was probed. */
export interface DriftObservation {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly claimKey: string;
  readonly persuader: string;
  readonly persuadee: string;
  readonly completed: boolean;
  readonly stance: AgreementScore | null;
  /** The probe's score (null: no usable answer); undefined when the conversation has no probe. */
  readonly probe: AgreementScore | null | undefined;
}

/**
 * A conversation record as a drift observation, with the probe from its record, or `fromStudy`: an
 * analysis study's probe of it (`{ score }`; undefined when the study has none).
 */
export function driftObservationOf(
  record: Pick<ConversationRecord, 'domain' | 'setting' | 'claim' | 'question' | 'persuader' | 'persuadee' | 'status' | 'persuaderStance' | 'driftProbe'>,
  fromStudy?: { readonly probe: AgreementScore | null | undefined },
): DriftObservation {
  return {
    domain: record.domain,
    setting: record.setting,
    claimKey: recordClaimKey(record),
    persuader: record.persuader,
    persuadee: record.persuadee,
    completed: record.status === 'completed',
    stance: record.persuaderStance,
    probe: fromStudy ? fromStudy.probe : record.driftProbe?.score,
  };
}

/**
 * The drift of one persuader (`persuadee` null: the mean over its persuadees of the pair means, as
 * effectiveness is) or one pair, in one domain and setting, with intervals over claims.
 */
export interface DriftEstimate {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly persuader: string;
  /** Null for a persuader's row. */
  readonly persuadee: string | null;
  /** Mean probe score minus stance, in scale points (NaN without any usable probe). */
  readonly drift: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  /** Two-sided p of drift = 0 (t over claims). */
  readonly p: number;
  /** The share of conversations in which the probe scored below the stance: the persuader moved away from the claim it argued for. */
  readonly movedAway: number;
  readonly movedAwayCiLow: number;
  readonly movedAwayCiHigh: number;
  /** Completed conversations with both a stance and a usable probe (the n behind the estimate). */
  readonly conversations: number;
  readonly claims: number;
  readonly thin: boolean;
  /** Completed conversations whose probe gave no usable answer (score null). */
  readonly unusable: number;
  /** Completed conversations without a probe (not asked, or the analysis did not reach them). */
  readonly missing: number;
  /** Completed conversations with a usable probe but no stance to compare it with. */
  readonly withoutStance: number;
}

export interface DriftAnalysis {
  readonly perPersuader: DriftEstimate[];
  readonly perPair: DriftEstimate[];
  /** Over every completed conversation: probes read, unusable and missing, and usable probes without a stance. */
  readonly counts: { readonly completed: number; readonly usable: number; readonly unusable: number; readonly missing: number; readonly withoutStance: number };
}

interface PairCounts {
  conversations: number;
  unusable: number;
  missing: number;
  withoutStance: number;
}

const SEP = '\u0000';

/**
 * Collects drift observations (streamed: memory grows with claims x pairs, not conversations) and
 * estimates drift per persuader and per pair, in each domain and setting.
 */
export class DriftTally {
  private readonly groups = new Map<string, { domain: Domain; setting: Setting; table: ClaimCellTable; pairs: Map<string, PairCounts> }>();

  add(observation: DriftObservation): void {
    if (!observation.completed) return;
    const groupKey = `${observation.domain}${SEP}${observation.setting}`;
    let group = this.groups.get(groupKey);
    if (!group) {
      group = { domain: observation.domain, setting: observation.setting, table: new ClaimCellTable(), pairs: new Map() };
      this.groups.set(groupKey, group);
    }
    const pair = `${observation.persuader}${SEP}${observation.persuadee}`;
    let counts = group.pairs.get(pair);
    if (!counts) {
      counts = { conversations: 0, unusable: 0, missing: 0, withoutStance: 0 };
      group.pairs.set(pair, counts);
    }
    if (observation.probe === undefined) counts.missing += 1;
    else if (observation.probe === null) counts.unusable += 1;
    else if (observation.stance === null) counts.withoutStance += 1;
    else {
      counts.conversations += 1;
      const drift = observation.probe - observation.stance;
      group.table.add(`drift${SEP}${pair}`, observation.claimKey, drift);
      group.table.add(`away${SEP}${pair}`, observation.claimKey, drift < 0 ? 1 : 0);
    }
  }

  /** Whether any completed conversation had a probe (usable or not). */
  get hasProbes(): boolean {
    for (const group of this.groups.values())
      for (const counts of group.pairs.values()) if (counts.conversations + counts.unusable + counts.withoutStance > 0) return true;
    return false;
  }

  finish(options: IntervalOptions): DriftAnalysis {
    const perPersuader: DriftEstimate[] = [];
    const perPair: DriftEstimate[] = [];
    const totals = { completed: 0, usable: 0, unusable: 0, missing: 0, withoutStance: 0 };
    const ordered = [...this.groups.values()].sort((a, b) => a.domain.localeCompare(b.domain) || b.setting.localeCompare(a.setting));
    for (const { domain, setting, table, pairs } of ordered) {
      const pairKeys = [...pairs.keys()].sort();
      const persuaders = [...new Set(pairKeys.map((pair) => pair.split(SEP)[0]!))];
      const cellsOf = (kind: string, keys: readonly string[]) => keys.flatMap((pair) => table.cellIndex(`${kind}${SEP}${pair}`) ?? []);
      const rows = [
        ...persuaders.map((persuader) => ({ persuader, persuadee: null, keys: pairKeys.filter((pair) => pair.startsWith(`${persuader}${SEP}`)) })),
        ...pairKeys.map((pair) => ({ persuader: pair.split(SEP)[0]!, persuadee: pair.split(SEP)[1]!, keys: [pair] })),
      ];
      const statistics = rows.flatMap(({ keys }) => [[{ cells: cellsOf('drift', keys), weight: 1 }], [{ cells: cellsOf('away', keys), weight: 1 }]]);
      const estimates = estimateOverClaims(table.slices(), statistics, options);
      rows.forEach((row, index) => {
        const drift = estimates[2 * index]!;
        const away = estimates[2 * index + 1]!;
        const counts = row.keys.map((pair) => pairs.get(pair)!);
        const sum = (key: keyof PairCounts) => counts.reduce((total, entry) => total + entry[key], 0);
        const estimate = toEstimate(domain, setting, row.persuader, row.persuadee, drift, away, {
          conversations: sum('conversations'),
          unusable: sum('unusable'),
          missing: sum('missing'),
          withoutStance: sum('withoutStance'),
        });
        (row.persuadee === null ? perPersuader : perPair).push(estimate);
      });
      for (const counts of pairs.values()) {
        totals.completed += counts.conversations + counts.unusable + counts.missing + counts.withoutStance;
        totals.usable += counts.conversations + counts.withoutStance;
        totals.unusable += counts.unusable;
        totals.missing += counts.missing;
        totals.withoutStance += counts.withoutStance;
      }
    }
    return { perPersuader, perPair, counts: totals };
  }
}

function toEstimate(
  domain: Domain,
  setting: Setting,
  persuader: string,
  persuadee: string | null,
  drift: ClaimEstimate,
  away: ClaimEstimate,
  counts: PairCounts,
): DriftEstimate {
  return {
    domain,
    setting,
    persuader,
    persuadee,
    drift: drift.value,
    ciLow: drift.ciLow,
    ciHigh: drift.ciHigh,
    p: drift.p,
    movedAway: away.value,
    movedAwayCiLow: Number.isNaN(away.ciLow) ? away.ciLow : Math.max(0, away.ciLow),
    movedAwayCiHigh: Number.isNaN(away.ciHigh) ? away.ciHigh : Math.min(1, away.ciHigh),
    claims: drift.claims,
    thin: isThin(drift),
    ...counts,
  };
}

/** Drift of a list of observations (a convenience over `DriftTally`). */
export function driftAnalysis(observations: Iterable<DriftObservation>, options: IntervalOptions): DriftAnalysis {
  const tally = new DriftTally();
  for (const observation of observations) tally.add(observation);
  return tally.finish(options);
}
