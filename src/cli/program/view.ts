import type { Command } from '@commander-js/extra-typings';
import { DEFAULT_VIEW_PORT, parsePort } from '../options.js';
import { sharedOptions as shared } from '../shared-options.js';
import type { CommandWiring } from './command-wiring.js';

/** `pmiyc view`: its options and help; its action loads commands/view.ts (nothing of it is loaded before). */
export function addViewCommand(program: Command, { context, signals, setExitCode }: CommandWiring): void {
  program
    .command('view')
    .description(
      "browse the store's runs in a browser, down to every turn, live while a run writes (127.0.0.1; changes nothing but your notes; Ctrl-C stops); or, with --bundle, write one run as a static folder of pages that opens from disk",
    )
    .addOption(shared.store())
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', parsePort, DEFAULT_VIEW_PORT)
    .option('--no-open', 'only print the address; do not open a browser')
    .option('--read-only', 'write no research notes, even to a store that could take them', false)
    .option(
      '--bundle <dir>',
      "write a static, read-only bundle of a run's pages into DIR (an empty or new folder) instead of serving; opens from disk or any static host",
    )
    .addOption(shared.runName('with --bundle: the run to bundle (default: the latest tournament run)'))
    .option('--force', 'with --bundle: write into a folder that is not empty (an earlier bundle there is replaced)')
    .action(async (options) => {
      const { viewCommand } = await import('../commands/view.js');
      setExitCode(await viewCommand(options, context, signals.stop));
    });
}
