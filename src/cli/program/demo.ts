import type { Command } from '@commander-js/extra-typings';
import { sharedOptions as shared } from '../shared-options.js';
import type { CommandWiring } from './command-wiring.js';

/** `pmiyc demo`: its options and help; its action loads commands/demo.ts (nothing of it is loaded before). */
export function addDemoCommand(program: Command, { context, signals, setExitCode }: CommandWiring): void {
  program
    .command('demo')
    .description('an offline round robin of simulated agents on built-in example claims, stored, then summarised')
    .addOption(shared.store('SQLite store to write'))
    .addOption(shared.claims('claims: examples, subjective, misinformation, or a .csv/.jsonl file'))
    .addOption(shared.dataDir())
    .addOption(shared.limit())
    .addOption(shared.sample())
    .addOption(shared.seed('run seed'))
    .addOption(shared.concurrency())
    .action(async (options) => {
      const { demoCommand } = await import('../commands/demo.js');
      setExitCode(await demoCommand(options, context, signals));
    });
}
