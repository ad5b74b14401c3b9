import type { Command } from '@commander-js/extra-typings';
import { sharedOptions as shared } from '../shared-options.js';
import type { CommandWiring } from './command-wiring.js';

/** `pmiyc models`: its options and help; its action loads commands/models.ts (nothing of it is loaded before). */
export function addModelsCommand(program: Command, { context, setExitCode }: CommandWiring): void {
  program
    .command('models')
    .description('list providers and configured models; with --check, call each once to see which are reachable')
    .addOption(shared.config(context.env))
    .option('--check', 'make a one-token call to each configured model (or to --models)', false)
    .addOption(shared.models('model names or aliases to check'))
    .action(async (options) => {
      const { modelsCommand } = await import('../commands/models.js');
      setExitCode(await modelsCommand(options, context));
    });
}
