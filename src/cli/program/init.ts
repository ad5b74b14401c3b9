import type { Command } from '@commander-js/extra-typings';
import type { CommandWiring } from './command-wiring.js';

/** `pmiyc init`: its options and help; its action loads commands/init.ts (nothing of it is loaded before). */
export function addInitCommand(program: Command, { context, setExitCode }: CommandWiring): void {
  program
    .command('init')
    .description(
      'write a starter pmiyc.yaml (runs at once with simulated agents; commented blocks for real providers), a .env.example and a people-experiment.yaml',
    )
    .argument('[dir]', 'the folder to write them in (default: this one)')
    .option('--force', 'replace files that exist', false)
    .action(async (folder, options) => {
      const { initCommand } = await import('../commands/init.js');
      setExitCode(await initCommand(folder, options, context));
    });
}
