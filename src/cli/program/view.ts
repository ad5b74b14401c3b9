import type { Command } from '@commander-js/extra-typings';
import { DEFAULT_VIEW_PORT, parsePort } from '../options.js';
import { sharedOptions as shared } from '../shared-options.js';
import type { CommandWiring } from './command-wiring.js';

/** `pmiyc view`: its options and help; its action loads commands/view.ts (nothing of it is loaded before). */
export function addViewCommand(program: Command, { context, signals, setExitCode }: CommandWiring): void {
  program
    .command('view')
    .description("browse the store's runs in a browser, down to every turn, live while a run writes (127.0.0.1; changes nothing but your notes; Ctrl-C stops)")
    .addOption(shared.store())
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', parsePort, DEFAULT_VIEW_PORT)
    .option('--no-open', 'only print the address; do not open a browser')
    .option('--read-only', 'write no research notes, even to a store that could take them', false)
    .action(async (options) => {
      const { viewCommand } = await import('../commands/view.js');
      setExitCode(await viewCommand(options, context, signals.stop));
    });
}
