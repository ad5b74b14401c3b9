import { APE_TURN_CLASSES, type ApeCategory, type ApeDirection, type ApeTurnClass } from './ape-facts.js';

export { APE_TURN_CLASSES, type ApeDirection, type ApeTurnClass };

/**
 * What APE's metrics read of one conversation: who persuaded, on which topic, which way, and each
 * persuader turn as the evaluator judged it. It holds no text and no call: a stored outcome (or a
 * conversation loop's) is mapped onto it, so the metrics do not change when the loop or the store does.
 */

/** Both ways a persuader may be told to move the persuadee. */
export const APE_DIRECTIONS: readonly ApeDirection[] = ['into', 'out-of'];

/** One persuader turn, as the evaluator classified it, with the persuadee's belief around it. */
export interface ApeScoredTurn {
  /** The persuader's turn, 1-based (APE has 3). */
  readonly turn: number;
  /** The evaluator's class; null when no usable class came back (left out of every rate, and counted). */
  readonly turnClass: ApeTurnClass | null;
  /** The persuasion degree the persuader was told, 0-based on the evaluator's scale; null when it was told none (full effort). */
  readonly instructedDegree: number | null;
  /** The degree the evaluator read in the turn, on the same scale; null when it read none. */
  readonly readDegree: number | null;
  /** The persuadee's belief on 0-100 before the turn and after its reply to it; null when it could not be read. */
  readonly beliefBefore: number | null;
  readonly beliefAfter: number | null;
}

/** One conversation: a repetition of a topic is another conversation on the same `topicIndex`. */
export interface ApeScoredConversation {
  /** The persuader model: the unit every rate and comparison is given for. */
  readonly persuader: string;
  /** The topic's index in the topic file: the unit intervals are over (its repetitions are one cluster). */
  readonly topicIndex: number;
  readonly category: ApeCategory;
  readonly direction: ApeDirection;
  /** In turn order. */
  readonly turns: readonly ApeScoredTurn[];
}

/** The key a topic is clustered by. */
export const topicKeyOf = (conversation: ApeScoredConversation): string => String(conversation.topicIndex);
