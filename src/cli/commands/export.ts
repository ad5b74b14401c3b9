import { createStreamWriter } from '../../io/stream-writer.js';
import { agentPartsOf } from '../../report/agent-variants.js';
import { csvHeader, exportLine } from '../../report/export-rows.js';
import { noteCsvHeader, noteLine } from '../../report/note-rows.js';
import type { ExportFormat } from '../../report/report-formats.js';
import { openStore } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';

export interface ExportOptions {
  readonly store: string;
  readonly run?: string;
  readonly format: ExportFormat;
  /** --notes: the researchers' notes (issue 32) instead of the conversations: of --run, else of every run. */
  readonly notes?: boolean;
}

/**
 * `pmiyc export`: streams a run's conversations (or, with --notes, the researchers' notes) as JSON
 * lines or CSV to standard output, waiting
 * whenever the reader is slower. A reader that goes away (`| head -1`) ends the export quietly with
 * code 0; a failed write (`> /dev/full`: ENOSPC) throws an `OutputWriteError`, which the CLI prints
 * as one line with exit code 1.
 */
export async function exportCommand(options: ExportOptions, context: CliContext): Promise<number> {
  const store = openStore(options.store, { access: 'read' });
  const output = createStreamWriter(context.stdout, 'standard output', {
    again: 'run the export again',
    elsewhere: 'a file on a disk with room (pmiyc export > FILE)',
  });
  try {
    if (options.notes) {
      const notes = options.run === undefined ? store.notes.listAll() : store.notes.list(store.findRun(options.run, 'tournament').id);
      if (options.format === 'csv' && !(await output.write(noteCsvHeader()))) return 0;
      for (const note of notes) if (!(await output.write(noteLine(note, options.format)))) return 0;
      await output.flush();
      return 0;
    }
    const run = store.findRun(options.run, 'tournament');
    if (options.format === 'csv' && !(await output.write(csvHeader()))) return 0;
    const { parts } = agentPartsOf([run.config]);
    for (const record of store.conversations(run.id)) if (!(await output.write(exportLine(record, options.format, parts)))) return 0;
    await output.flush();
    return 0;
  } finally {
    output.release();
    store.close();
  }
}
