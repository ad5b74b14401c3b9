import type { Command } from '@commander-js/extra-typings';
import { sharedOptions as shared } from '../shared-options.js';
import type { CommandWiring } from './command-wiring.js';

/** `pmiyc upgrade`: its options and help; its action loads commands/upgrade.ts (nothing of it is loaded before). */
export function addUpgradeCommand(program: Command, { context, setExitCode }: CommandWiring): void {
  program
    .command('upgrade')
    .description('bring a store written by an older pmiyc to this version (read-only commands never change a store)')
    .addOption(shared.store())
    .action(async (options) => {
      const { upgradeCommand } = await import('../commands/upgrade.js');
      setExitCode(upgradeCommand(options, context));
    });
}
