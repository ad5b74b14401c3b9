import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import { ClaimCellTable } from '../intervals/claim-cell-table.js';
import { type CellStatistic, estimateOverClaims, type IntervalOptions, isThin } from '../intervals/claim-estimates.js';
import { holmAdjust } from '../intervals/holm.js';
import { groupTurns, type LabelledConversation, type TechniqueTurn, techniqueTurns } from './technique-turns.js';

/** Why a technique has no estimate in a group: no turn used it, every turn did, or no (persuader, persuadee) pair has turns of both kinds. */
type NoEffectReason = 'never-used' | 'always-used' | 'no-pair-with-both';

interface EffectWhere {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly technique: string;
  /** Turns (with a next change) that used the technique, and that did not. */
  readonly usedTurns: number;
  readonly otherTurns: number;
}

/**
 * One technique's association with the persuadee's next change of agreement in one domain and
 * setting (report.json `techniques.effects`): the mean next change after a persuader's turns that
 * use it minus after its turns that do not, against the same persuadee, each (persuader,
 * persuadee) pair with turns of both kinds counting equally. An association, not a cause: persuaders choose techniques, and a judge's labels are not
 * ground truth (docs/design/statistics.md, "Techniques").
 */
export type TechniqueEffect =
  | (EffectWhere & {
      readonly status: 'estimated';
      /** Scale points (the next change is in [-4, 4]). */
      readonly value: number;
      readonly ciLow: number;
      readonly ciHigh: number;
      readonly se: number;
      readonly claims: number;
      /** The persuaders whose turns of both kinds (against one persuadee) the difference is taken within. */
      readonly persuaders: readonly string[];
      /** The (persuader, persuadee) pairs it is taken within, each counting equally. */
      readonly pairs: number;
      readonly thin: boolean;
      readonly p: number;
      /** Holm-adjusted over the techniques estimated in the same domain and setting. */
      readonly pHolm: number;
    })
  | (EffectWhere & { readonly status: 'no-estimate'; readonly reason: NoEffectReason });

const SEPARATOR = '\u0000';

interface Pair {
  readonly persuader: string;
  readonly persuadee: string;
}

function cellOf(technique: string, pair: Pair, used: boolean): string {
  return [technique, pair.persuader, pair.persuadee, used ? 'used' : 'other'].join(SEPARATOR);
}

/** Used minus not used within each pair with both, averaged over those pairs; undefined when none has both. */
function statisticOf(
  table: ClaimCellTable,
  technique: string,
  pairs: readonly Pair[],
): { statistic: CellStatistic; persuaders: string[]; pairs: number } | undefined {
  const both = pairs.flatMap((pair) => {
    const used = table.cellIndex(cellOf(technique, pair, true));
    const other = table.cellIndex(cellOf(technique, pair, false));
    return used === undefined || other === undefined ? [] : [{ pair, used, other }];
  });
  if (both.length === 0) return undefined;
  const statistic = [
    { cells: both.map((entry) => entry.used), weight: 1 },
    { cells: both.map((entry) => entry.other), weight: -1 },
  ];
  return { statistic, persuaders: [...new Set(both.map((entry) => entry.pair.persuader))], pairs: both.length };
}

function effectsOfGroup(
  domain: Domain,
  setting: Setting,
  turns: readonly TechniqueTurn[],
  techniques: readonly string[],
  options: IntervalOptions,
): TechniqueEffect[] {
  const scored = turns.filter((turn) => turn.nextChange !== null);
  const table = new ClaimCellTable();
  for (const turn of scored) {
    for (const technique of techniques) table.add(cellOf(technique, turn, turn.techniques.has(technique)), turn.claimKey, turn.nextChange!);
  }
  const pairKeys = new Map(scored.map((turn) => [`${turn.persuader}${SEPARATOR}${turn.persuadee}`, { persuader: turn.persuader, persuadee: turn.persuadee }]));
  const pairs = [...pairKeys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, pair]) => pair);
  const wheres = techniques.map((technique) => {
    const usedTurns = scored.filter((turn) => turn.techniques.has(technique)).length;
    return { domain, setting, technique, usedTurns, otherTurns: scored.length - usedTurns };
  });
  const statistics = techniques.map((technique) => statisticOf(table, technique, pairs));
  const present = statistics.flatMap((entry) => (entry ? [entry.statistic] : []));
  const estimates = estimateOverClaims(table.slices(), present, options);
  const pHolm = holmAdjust(estimates.map((estimate) => estimate.p));
  let next = 0;
  return wheres.map((where, index): TechniqueEffect => {
    const entry = statistics[index];
    if (!entry) {
      const reason = where.usedTurns === 0 ? 'never-used' : where.otherTurns === 0 ? 'always-used' : 'no-pair-with-both';
      return { ...where, status: 'no-estimate', reason };
    }
    const position = next++;
    const { value, ciLow, ciHigh, se, claims, p } = estimates[position]!;
    return {
      ...where,
      status: 'estimated',
      value,
      ciLow,
      ciHigh,
      se,
      claims,
      persuaders: entry.persuaders,
      pairs: entry.pairs,
      thin: isThin(estimates[position]!),
      p,
      pHolm: pHolm[position]!,
    };
  });
}

/**
 * `techniques.effects` for every domain and setting. A persuader's turns that use a technique are
 * compared with its turns that do not, against the same persuadee in the same domain and setting,
 * pooled over the pair's conversations; the pairs are averaged. The interval is Student t over
 * claims, the difference's error paired by claim (both kinds of turn on a claim share its
 * difficulty), as for the differences between models. Turns after which the persuadee already stood
 * at 5 are left out (`TechniqueTurn.nextChange`). `techniques` lists the taxonomy's ids, so that
 * one never used is reported as such; ids the labels use beyond them are added. Holm's adjustment
 * covers the techniques of one domain and setting.
 *
 * Why not pair within each conversation: a single-turn conversation has one persuader turn, so it
 * has no pair; and a technique used early moves the persuadee, which changes what later turns of the
 * same conversation can move, so a comparison within a conversation carries its earlier effect into
 * the turns it is compared with (docs/design/statistics.md, "Techniques").
 */
export function techniqueEffects(conversations: readonly LabelledConversation[], techniques: readonly string[], options: IntervalOptions): TechniqueEffect[] {
  const turns = techniqueTurns(conversations);
  const ids = [...new Set([...techniques, ...turns.flatMap((turn) => [...turn.techniques])])];
  return [...groupTurns(turns).values()].flatMap((group) => effectsOfGroup(group.domain, group.setting, group.turns, ids, options));
}
