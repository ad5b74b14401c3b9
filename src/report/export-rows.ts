import { stringify } from 'csv-stringify/sync';
import type { ConversationRecord } from '../domain/conversation-record.js';

/** One CSV row per conversation: the export line without its turns. */
const CSV_COLUMNS: ReadonlyArray<[string, (record: ConversationRecord) => unknown]> = [
  ['run', (record) => record.run],
  ['conversationId', (record) => record.conversationId],
  ['domain', (record) => record.domain],
  ['setting', (record) => record.setting],
  ['turnsPlanned', (record) => record.turnsPlanned],
  ['repetition', (record) => record.repetition],
  ['claimIndex', (record) => record.claimIndex],
  ['claim', (record) => record.claim],
  ['question', (record) => record.question],
  ['origin', (record) => record.origin],
  ['license', (record) => record.license],
  ['persuader', (record) => record.persuader],
  ['persuadee', (record) => record.persuadee],
  ['persuaderSimulated', (record) => record.simulated.persuader],
  ['persuadeeSimulated', (record) => record.simulated.persuadee],
  ['status', (record) => record.status],
  ['failureReason', (record) => record.failureReason],
  ['failedTurn', (record) => record.failedTurn],
  ['failedRole', (record) => record.failedRole],
  ['earlyStopped', (record) => record.earlyStopped],
  ['initialScore', (record) => record.initialScore],
  ['finalScore', (record) => record.finalScore],
  ['normalizedChange', (record) => record.normalizedChange],
  ['persuaderStance', (record) => record.persuaderStance],
  ['absoluteChange', (record) => record.absoluteChange],
  ['turns', (record) => record.turns.length],
  ['attempts', (record) => record.turns.reduce((total, turn) => total + turn.attempts.length, 0) + record.failedAttempts.length],
];

/** One CSV line (with its newline): empty cells for null and undefined, booleans as true/false. */
function csvLine(values: readonly unknown[]): string {
  return stringify([values.map((value) => (value === null || value === undefined ? '' : value))], { cast: { boolean: (value) => String(value) } });
}

/** The CSV header line of `pmiyc export --format csv`. */
export const csvHeader = (): string => csvLine(CSV_COLUMNS.map(([name]) => name));

/** One conversation as an export line: its JSON record, or its CSV row. */
export function exportLine(record: ConversationRecord, format: 'jsonl' | 'csv'): string {
  return format === 'jsonl' ? `${JSON.stringify(record)}\n` : csvLine(CSV_COLUMNS.map(([, value]) => value(record)));
}
