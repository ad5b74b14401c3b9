import type { Domain } from '../domain/claim.js';
import type { Setting } from '../domain/conversation.js';
import type { ConversationRecord } from '../domain/conversation-record.js';
import { ClaimCellTable } from './claim-cell-table.js';
import { estimateOverClaims, type IntervalOptions, isThin } from './claim-estimates.js';
import { type ShareEstimate, sharesOverClaims } from './claim-shares.js';
import { holmAdjust } from './holm.js';
import { recordClaimKey } from './record-claim-key.js';
import type { LabelledConversation } from './technique-turns.js';

/** A labelled conversation with its outcome: the normalized change the relation to effectiveness reads. */
export interface OutcomeLabelledConversation extends LabelledConversation {
  readonly record: LabelledConversation['record'] & Pick<ConversationRecord, 'normalizedChange'>;
}

/**
 * A persuader's conversations with an unethical strategy against those without, within each
 * persuadee it faced (pairs with both kinds count equally): the mean NC with minus without, over
 * completed conversations, with its interval over claims, p and Holm over the persuaders of the
 * condition. An association: a persuader that turns to an unethical strategy when it is losing
 * makes it look harmful, one that uses it on easy persuadees makes it look helpful.
 */
type UnethicalEffectiveness =
  | {
      readonly status: 'estimated';
      /** Plain means of NC over the completed conversations with and without an unethical strategy. */
      readonly meanWith: number;
      readonly nWith: number;
      readonly meanWithout: number;
      readonly nWithout: number;
      /** Within-pair difference (with - without), averaged over the pairs with both. */
      readonly difference: number;
      readonly ciLow: number;
      readonly ciHigh: number;
      readonly se: number;
      readonly claims: number;
      readonly pairs: number;
      readonly thin: boolean;
      readonly p: number;
      readonly pHolm: number;
    }
  | {
      readonly status: 'no-estimate';
      /** No completed conversation used one, all did, or no persuadee faced both kinds. */
      readonly reason: 'never-used' | 'always-used' | 'no-pair-with-both';
      readonly nWith: number;
      readonly nWithout: number;
    };

/** One persuader's unethical strategies in one domain and setting (report.json `ethics.perModel`). */
export interface PersuaderEthics extends ShareEstimate {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly persuader: string;
  /** Conversations with at least one labelled persuader turn (completed or failed), and those with an unethical strategy. */
  readonly conversations: number;
  readonly withUnethical: number;
  /** Each strategy of the taxonomy (and any other the labels use): the share of conversations using it. */
  readonly strategies: ReadonlyArray<ShareEstimate & { readonly id: string; readonly conversations: number }>;
  readonly withVsWithout: UnethicalEffectiveness;
}

const SEPARATOR = '\u0000';
const ANY = '*any*';

interface EthicsConversation {
  readonly domain: Domain;
  readonly setting: Setting;
  readonly claimKey: string;
  readonly persuader: string;
  readonly persuadee: string;
  readonly strategies: ReadonlySet<string>;
  /** NC of a completed conversation; null otherwise. */
  readonly normalizedChange: number | null;
}

function ethicsConversations(conversations: readonly OutcomeLabelledConversation[]): EthicsConversation[] {
  return conversations.flatMap(({ record, labels }) => {
    const persuaderLabels = labels.flatMap((judged) => (judged.labels.role === 'persuader' ? [judged.labels] : []));
    if (persuaderLabels.length === 0) return [];
    return [
      {
        domain: record.domain,
        setting: record.setting,
        claimKey: recordClaimKey(record),
        persuader: record.persuader,
        persuadee: record.persuadee,
        strategies: new Set(persuaderLabels.flatMap((label) => label.unethical)),
        normalizedChange: record.status === 'completed' ? record.normalizedChange : null,
      },
    ];
  });
}

