import { InputError } from '../../domain/errors/input-error.js';
import type { StoreError } from '../../domain/errors/store-error.js';
import { createStreamWriter } from '../../io/stream-writer.js';
import { agentColumnsOf } from '../../report/agent-variants.js';
import { csvHeader, exportLine, turnLines, turnsCsvHeader } from '../../report/csv/export-rows.js';
import { noteCsvHeader, noteLine } from '../../report/csv/note-rows.js';
import type { ExportFormat } from '../../report/report-formats.js';
import { openStore } from '../../store/result-store.js';
import { analysisConfigOf } from '../../studies/analysis/analysis-design.js';
import { turnTagsOf } from '../../studies/analysis/turn-tags.js';
import { chooseStudy } from '../../studies/chosen-study.js';
import type { CliContext } from '../terminal.js';
import { exportProtocolRun } from './export-protocol.js';

export interface ExportOptions {
  readonly store: string;
  readonly run?: string;
  readonly format: ExportFormat;
  /** --notes: the researchers' notes (issue 32) instead of the conversations: of --run, else of every run. */
  readonly notes?: boolean;
  /** --skip-damaged: leave out conversations whose records do not decode (counted on standard error) instead of stopping. */
  readonly skipDamaged?: boolean;
  /** --out: the folder a protocol run's CSV files are written to (--format csv); every other export goes to standard output. */
  readonly out?: string;
}

/** --out given where the export goes to standard output. */
const OUT_NOT_HERE =
  "--out is the folder of a protocol run's CSV files (pmiyc export --run NAME --format csv --out DIR); this export goes to standard output: redirect it (> FILE)";

/** What --skip-damaged left out: how many, the first few by id, and that the store is damaged. */
function skippedText(run: string, skipped: readonly string[]): string {
  const named = skipped.slice(0, 5).join(', ') + (skipped.length > 5 ? `, and ${skipped.length - 5} more` : '');
  const noun = skipped.length === 1 ? 'conversation' : 'conversations';
  return `skipped ${skipped.length} damaged ${noun} of run ${run} whose records cannot be read (${named}): the store is damaged; restore it from a copy to export them`;
}

/**
 * `pmiyc export`: streams a run's conversations as JSON lines or CSV to standard output, or its
 * turns as CSV (`turns-csv`, with the tags of the run's latest analysis study), or with --notes the
 * researchers' notes, waiting whenever the reader is slower; a protocol's run (APE, ...) as its
 * protocol exports it (`exportProtocolRun`). A reader that goes away (`| head -1`)
 * ends the export quietly with code 0; a failed write (`> /dev/full`: ENOSPC) throws an
 * `OutputWriteError`, which the CLI prints as one line with exit code 1.
 */
export async function exportCommand(options: ExportOptions, context: CliContext): Promise<number> {
  const store = openStore(options.store, { access: 'read' });
  const output = createStreamWriter(context.stdout, 'standard output', {
    again: 'run the export again',
    elsewhere: 'a file on a disk with room (pmiyc export > FILE)',
  });
  try {
    if (options.notes) {
      if (options.out !== undefined) throw new InputError(OUT_NOT_HERE);
      if (options.format === 'turns-csv') throw new InputError('--notes exports notes as jsonl or csv; --format turns-csv is for the turns of a run');
      const notes = options.run === undefined ? store.notes.listAll() : store.notes.list(store.findRun(options.run, 'tournament').id);
      if (options.format === 'csv' && !(await output.write(noteCsvHeader()))) return 0;
      for (const note of notes) if (!(await output.write(noteLine(note, options.format)))) return 0;
      await output.flush();
      return 0;
    }
    const run = store.findRun(options.run, 'tournament');
    if (run.config.kind === 'protocol') {
      const { protocol } = run.config;
      return await exportProtocolRun({ ...options, run, protocol, records: () => store.protocolRecords.list(run.id) }, output, context);
    }
    if (options.out !== undefined) throw new InputError(OUT_NOT_HERE);
    const agents = agentColumnsOf({ name: run.name, config: run.config });
    const format = options.format;
    const skipped: string[] = [];
    const onDamaged = options.skipDamaged ? (error: StoreError) => skipped.push(error.record?.conversationId ?? '?') : undefined;
    const conversations = () => store.conversations(run.id, undefined, onDamaged);
    if (format === 'turns-csv') {
      const study = chooseStudy(store, { kind: 'analysis', runs: [run] });
      const config = study && analysisConfigOf(study.name, study.study.config);
      const judges = config ? { judges: config.design.judges, simulated: config.simulated } : undefined;
      if (!(await output.write(turnsCsvHeader()))) return 0;
      for (const record of conversations()) {
        const tags =
          study && config && judges
            ? {
                name: study.name,
                judge: judges.judges[0]!,
                tags: turnTagsOf(store.analysis.labelsOf(study.study.id, record.conversationId), config.design.taxonomy, judges),
              }
            : null;
        const lines = turnLines(record, agents, tags);
        if (lines !== '' && !(await output.write(lines))) return 0;
      }
    } else {
      if (format === 'csv' && !(await output.write(csvHeader()))) return 0;
      for (const record of conversations()) if (!(await output.write(exportLine(record, format, agents)))) return 0;
    }
    await output.flush();
    if (skipped.length > 0) context.stderr.write(`pmiyc: ${skippedText(run.name, skipped)}\n`);
    return 0;
  } finally {
    output.release();
    store.close();
  }
}
