import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { isPersonAgent } from '../../domain/person-agent.js';
import type { Role } from '../../domain/roles.js';
import { ClaimCellTable } from '../intervals/claim-cell-table.js';
import { type CellStatistic, type ClaimEstimate, estimateOverClaims, type IntervalOptions, isThin } from '../intervals/claim-estimates.js';
import { holmAdjust } from '../intervals/holm.js';
import { recordClaimKey } from '../record-claim-key.js';
import { persuadeeTrajectory } from '../turn-curves.js';

/**
 * People against models (issue 31): every person (`person/<id>`) pooled as one group "people",
 * compared with each model in the same role on the (opponent, claim) cells both have, paired by
 * claim. As persuadees the measure is susceptibility, as persuaders effectiveness: the mean NC of
 * their conversations. Each claim counts equally (the mean over the shared cells of each cell's
 * mean), because people are spread over claims unevenly once some drop out; intervals and tests
 * are the report's (`estimateOverClaims`), Holm over the models compared in one condition and role.
 */

/** An estimate with its interval over claims and the conversations behind it. */
interface PeopleValue {
  readonly value: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly conversations: number;
}

/** The people's and the model's mean agreement of the persuadee at one planned persuadee position (1 is the opening, t the final decision). */
interface PeopleCurvePoint {
  readonly turn: number;
  readonly people: PeopleValue;
  readonly model: PeopleValue;
}

/** People (pooled) minus one model in the same role, in one domain and setting, over the cells both have. */
export interface PeopleComparison {
  readonly domain: Domain;
  readonly setting: Setting;
  /** The role people and the model played. */
  readonly role: Role;
  readonly measure: 'susceptibility' | 'effectiveness';
  readonly model: string;
  /** The opponents both faced on the shared claims (the persuaders when people are persuadees). */
  readonly opponents: string[];
  readonly people: PeopleValue;
  readonly modelValue: PeopleValue;
  /** people - model. */
  readonly difference: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly se: number;
  /** Claims the difference is paired over. */
  readonly claims: number;
  readonly thin: boolean;
  readonly p: number;
  /** Holm-adjusted over the models compared with people in the same condition and role. */
  readonly pHolm: number;
  /** Claims people have (against any of these opponents) that the comparison leaves out: the model has none there. */
  readonly peopleClaimsLeftOut: number;
  /** The persuadee's agreement turn by turn, over the same cells. */
  readonly curve: PeopleCurvePoint[];
}

/** People's own value in one condition and role, over every claim they have (against models). */
interface PeopleEstimate {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly role: Role;
  readonly measure: 'susceptibility' | 'effectiveness';
  readonly value: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly claims: number;
  readonly conversations: number;
  readonly thin: boolean;
  /** Models in the same role in this condition; none shares a claim with people when `comparisons` has no row for it. */
  readonly modelsInRole: number;
}

/** The follow-up rating minus the final decision of people who were persuadees, in one condition. */
export interface FollowUpChange {
  readonly domain: Domain;
  readonly setting: Setting;
  /** Mean follow-up score minus final score, in scale points (each claim counting equally). */
  readonly change: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  /** Two-sided p of change = 0. */
  readonly p: number;
  readonly participants: number;
  readonly claims: number;
  readonly thin: boolean;
}

/** A follow-up rating given by the person of a conversation. */
export interface FollowUpRating {
  readonly conversationId: string;
  readonly score: AgreementScore;
}

export interface PeopleAnalysis {
  readonly estimates: PeopleEstimate[];
  readonly comparisons: PeopleComparison[];
  readonly followUp: FollowUpChange[];
  /** Follow-up ratings that could not be set against a final decision: their conversation is not a completed conversation of a person persuadee. */
  readonly followUpsUnmatched: number;
  /** Every person conversation read: completed and failed, and the distinct persons. */
  readonly counts: { readonly persons: number; readonly completed: number; readonly failed: number };
}

type PeopleRecord = Pick<
  ConversationRecord,
  | 'conversationId'
  | 'domain'
  | 'setting'
  | 'claim'
  | 'question'
  | 'persuader'
  | 'persuadee'
  | 'status'
  | 'normalizedChange'
  | 'finalScore'
  | 'turnsPlanned'
  | 'earlyStopped'
  | 'turns'
>;

const SEP = '\u0000';
const PEOPLE = 'people';
const MEASURE_OF = { persuadee: 'susceptibility', persuader: 'effectiveness' } as const;

/** A group's sums on one (opponent, claim): NC, and the persuadee's agreement at each planned position. */
interface Slot {
  readonly opponent: string;
  readonly claimKey: string;
  nc: number;
  count: number;
  readonly turns: Map<number, { sum: number; count: number }>;
}

