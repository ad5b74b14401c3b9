import { formatP } from '../../../domain/text-labels.js';
import type { ShareEstimate } from '../../../metrics/intervals/claim-shares.js';
import type { ProtocolEstimateCell, ProtocolTable } from '../../../studies/protocol-outputs.js';
import type { PersusafetyConditionDifference } from '../persusafety-condition-comparison.js';
import type { PersusafetyGroupShares } from '../persusafety-strategy-shares.js';
import type { PersusafetyPersuaderRefusals } from '../persusafety-task-refusals.js';

/**
 * The tables of PersuSafety's report section beside its strategy shares: the task declined by harmfulness level, the
 * profile shown against hidden paired by scene, and what the judge's answers came to. Every share is an estimate
 * cell whose n is the scenes it rests on.
 */

/** The significance level a comparison's reading is taken at, on its Holm-adjusted p. */
export const PERSUSAFETY_ALPHA = 0.05;

const shareCell = (share: ShareEstimate): ProtocolEstimateCell => ({
  estimate: share.share,
  ciLow: share.ciLow,
  ciHigh: share.ciHigh,
  n: share.claims,
  thin: share.thin,
});

/** The task declined per persuader and level (Low, Medium, High, all harmful tasks, the neutral scenes). */
export function taskRefusalsTable(refusals: readonly PersusafetyPersuaderRefusals[]): ProtocolTable {
  return {
    id: 'task-refusals',
    title: 'Task declined at the probe, by harmfulness level',
    note: "The share of conversations whose persuader declined the task when first given it (the probe's flag not 1), with its interval over scenes; n = scenes, a scene's conversations under every profile, condition, constraint and repetition one cluster. All harmful pools Low, Medium and High; neutral is the neutral scenes. In a run pmiyc made a declined task ends the conversation there: it is in no strategy, decision or judgement figure.",
    header: ['persuader', 'level', 'declined', 'conversations', 'share declined'],
    rows: refusals.flatMap(({ persuader, rates }) =>
      rates.map((rate) => [{ model: persuader }, rate.level, rate.refused, rate.conversations, shareCell(rate)]),
    ),
  };
}

/** What a comparison's numbers say: a difference, none shown, or too few scenes to hold the interval's coverage. */
export function comparisonReading(difference: Pick<PersusafetyConditionDifference, 'difference' | 'pHolm' | 'thin'>): string {
  if (Number.isNaN(difference.difference)) return 'no scene played both ways';
  if (difference.thin) return difference.pHolm < PERSUSAFETY_ALPHA ? 'differ, on too few scenes to trust' : 'too few scenes';
  return difference.pHolm < PERSUSAFETY_ALPHA ? 'differ' : 'no evidence of a difference';
}

/** The profile shown against hidden: each condition's share, the paired difference with its interval, p, p (Holm) and the reading. */
export function conditionComparisonTable(differences: readonly PersusafetyConditionDifference[]): ProtocolTable {
  return {
    id: 'profile-shown-vs-hidden',
    title: "The persuadee's profile shown against hidden, paired by scene",
    note: `For any strategy and each of the 15: the share of conversations the judge scored 2 (of those whose scores were read); for accepted: the share of decided conversations the persuadee accepted. Each condition's share is over all its scenes; shown - hidden is over the scenes played both ways (n = those scenes), with a t test over them. p (Holm) is adjusted over the 15 strategies of one persuader and study; any strategy's and accepted's are their own p. The reading takes p (Holm) < ${PERSUSAFETY_ALPHA}.`,
    header: ['persuader', 'study', 'measure', 'profile shown', 'profile hidden', 'shown - hidden', 'p', 'p (Holm)', 'reading'],
    rows: differences.map((difference) => [
      { model: difference.persuader },
      difference.study,
      difference.measure,
      shareCell(difference.visible),
      shareCell(difference.hidden),
      { estimate: difference.difference, ciLow: difference.ciLow, ciHigh: difference.ciHigh, n: difference.scenes, thin: difference.thin },
      formatP(difference.p),
      formatP(difference.pHolm),
      comparisonReading(difference),
    ]),
  };
}

/** What the judge's answers came to per persuader, study and condition: read, could not be read, or not asked. */
export function judgementsTable(groups: readonly PersusafetyGroupShares[]): ProtocolTable {
  return {
    id: 'judgements',
    title: "The judge's answers",
    note: "Of the conversations played (a declined task is in the task refusals alone): those whose 15 scores were read, those whose judge's answer could not be read after every attempt, and those the judge was not asked about (the persuader's every message withheld). An unread or unasked conversation is in no strategy share: it is not read as a conversation with no strategy used.",
    header: ['persuader', 'study', 'condition', 'conversations played', 'scores read', 'answer unread', 'not asked'],
    rows: groups
      .filter((group) => group.profile === 'all')
      .map((group) => [{ model: group.persuader }, group.study, group.condition, group.conversations, group.judged, group.unread, group.notAsked]),
  };
}
