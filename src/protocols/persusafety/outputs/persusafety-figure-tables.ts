import type { ProtocolEstimateCell, ProtocolTable, ProtocolTableCell } from '../../../studies/protocol-outputs.js';
import { PERSUSAFETY_PERSUADEE_PROFILES, PERSUSAFETY_STRATEGIES, type PersusafetyProfile } from '../persusafety-facts.js';
import type { PersusafetyGroupShares } from '../persusafety-strategy-shares.js';

/**
 * The tables of PersuSafety's report section, from its strategy shares (`persusafetyStrategyShares`): the 15
 * strategies' shares scored 2 and scored 1 per persuadee profile and over all profiles, and the persuadee's
 * decisions. Every share is an estimate cell whose n is the scenes it rests on; the report renders the cells.
 */

type CountedShare = PersusafetyGroupShares['accepted'];
type Level = 'clearlyUsed' | 'ambiguous';

/** A share as a table cell: the share, its interval over scenes, n = scenes. */
const shareCell = (share: CountedShare): ProtocolEstimateCell => ({
  estimate: share.share,
  ciLow: share.ciLow,
  ciHigh: share.ciHigh,
  n: share.claims,
  thin: share.thin,
});

/** A profile a block has no conversation with: n/a. */
const NO_SHARE: ProtocolEstimateCell = { estimate: Number.NaN, ciLow: Number.NaN, ciHigh: Number.NaN, n: 0, thin: true };

/** The persuadee profiles the run has conversations with, in PersuSafety's order. */
const profilesIn = (groups: readonly PersusafetyGroupShares[]): PersusafetyProfile[] =>
  PERSUSAFETY_PERSUADEE_PROFILES.filter((profile) => groups.some((group) => group.profile === profile));

/** The same persuader, study and condition. */
const sameBlock = (a: PersusafetyGroupShares, b: PersusafetyGroupShares) => a.persuader === b.persuader && a.study === b.study && a.condition === b.condition;

const LEVEL_WORDS: Readonly<Record<Level, { readonly id: string; readonly title: string; readonly score: string }>> = {
  clearlyUsed: { id: 'clearly-used-by-profile', title: 'Strategies clearly used (scored 2), by persuadee profile', score: '2 (clearly used)' },
  ambiguous: { id: 'ambiguous-by-profile', title: 'Strategies ambiguously used (scored 1), by persuadee profile', score: '1 (ambiguous)' },
};

/** The 15 strategies' shares at one score level: a row per persuader, study, condition and strategy; a column per profile, then all profiles. */
export function strategiesByProfileTable(groups: readonly PersusafetyGroupShares[], level: Level): ProtocolTable {
  const profiles = profilesIn(groups);
  const words = LEVEL_WORDS[level];
  const blocks = groups.filter((group) => group.profile === 'all');
  const cellOf = (block: PersusafetyGroupShares, profile: PersusafetyGroupShares['profile'], index: number): ProtocolEstimateCell => {
    const group = groups.find((candidate) => sameBlock(candidate, block) && candidate.profile === profile);
    if (group === undefined) return NO_SHARE;
    // Conversations whose judge's scores were never read give no share, and say why rather than showing one of 0.
    return group.judged === 0 ? { ...NO_SHARE, reason: `0 of ${group.conversations} judgements read` } : shareCell(group.strategies[index]![level]);
  };
  return {
    id: words.id,
    title: words.title,
    note: `Each cell is the share of the group's conversations whose judge scored the strategy ${words.score}, of those whose scores were read, with its interval over scenes; n = scenes. "all profiles" pools every profile, a scene's conversations counting as one scene. A profile a group has no conversation with is n/a.`,
    header: ['persuader', 'study', 'condition', 'strategy', ...profiles, 'all profiles'],
    rows: blocks.flatMap((block) =>
      PERSUSAFETY_STRATEGIES.map((strategy, index): ProtocolTableCell[] => [
        { model: block.persuader },
        block.study,
        block.condition,
        strategy,
        ...profiles.map((profile) => cellOf(block, profile, index)),
        cellOf(block, 'all', index),
      ]),
    ),
  };
}

/** The persuadee's final decisions per persuader, study, condition and profile (and over all profiles). */
export function decisionsTable(groups: readonly PersusafetyGroupShares[]): ProtocolTable {
  return {
    id: 'decisions',
    title: "The persuadee's decisions",
    note: 'Accepted and rejected are shares of the conversations that reached a decision, with their intervals over scenes (n = scenes); undecided conversations are counted apart and are in neither share.',
    header: ['persuader', 'study', 'condition', 'profile', 'conversations', 'scenes', 'accepted', 'rejected', 'undecided'],
    rows: groups.map((group) => [
      { model: group.persuader },
      group.study,
      group.condition,
      group.profile === 'all' ? 'all profiles' : group.profile,
      group.conversations,
      group.scenes,
      shareCell(group.accepted),
      shareCell(group.rejected),
      group.undecided,
    ]),
  };
}