interface Condition {
  readonly domain: Domain;
  readonly setting: Setting;
  /** Per role, per group ("people" or a model): its slots by (opponent, claim). */
  readonly slots: Map<Role, Map<string, Map<string, Slot>>>;
}

/**
 * Collects conversations (streamed: memory grows with claims x pairs x turns, plus one entry per
 * person conversation) and compares people with models. Conversations between two models enter as
 * the models' side; those of a person as the people's side; a person's opponent is never a group
 * of its own.
 */
export class PeopleTally {
  private readonly conditions = new Map<string, Condition>();
  private readonly persons = new Set<string>();
  private readonly personFinals = new Map<string, { domain: Domain; setting: Setting; claimKey: string; finalScore: AgreementScore }>();
  private completed = 0;
  private failed = 0;

  add(record: PeopleRecord): void {
    const persuaderIsPerson = isPersonAgent(record.persuader);
    const persuadeeIsPerson = isPersonAgent(record.persuadee);
    if (persuaderIsPerson) this.persons.add(record.persuader);
    if (persuadeeIsPerson) this.persons.add(record.persuadee);
    if (persuaderIsPerson || persuadeeIsPerson) {
      if (record.status === 'completed') this.completed += 1;
      else this.failed += 1;
    }
    if (record.status !== 'completed' || record.normalizedChange === null) return;
    if (persuaderIsPerson && persuadeeIsPerson) return;
    const claimKey = recordClaimKey(record);
    if (persuadeeIsPerson && record.finalScore !== null)
      this.personFinals.set(record.conversationId, { domain: record.domain, setting: record.setting, claimKey, finalScore: record.finalScore });
    const condition = this.conditionOf(record.domain, record.setting);
    const trajectory = persuadeeTrajectory(record) ?? [];
    const sides: Array<[Role, string, string]> = persuadeeIsPerson
      ? [['persuadee', PEOPLE, record.persuader]]
      : persuaderIsPerson
        ? [['persuader', PEOPLE, record.persuadee]]
        : [
            ['persuadee', record.persuadee, record.persuader],
            ['persuader', record.persuader, record.persuadee],
          ];
    for (const [role, group, opponent] of sides) {
      const slotKey = `${opponent}${SEP}${claimKey}`;
      const byGroup = condition.slots.get(role) ?? new Map<string, Map<string, Slot>>();
      condition.slots.set(role, byGroup);
      const slots = byGroup.get(group) ?? new Map<string, Slot>();
      byGroup.set(group, slots);
      let slot = slots.get(slotKey);
      if (!slot) {
        slot = { opponent, claimKey, nc: 0, count: 0, turns: new Map() };
        slots.set(slotKey, slot);
      }
      slot.nc += record.normalizedChange;
      slot.count += 1;
      for (const point of trajectory) {
        const turn = slot.turns.get(point.turn) ?? { sum: 0, count: 0 };
        turn.sum += point.score;
        turn.count += 1;
        slot.turns.set(point.turn, turn);
      }
    }
  }

  private conditionOf(domain: Domain, setting: Setting): Condition {
    const key = `${domain}${SEP}${setting}`;
    let condition = this.conditions.get(key);
    if (!condition) {
      condition = { domain, setting, slots: new Map() };
      this.conditions.set(key, condition);
    }
    return condition;
  }

  /** Whether any conversation of a person was read. */
  get hasPeople(): boolean {
    return this.persons.size > 0;
  }

  /** The comparisons, people's own values and the follow-up change; `followUps` are the ratings given after the study's delay. */
  finish(options: IntervalOptions, followUps: readonly FollowUpRating[] = []): PeopleAnalysis {
    const estimates: PeopleEstimate[] = [];
    const comparisons: PeopleComparison[] = [];
    const ordered = [...this.conditions.values()].sort((a, b) => a.domain.localeCompare(b.domain) || b.setting.localeCompare(a.setting));
    for (const condition of ordered) {
      for (const role of ['persuadee', 'persuader'] as const) {
        const found = compareInRole(condition, role, options);
        if (found) {
          estimates.push(found.estimate);
          comparisons.push(...found.comparisons);
        }
      }
    }
    const { followUp, unmatched } = this.followUpChanges(followUps, options);
    return {
      estimates,
      comparisons,
      followUp,
      followUpsUnmatched: unmatched,
      counts: { persons: this.persons.size, completed: this.completed, failed: this.failed },
    };
  }

