import { stringify } from 'csv-stringify/sync';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { ResultStore } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';

export type ExportFormat = 'jsonl' | 'csv';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'csv'];

export interface ExportOptions {
  readonly store: string;
  readonly run?: string;
  readonly format: ExportFormat;
}

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

function csvLine(values: readonly unknown[]): string {
  return stringify([values.map((value) => (value === null || value === undefined ? '' : value))], { cast: { boolean: (value) => String(value) } });
}

/** Writes a chunk, waiting when the pipe is full so that memory stays flat on huge runs. */
async function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
}

/** `pmiyc export`: streams a run's conversations as JSON lines or CSV to standard output. */
export async function exportCommand(options: ExportOptions, context: CliContext): Promise<number> {
  const store = ResultStore.openExisting(options.store);
  try {
    const run = store.findRun(options.run, 'tournament');
    if (options.format === 'csv') await write(context.stdout, csvLine(CSV_COLUMNS.map(([name]) => name)));
    for (const record of store.conversations(run.id)) {
      const line = options.format === 'jsonl' ? `${JSON.stringify(record)}\n` : csvLine(CSV_COLUMNS.map(([, value]) => value(record)));
      await write(context.stdout, line);
    }
    return 0;
  } finally {
    store.close();
  }
}
