import { z } from 'zod';
import { DatasetError } from '../../../domain/errors/dataset-error.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import { APE_CATEGORIES, APE_TURN_CLASSES } from '../ape-facts.js';
import type { ApeOpening, ApeTurn } from '../ape-outcome.js';
import type { ApeScoredConversation, ApeScoredTurn } from '../ape-scored-conversation.js';

/**
 * The record an APE run stores of one finished conversation (the store's `protocol_records`, one per item):
 * what the conversation was (persuader, topic, repetition, drawn start) and everything it came to, every call's
 * attempts included. Read back through `apeRecordSchema`, which checks what the metrics, the closing text and
 * an export read; the rest is kept as stored.
 */

/** Which conversation a record is of: the run's item. */
export interface ApeItem {
  readonly persuader: string;
  readonly topicIndex: number;
  readonly repetition: number;
}

/** An item's key in the store: sorts by persuader, then topic, then repetition. */
export const apeItemKey = (item: ApeItem): string =>
  `${item.persuader}/topic-${String(item.topicIndex).padStart(4, '0')}/repetition-${String(item.repetition).padStart(3, '0')}`;

/** What is written: the conversation's plan and who took part, then its opening and turns. */
export interface ApeRecord extends ApeItem {
  readonly persuadee: string;
  readonly evaluator: string;
  readonly refusalCheck?: string;
  readonly category: (typeof APE_CATEGORIES)[number];
  readonly shortTitle: string;
  readonly statement: string;
  readonly startingBelief: number;
  readonly direction: 'into' | 'out-of';
  /** The degree the persuader was told; absent when it was told none. */
  readonly degree?: number;
  /** The degree drawn for the conversation, told or not. */
  readonly drawnDegree: number;
  readonly opening: ApeOpening;
  readonly turns: readonly ApeTurn[];
}

const evaluationSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal('read'), value: z.looseObject({ turnClass: z.enum(APE_TURN_CLASSES), degree: z.number().int() }) }),
  z.looseObject({ status: z.literal('unread'), problem: z.string() }),
  z.looseObject({ status: z.literal('withheld') }),
]);

const refusalCheckSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal('read'), value: z.looseObject({ refused: z.boolean(), convincing: z.number(), specific: z.number() }) }),
  z.looseObject({ status: z.literal('unread'), problem: z.string() }),
  z.looseObject({ status: z.literal('withheld') }),
]);

const turnSchema = z.looseObject({
  turn: z.number().int().min(1),
  persuader: z.looseObject({ message: z.string(), withheld: z.boolean() }),
  evaluation: evaluationSchema,
  refusalCheck: refusalCheckSchema.optional(),
  reply: z.looseObject({ message: z.string(), raw: z.string(), belief: z.number() }),
});

const apeRecordSchema = z.looseObject({
  persuader: z.string(),
  persuadee: z.string(),
  evaluator: z.string(),
  refusalCheck: z.string().optional(),
  topicIndex: z.number().int().min(0),
  repetition: z.number().int().min(0),
  category: z.enum(APE_CATEGORIES),
  shortTitle: z.string(),
  statement: z.string(),
  startingBelief: z.number(),
  direction: z.enum(['into', 'out-of']),
  degree: z.number().int().optional(),
  drawnDegree: z.number().int(),
  opening: z.looseObject({ message: z.string() }),
  turns: z.array(turnSchema),
});

export type ApeStoredRecord = z.infer<typeof apeRecordSchema>;

/** A stored record read by APE's schema; a record it refuses is named by its run and item. */
export function readApeRecord(runName: string, stored: StoredProtocolRecord): ApeStoredRecord {
  const parsed = apeRecordSchema.safeParse(stored.record);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new DatasetError(
    { file: `run ${runName}, item ${stored.itemKey}` },
    `is not an APE record (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown'}): was the store written by another pmiyc?`,
    { fileIsSubject: true },
  );
}

/** A turn as the metrics read it: the class (a withheld message is a refusal), the degrees, the beliefs around it. */
function scoredTurnOf(record: ApeStoredRecord, index: number): ApeScoredTurn {
  const turn = record.turns[index]!;
  const { evaluation } = turn;
  const turnClass = evaluation.status === 'withheld' ? 'refusal' : evaluation.status === 'read' ? evaluation.value.turnClass : null;
  return {
    turn: turn.turn,
    turnClass,
    instructedDegree: record.degree ?? null,
    readDegree: evaluation.status === 'read' ? evaluation.value.degree : null,
    beliefBefore: index === 0 ? record.startingBelief : record.turns[index - 1]!.reply.belief,
    beliefAfter: turn.reply.belief,
  };
}

/** What APE's metrics read of a stored conversation. */
export function apeScoredConversationOf(record: ApeStoredRecord): ApeScoredConversation {
  return {
    persuader: record.persuader,
    topicIndex: record.topicIndex,
    category: record.category,
    direction: record.direction,
    turns: record.turns.map((_, index) => scoredTurnOf(record, index)),
  };
}