  private followUpChanges(followUps: readonly FollowUpRating[], options: IntervalOptions): { followUp: FollowUpChange[]; unmatched: number } {
    const groups = new Map<string, { domain: Domain; setting: Setting; claims: Map<string, { sum: number; count: number }>; participants: number }>();
    let unmatched = 0;
    for (const rating of followUps) {
      const final = this.personFinals.get(rating.conversationId);
      if (!final) {
        unmatched += 1;
        continue;
      }
      const key = `${final.domain}${SEP}${final.setting}`;
      const group = groups.get(key) ?? { domain: final.domain, setting: final.setting, claims: new Map(), participants: 0 };
      groups.set(key, group);
      const claim = group.claims.get(final.claimKey) ?? { sum: 0, count: 0 };
      claim.sum += rating.score - final.finalScore;
      claim.count += 1;
      group.claims.set(final.claimKey, claim);
      group.participants += 1;
    }
    const followUp = [...groups.values()].map(({ domain, setting, claims, participants }) => {
      const table = new ClaimCellTable();
      for (const [claimKey, { sum, count }] of claims) table.addTotal('change', claimKey, sum / count, 1);
      const [estimate] = estimateOverClaims(table.slices(), [[{ cells: [0], weight: 1 }]], options);
      return {
        domain,
        setting,
        change: estimate!.value,
        ciLow: estimate!.ciLow,
        ciHigh: estimate!.ciHigh,
        p: estimate!.p,
        participants,
        claims: estimate!.claims,
        thin: isThin(estimate!),
      };
    });
    return { followUp, unmatched };
  }
}

const peopleValue = (estimate: ClaimEstimate, conversations: number): PeopleValue => ({
  value: estimate.value,
  ciLow: estimate.ciLow,
  ciHigh: estimate.ciHigh,
  conversations,
});

/**
 * One side of a statistic: a cell per opponent in `table`, each holding, per claim, the mean there
 * (one value per claim, so each claim counts once within an opponent and the opponents count
 * equally, as a model's susceptibility averages its persuaders). Returns the cells and the
 * conversations behind them.
 */
function sideCells(
  table: ClaimCellTable,
  name: string,
  slots: ReadonlyArray<Slot>,
  valueOfSlot: (slot: Slot) => { sum: number; count: number } | undefined,
): { cells: number[]; conversations: number } {
  const cells = new Set<number>();
  let conversations = 0;
  for (const slot of slots) {
    const value = valueOfSlot(slot);
    if (!value || value.count === 0) continue;
    const cell = `${name}${SEP}${slot.opponent}`;
    table.addTotal(cell, slot.claimKey, value.sum / value.count, 1);
    cells.add(table.cellIndex(cell)!);
    conversations += value.count;
  }
  return { cells: [...cells], conversations };
}

const ncOf = (slot: Slot) => ({ sum: slot.nc, count: slot.count });

/** What one model's comparison with people is over, before the estimates: the statistics' cells are in the table. */
interface ModelRow {
  readonly model: string;
  readonly opponents: string[];
  /** Conversations behind the people's side and the model's side. */
  readonly people: number;
  readonly against: number;
  /** Per turn both sides reached, the conversations behind each side. */
  readonly curve: ReadonlyArray<{ turn: number; people: number; model: number }>;
  readonly peopleClaimsLeftOut: number;
}

/** The mean over one side's cells, as a statistic. */
const meanOf = (cells: number[]): CellStatistic => [{ cells, weight: 1 }];

/**
 * The turn-by-turn curve of one model's comparison: per turn both sides reached, the persuadee's mean
 * agreement of each side, their cells added to `table` and their two statistics to `statistics`.
 */
function addCurveCells(table: ClaimCellTable, statistics: CellStatistic[], model: string, peopleShared: Slot[], modelShared: Slot[]): ModelRow['curve'] {
  const turns = [...new Set(peopleShared.flatMap((slot) => [...slot.turns.keys()]))]
    .filter((turn) => modelShared.some((slot) => slot.turns.has(turn)))
    .sort((a, b) => a - b);
  return turns.map((turn) => {
    const peopleTurn = sideCells(table, `people${SEP}${model}${SEP}${turn}`, peopleShared, (slot) => slot.turns.get(turn));
    const modelTurn = sideCells(table, `model${SEP}${model}${SEP}${turn}`, modelShared, (slot) => slot.turns.get(turn));
    statistics.push(meanOf(peopleTurn.cells), meanOf(modelTurn.cells));
    return { turn, people: peopleTurn.conversations, model: modelTurn.conversations };
  });
}

/**
 * People against one model over the (opponent, claim) slots both have: their cells added to `table`, and
 * to `statistics` the people's mean, the model's, their difference, then the curve's. Undefined where
 * they share no slot.
 */
