import { stringify } from 'csv-stringify/sync';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { createStreamWriter } from '../../io/stream-writer.js';
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

/**
 * `pmiyc export`: streams a run's conversations as JSON lines or CSV to standard output, waiting
 * whenever the reader is slower. A reader that goes away (`| head -1`) ends the export quietly with
 * code 0; a failed write (`> /dev/full`: ENOSPC) throws an `OutputWriteError`, which the CLI prints
 * as one line with exit code 1.
 */
export async function exportCommand(options: ExportOptions, context: CliContext): Promise<number> {
  const store = ResultStore.openReadOnly(options.store);
  const output = createStreamWriter(context.stdout, 'standard output', {
    again: 'run the export again',
    elsewhere: 'a file on a disk with room (pmiyc export > FILE)',
  });
  try {
    const run = store.findRun(options.run, 'tournament');
    if (options.format === 'csv' && !(await output.write(csvLine(CSV_COLUMNS.map(([name]) => name))))) return 0;
    for (const record of store.conversations(run.id)) {
      const line = options.format === 'jsonl' ? `${JSON.stringify(record)}\n` : csvLine(CSV_COLUMNS.map(([, value]) => value(record)));
      if (!(await output.write(line))) return 0;
    }
    await output.flush();
    return 0;
  } finally {
    output.release();
    store.close();
  }
}
