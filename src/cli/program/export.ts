import type { Command } from '@commander-js/extra-typings';
import { EXPORT_FORMATS } from '../../report/report-formats.js';
import { sharedOptions as shared } from '../shared-options.js';
import type { CommandWiring } from './command-wiring.js';

/** `pmiyc export`: its options and help; its action loads commands/export.ts (nothing of it is loaded before). */
export function addExportCommand(program: Command, { context, setExitCode }: CommandWiring): void {
  program
    .command('export')
    .description("write a run's conversations as JSON lines or CSV, or its turns as CSV, or the notes written in pmiyc view, to standard output")
    .addOption(shared.store('SQLite store to read'))
    .addOption(shared.runName('run name (default: the latest run)'))
    .addOption(
      shared.choice('--format', EXPORT_FORMATS, 'JSON lines or CSV with a row per conversation, or CSV with a row per turn (turns-csv)').default('jsonl'),
    )
    .option('--out <dir>', "with --format csv, the folder a protocol run's CSV files are written to (APE: ape-conversations.csv, ape-turns.csv)")
    .option('--notes', 'the notes, tags and grades written in pmiyc view instead of the conversations (of --run if given, else of every run)', false)
    .option(
      '--skip-damaged',
      'in a damaged store, leave out the conversations whose records cannot be read (and say how many) instead of stopping at the first',
      false,
    )
    .action(async (options) => {
      const { exportCommand } = await import('../commands/export.js');
      setExitCode(await exportCommand(options, context));
    });
}