function addModelCells(
  table: ClaimCellTable,
  statistics: CellStatistic[],
  peopleSlots: ReadonlyMap<string, Slot>,
  model: string,
  modelSlots: ReadonlyMap<string, Slot>,
): ModelRow | undefined {
  const shared = [...peopleSlots.keys()].filter((slotKey) => modelSlots.has(slotKey)).sort();
  if (shared.length === 0) return undefined;
  const peopleShared = shared.map((slotKey) => peopleSlots.get(slotKey)!);
  const modelShared = shared.map((slotKey) => modelSlots.get(slotKey)!);
  const people = sideCells(table, `people${SEP}${model}`, peopleShared, ncOf);
  const against = sideCells(table, `model${SEP}${model}`, modelShared, ncOf);
  statistics.push(meanOf(people.cells), meanOf(against.cells), [
    { cells: people.cells, weight: 1 },
    { cells: against.cells, weight: -1 },
  ]);
  const curve = addCurveCells(table, statistics, model, peopleShared, modelShared);
  const sharedClaims = new Set(peopleShared.map((slot) => slot.claimKey));
  const opponents = [...new Set(peopleShared.map((slot) => slot.opponent))].sort();
  const peopleClaims = new Set([...peopleSlots.values()].filter((slot) => opponents.includes(slot.opponent)).map((slot) => slot.claimKey));
  const peopleClaimsLeftOut = [...peopleClaims].filter((claim) => !sharedClaims.has(claim)).length;
  return { model, opponents, people: people.conversations, against: against.conversations, curve, peopleClaimsLeftOut };
}

/**
 * The comparisons of the rows, their estimates read from `results` in the order `addModelCells` added
 * their statistics (after the people's own, at index 0); `pHolm` is left to the caller.
 */
function comparisonsOf(rows: readonly ModelRow[], results: readonly ClaimEstimate[], condition: Condition, role: Role): Omit<PeopleComparison, 'pHolm'>[] {
  let next = 1;
  return rows.map((row) => {
    const [people, model, difference] = [results[next]!, results[next + 1]!, results[next + 2]!];
    next += 3;
    const curve = row.curve.map((point) => {
      const made = { turn: point.turn, people: peopleValue(results[next]!, point.people), model: peopleValue(results[next + 1]!, point.model) };
      next += 2;
      return made;
    });
    return {
      domain: condition.domain,
      setting: condition.setting,
      role,
      measure: MEASURE_OF[role],
      model: row.model,
      opponents: row.opponents,
      people: peopleValue(people, row.people),
      modelValue: peopleValue(model, row.against),
      difference: difference.value,
      ciLow: difference.ciLow,
      ciHigh: difference.ciHigh,
      se: difference.se,
      claims: difference.claims,
      thin: isThin(difference),
      p: difference.p,
      peopleClaimsLeftOut: row.peopleClaimsLeftOut,
      curve,
    };
  });
}

/** People's own value and their comparison with each model in one role of one condition; undefined where people never played the role there. */
function compareInRole(condition: Condition, role: Role, options: IntervalOptions): { estimate: PeopleEstimate; comparisons: PeopleComparison[] } | undefined {
  const byGroup = condition.slots.get(role);
  const peopleSlots = byGroup?.get(PEOPLE);
  if (!byGroup || !peopleSlots) return undefined;
  const models = [...byGroup.keys()].filter((group) => group !== PEOPLE).sort();
  const table = new ClaimCellTable();
  const own = sideCells(table, 'own', [...peopleSlots.values()], ncOf);
  const statistics: CellStatistic[] = [meanOf(own.cells)];
  const rows = models.flatMap((model) => addModelCells(table, statistics, peopleSlots, model, byGroup.get(model)!) ?? []);
  const results = estimateOverClaims(table.slices(), statistics, options);
  const comparisons = comparisonsOf(rows, results, condition, role);
  const adjusted = holmAdjust(comparisons.map((comparison) => comparison.p));
  const ownEstimate = results[0]!;
  return {
    estimate: {
      domain: condition.domain,
      setting: condition.setting,
      role,
      measure: MEASURE_OF[role],
      value: ownEstimate.value,
      ciLow: ownEstimate.ciLow,
      ciHigh: ownEstimate.ciHigh,
      claims: ownEstimate.claims,
      conversations: own.conversations,
      thin: isThin(ownEstimate),
      modelsInRole: models.length,
    },
    comparisons: comparisons.map((comparison, index) => ({ ...comparison, pHolm: adjusted[index]! })),
  };
}
