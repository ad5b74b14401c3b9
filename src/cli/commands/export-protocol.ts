import { join } from 'node:path';
import { InputError } from '../../domain/errors/input-error.js';
import { formatCounted } from '../../domain/text-labels.js';
import type { StreamWriter } from '../../io/stream-writer.js';
import { writeFilesAtomically } from '../../io/write-file-atomically.js';
import { protocolOutputsOf } from '../../kit/protocol-registry.js';
import { protocolCsvText } from '../../report/csv/protocol-csv.js';
import type { ExportFormat } from '../../report/report-formats.js';
import type { ProtocolCsv } from '../../studies/protocol-outputs.js';
import type { StoredProtocolRecord } from '../../studies/protocol-records.js';
import type { StudyRun } from '../../studies/run-config.js';
import type { CliContext } from '../terminal.js';

/** What `pmiyc export` of a protocol's run reads: the run, its records (in item-key order) and the options given. */
export interface ProtocolExport {
  readonly run: StudyRun;
  readonly protocol: string;
  readonly records: () => Iterable<StoredProtocolRecord>;
  readonly format: ExportFormat;
  readonly out?: string;
  readonly skipDamaged?: boolean;
}

/** "wrote ape-conversations.csv (24 rows), ape-turns.csv (72 rows) of run ape-a to out/" */
function writtenText(run: string, folder: string, files: readonly ProtocolCsv[]): string {
  const listed = files.map((file) => `${file.name} (${formatCounted(file.rows.length, 'row')})`).join(', ');
  return `wrote ${listed} of run ${run} to ${folder}\n`;
}

/** The flags a protocol's export refuses, each with what to type instead. */
function refuseOptions(exported: ProtocolExport): void {
  const { run, protocol, format } = exported;
  const csvCommand = `pmiyc export --run ${run.name} --format csv --out DIR`;
  if (format === 'turns-csv') {
    throw new InputError(`run ${run.name} is a run of the ${protocol} protocol, whose turns are a file of its CSV export: ${csvCommand}`);
  }
  if (format === 'csv' && exported.out === undefined) {
    throw new InputError(`run ${run.name} is a run of the ${protocol} protocol, whose CSV export is several files: name a folder for them, ${csvCommand}`);
  }
  if (format === 'jsonl' && exported.out !== undefined) {
    throw new InputError(`--out is the folder of a protocol run's CSV files (--format csv); --format jsonl goes to standard output: redirect it (> FILE)`);
  }
  if (exported.skipDamaged) {
    throw new InputError(`--skip-damaged reads a tournament's conversations; run ${run.name} of the ${protocol} protocol is exported whole or not at all`);
  }
}

/**
 * `pmiyc export` of a protocol's run (APE, ...): with `--format jsonl` one JSON line per finished item to
 * standard output, as the protocol makes it; with `--format csv --out DIR` the protocol's CSV files, written
 * atomically into DIR (each file whole or not at all), and a line saying what was written.
 */
export async function exportProtocolRun(exported: ProtocolExport, output: StreamWriter, context: CliContext): Promise<number> {
  refuseOptions(exported);
  const outputs = protocolOutputsOf(exported.protocol);
  const { run } = exported;
  if (exported.format === 'jsonl') {
    for (const record of exported.records()) if (!(await output.write(`${JSON.stringify(outputs.exportLine(run, record))}\n`))) return 0;
    await output.flush();
    return 0;
  }
  const folder = exported.out!;
  const files = outputs.exportCsv(run, exported.records());
  await writeFilesAtomically(
    files.map((file) => ({ path: join(folder, file.name), content: protocolCsvText(file) })),
    { advice: { again: 'run the export again', elsewhere: 'another folder with --out' } },
  );
  context.stdout.write(writtenText(run.name, folder, files));
  return 0;
}