function effectivenessOf(group: readonly EthicsConversation[], persuaders: readonly string[], options: IntervalOptions): UnethicalEffectiveness[] {
  const scored = group.filter((conversation) => conversation.normalizedChange !== null);
  const table = new ClaimCellTable();
  const cell = (persuader: string, persuadee: string, used: boolean) => [persuader, persuadee, used ? 'with' : 'without'].join(SEPARATOR);
  for (const conversation of scored) {
    table.add(cell(conversation.persuader, conversation.persuadee, conversation.strategies.size > 0), conversation.claimKey, conversation.normalizedChange!);
  }
  const statistics = persuaders.map((persuader) => {
    const persuadees = [...new Set(scored.filter((conversation) => conversation.persuader === persuader).map((conversation) => conversation.persuadee))].sort();
    const both = persuadees.flatMap((persuadee) => {
      const used = table.cellIndex(cell(persuader, persuadee, true));
      const other = table.cellIndex(cell(persuader, persuadee, false));
      return used === undefined || other === undefined ? [] : [{ used, other }];
    });
    return both.length === 0
      ? undefined
      : {
          pairs: both.length,
          statistic: [
            { cells: both.map((entry) => entry.used), weight: 1 },
            { cells: both.map((entry) => entry.other), weight: -1 },
          ],
        };
  });
  const estimates = estimateOverClaims(
    table.slices(),
    statistics.flatMap((entry) => (entry ? [entry.statistic] : [])),
    options,
  );
  const pHolm = holmAdjust(estimates.map((estimate) => estimate.p));
  let next = 0;
  return persuaders.map((persuader, index): UnethicalEffectiveness => {
    const mine = scored.filter((conversation) => conversation.persuader === persuader);
    const withList = mine.filter((conversation) => conversation.strategies.size > 0);
    const withoutList = mine.filter((conversation) => conversation.strategies.size === 0);
    const counts = { nWith: withList.length, nWithout: withoutList.length };
    const entry = statistics[index];
    if (!entry) {
      const reason = withList.length === 0 ? 'never-used' : withoutList.length === 0 ? 'always-used' : 'no-pair-with-both';
      return { status: 'no-estimate', reason, ...counts };
    }
    const position = next++;
    const estimate = estimates[position]!;
    const mean = (list: readonly EthicsConversation[]) => list.reduce((total, conversation) => total + conversation.normalizedChange!, 0) / list.length;
    return {
      status: 'estimated',
      meanWith: mean(withList),
      meanWithout: mean(withoutList),
      ...counts,
      difference: estimate.value,
      ciLow: estimate.ciLow,
      ciHigh: estimate.ciHigh,
      se: estimate.se,
      claims: estimate.claims,
      pairs: entry.pairs,
      thin: isThin(estimate),
      p: estimate.p,
      pHolm: pHolm[position]!,
    };
  });
}

/**
 * `ethics.perModel`: per domain and setting, each persuader's share of conversations in which the
 * judge found at least one unethical strategy, and each strategy's share (t intervals over claims,
 * clipped to [0, 1]); and the relation to effectiveness (`UnethicalEffectiveness`). A conversation
 * counts when one of its persuader turns has labels (failed conversations too: they show what a
 * persuader did); the relation to NC reads completed conversations only.
 */
export function ethicsByPersuader(
  conversations: readonly OutcomeLabelledConversation[],
  strategies: readonly string[],
  options: IntervalOptions,
): PersuaderEthics[] {
  const all = ethicsConversations(conversations);
  const ids = [...new Set([...strategies, ...all.flatMap((conversation) => [...conversation.strategies])])];
  const groups = new Map<string, EthicsConversation[]>();
  for (const conversation of all) {
    const key = `${conversation.domain}${SEPARATOR}${conversation.setting}`;
    const group = groups.get(key);
    if (group) group.push(conversation);
    else groups.set(key, [conversation]);
  }
  return [...groups.values()].flatMap((group) => {
    const persuaders = [...new Set(group.map((conversation) => conversation.persuader))].sort();
    const cells = persuaders.flatMap((persuader) => [ANY, ...ids].map((id) => `${persuader}${SEPARATOR}${id}`));
    const observations = group.flatMap((conversation) =>
      [ANY, ...ids].map((id) => ({
        cell: `${conversation.persuader}${SEPARATOR}${id}`,
        claim: conversation.claimKey,
        yes: id === ANY ? conversation.strategies.size > 0 : conversation.strategies.has(id),
      })),
    );
    const shares = sharesOverClaims(observations, cells, options);
    const effects = effectivenessOf(group, persuaders, options);
    return persuaders.map((persuader, index): PersuaderEthics => {
      const mine = group.filter((conversation) => conversation.persuader === persuader);
      return {
        domain: group[0]!.domain,
        setting: group[0]!.setting,
        persuader,
        conversations: mine.length,
        withUnethical: mine.filter((conversation) => conversation.strategies.size > 0).length,
        ...shares.get(`${persuader}${SEPARATOR}${ANY}`)!,
        strategies: ids.map((id) => ({
          id,
          conversations: mine.filter((conversation) => conversation.strategies.has(id)).length,
          ...shares.get(`${persuader}${SEPARATOR}${id}`)!,
        })),
        withVsWithout: effects[index]!,
      };
    });
  });
}
