import type { Command } from '@commander-js/extra-typings';
import { sharedOptions as shared } from '../shared-options.js';
import type { CommandWiring } from './command-wiring.js';

/** `pmiyc runs`: its options and help; its action loads commands/runs.ts (nothing of it is loaded before). */
export function addRunsCommand(program: Command, { context, setExitCode }: CommandWiring): void {
  program
    .command('runs')
    .description('list the runs in a store with their status and counts')
    .addOption(shared.store())
    .action(async (options) => {
      const { runsCommand } = await import('../commands/runs.js');
      setExitCode(runsCommand(options, context));
    });
}
