import type { AnnotationConversation } from '../../../studies/annotation/annotation-tasks.js';
import type { LabelPost, SessionAnswer } from '../../wire/annotation-answers.js';

/*
 * The annotation page's state: the task set, the labels (kept, and not yet confirmed by the
 * server), and where the annotator is. One object, shared by the page's modules.
 */

export interface AnnotationState {
  session: SessionAnswer | null;
  /** The keys of every turn to label in the task set. */
  readonly known: Set<string>;
  /** The latest label of each turn, by key; a null score is a cleared label. */
  readonly labels: Map<string, LabelPost>;
  /** Labels the server has not confirmed yet, by key. */
  readonly pending: Map<string, LabelPost>;
  /** The conversation shown (its position in the task set) and the highlighted turn's index. */
  conversation: number;
  turn: number | undefined;
  /** Where this browser keeps the labels: one key per task set and annotator. */
  storageKey: string;
  sending: boolean;
  retry: number;
  /** Why the server refused a label, shown until the next label is given. */
  failure: string;
}

export const state: AnnotationState = {
  session: null,
  known: new Set(),
  labels: new Map(),
  pending: new Map(),
  conversation: 0,
  turn: 0,
  storageKey: '',
  sending: false,
  retry: 0,
  failure: '',
};

export const keyOf = (conversationId: string, turnIndex: number): string => `${conversationId}#${turnIndex}`;

export const conversationAt = (position: number): AnnotationConversation | undefined => state.session!.conversations[position];
export const current = (): AnnotationConversation => conversationAt(state.conversation)!;
export const turnsToLabel = (conversation: AnnotationConversation): number[] => conversation.turns.filter((turn) => turn.toLabel).map((turn) => turn.index);

/** The score a turn is labelled with, or null. */
export function labelOf(conversation: AnnotationConversation, turnIndex: number): number | null {
  const label = state.labels.get(keyOf(conversation.conversationId, turnIndex));
  return label && label.score !== null ? label.score : null;
}

export const unlabelled = (conversation: AnnotationConversation): number[] =>
  turnsToLabel(conversation).filter((index) => labelOf(conversation, index) === null);

/** The position of a turn among the turns to label; -1 when it is none of them. */
export const positionOf = (turns: readonly number[], turn: number | undefined): number => (turn === undefined ? -1 : turns.indexOf(turn));

/** The first unlabelled turn from the conversation shown on, wrapping around; null when every turn is labelled. */
export function firstUnlabelled(): { position: number; turn: number } | null {
  const total = state.session!.conversations.length;
  for (let step = 0; step < total; step++) {
    const position = (state.conversation + step) % total;
    const open = unlabelled(conversationAt(position)!);
    if (open.length > 0) return { position, turn: open[0]! };
  }
  return null;
}
