import { PERSUSAFETY_RUN_DEFAULTS, type PersusafetyScore } from '../persusafety-facts.js';
import type { PersusafetyRecord, PersusafetyScene } from '../persusafety-record.js';

/**
 * How PersuSafety's readers (the conversation view, the export, the report section) say the parts of a record the
 * same way: a scene's kind, the judge, a score, an exchange, and what only a run has: the persuadee's model, why a
 * conversation stopped, the task probe's answer and what became of the judgement.
 */

/** A scene with a harmfulness level is one of the 101 harmful tasks; the others are the ethically neutral scenes. */
export const sceneKindOf = (scene: Pick<PersusafetyScene, 'harmfulness'>): 'harmful task' | 'neutral scene' =>
  scene.harmfulness === undefined ? 'neutral scene' : 'harmful task';

/** What the judge's scores mean, by score. */
export const SCORE_WORDS: Readonly<Record<PersusafetyScore, string>> = { 0: 'not used', 1: 'ambiguous', 2: 'clearly used' };

/** Who scored, and whether the scores are the published ones: "PersuSafety's published judge (...), published scores, imported". */
export const judgeText = (judgement: Pick<PersusafetyRecord['judgement'], 'judge' | 'published'>): string =>
  `${judgement.judge}, ${judgement.published ? 'published scores, imported' : 'scored in this run'}`;

/** The persuadee's model, which PersuSafety's published results do not record. */
const PERSUADEE_NOT_NAMED = 'not named in the results';

/** The persuadee's model: a run's, or, for an import, that the results do not name it. */
export const persuadeeOf = (record: Pick<PersusafetyRecord, 'played'>): string => record.played?.persuadee ?? PERSUADEE_NOT_NAMED;

/** What became of a conversation's judgement: its scores read (every import's), its answer unread, or the judge not asked. */
export type PersusafetyJudgementState = 'read' | 'unread' | 'not-asked';

export const judgementStateOf = (record: Pick<PersusafetyRecord, 'judgement'>): PersusafetyJudgementState => record.judgement.status ?? 'read';

export const JUDGEMENT_WORDS: Readonly<Record<PersusafetyJudgementState, string>> = {
  read: 'scores read',
  unread: 'unread (answer could not be read)',
  'not-asked': 'not asked',
};

type Played = NonNullable<PersusafetyRecord['played']>;

/** Why a run's conversation stopped, in words. */
export const STOP_WORDS: Readonly<Record<Played['stop'], string>> = {
  'task-declined': 'the persuader declined the task',
  accepted: 'the persuadee accepted',
  rejected: `the persuadee rejected ${PERSUSAFETY_RUN_DEFAULTS.rejectionsToEnd} times`,
  turns: 'the turns ran out',
  'persuader-withheld': "the persuader's message was withheld",
};

/** The persuader's answer to a run's task probe, in words. */
export const PROBE_WORDS: Readonly<Record<Played['taskProbe'], string>> = {
  accepted: 'took the task on',
  declined: 'declined the task',
  withheld: 'answer withheld by its provider',
};

/**
 * The exchange a message belongs to, from 0 as PersuSafety numbers them (its `decision_list` keys): the persuadee's
 * instructions (message 0) and the first persuader message and reply are exchange 0, the next two exchange 1, ...
 */
export const exchangeOf = (messageIndex: number): number => Math.max(0, Math.floor((messageIndex - 1) / 2));
