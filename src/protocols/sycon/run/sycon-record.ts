import { z } from 'zod';
import { DatasetError } from '../../../domain/errors/dataset-error.js';
import type { StoredProtocolRecord } from '../../../studies/protocol-records.js';
import { SYCON_LABELS, SYCON_SETTINGS, type SyconSetting } from '../sycon-facts.js';
import type { SyconScoredConversation } from '../sycon-metrics.js';
import { SYCON_PRESSURE_SOURCES, type SyconTurn } from '../sycon-outcome.js';
import { syconQuestionKey } from '../sycon-questions.js';

/**
 * The record a SYCON run stores of one finished conversation (the store's `protocol_records`, one per item): what
 * the conversation was (model, defence, question, repetition) and everything it came to, every call's attempts
 * included. Read back through `syconRecordSchema`, which checks what the metrics, the closing text and the export
 * read; the rest is kept as stored.
 */

/** Which conversation a record is of: the run's item. */
export interface SyconItem {
  readonly persuadee: string;
  readonly defence: string;
  readonly setting: SyconSetting;
  readonly questionIndex: number;
  readonly repetition: number;
}

/** An item's key in the store: sorts by model, defence, setting, question, then repetition. */
export const syconItemKey = (item: SyconItem): string =>
  `${item.persuadee}/${item.defence}/${syconQuestionKey({ setting: item.setting, index: item.questionIndex })}/repetition-${String(item.repetition).padStart(3, '0')}`;

/** What is written: the conversation's plan and who took part, then its turns. */
export interface SyconRecord extends SyconItem {
  readonly judge: string;
  /** The pressure agent of the run, when it names one (a push-back of its own says so in its source). */
  readonly persuader?: string;
  /** The defence's system prompt, as the model was given it (with the stance, in a debate). */
  readonly systemPrompt: string;
  readonly question: string;
  /** The stance the replies are judged against: the debate's stance, the correction of a false presupposition. */
  readonly stance: string;
  readonly presupposition?: string;
  readonly pressureTurns: number;
  readonly turns: readonly SyconTurn[];
}

const judgementSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal('read'), value: z.looseObject({ label: z.enum(SYCON_LABELS), reasoning: z.string() }) }),
  z.looseObject({ status: z.literal('unread'), problem: z.string() }),
]);

const turnSchema = z.looseObject({
  turn: z.number().int().min(0),
  pressure: z.looseObject({ source: z.enum(SYCON_PRESSURE_SOURCES), message: z.string() }).optional(),
  reply: z.looseObject({ message: z.string() }),
  judgement: judgementSchema,
});

const syconRecordSchema = z.looseObject({
  persuadee: z.string(),
  defence: z.string(),
  setting: z.enum(SYCON_SETTINGS),
  questionIndex: z.number().int().min(0),
  repetition: z.number().int().min(0),
  judge: z.string(),
  persuader: z.string().optional(),
  systemPrompt: z.string(),
  question: z.string(),
  stance: z.string(),
  presupposition: z.string().optional(),
  pressureTurns: z.number().int().min(1),
  turns: z.array(turnSchema),
});

export type SyconStoredRecord = z.infer<typeof syconRecordSchema>;

/** A stored record read by SYCON's schema; a record it refuses is named by its run and item. */
export function readSyconRecord(runName: string, stored: StoredProtocolRecord): SyconStoredRecord {
  const parsed = syconRecordSchema.safeParse(stored.record);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new DatasetError(
    { file: `run ${runName}, item ${stored.itemKey}` },
    `is not a SYCON-Bench record (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown'}): was the store written by another pmiyc?`,
    { fileIsSubject: true },
  );
}

/** A turn's label as the metrics read it: null where the judge's answer could not be read. */
export const labelOf = (turn: SyconStoredRecord['turns'][number]) => (turn.judgement.status === 'read' ? turn.judgement.value.label : null);

/** What SYCON's metrics read of a stored conversation. */
export function syconScoredConversationOf(record: SyconStoredRecord): SyconScoredConversation {
  return {
    persuadee: record.persuadee,
    defence: record.defence,
    setting: record.setting,
    questionKey: syconQuestionKey({ setting: record.setting, index: record.questionIndex }),
    labels: record.turns.map(labelOf),
  };
}
