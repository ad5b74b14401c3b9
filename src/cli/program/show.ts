import type { Command } from '@commander-js/extra-typings';
import { sharedOptions as shared } from '../shared-options.js';
import type { CommandWiring } from './command-wiring.js';

/** `pmiyc show`: its options and help; its action loads commands/show.ts (nothing of it is loaded before). */
export function addShowCommand(program: Command, { context, setExitCode, color }: CommandWiring): void {
  program
    .command('show')
    .description('print one stored conversation turn by turn, with its attempts, how it ended and what it cost')
    .argument(
      '<conversation-id>',
      "the id, as pmiyc export, the report and pmiyc view give it, or a protocol run's item key (APE: persuader/topic-0003/repetition-000)",
    )
    .addOption(shared.store())
    .addOption(shared.runName('the run to take it from when several have the id (default: the latest)'))
    .option('--analysis <name>', "the analysis study whose tags to print under each turn (default: the run's latest)")
    .option('--json', 'print the export record instead', false)
    .action(async (conversationId, options) => {
      const { showCommand } = await import('../commands/show.js');
      setExitCode(showCommand(conversationId, { ...options, color: color() }, context));
    });
}
