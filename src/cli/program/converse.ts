import type { Command } from '@commander-js/extra-typings';
import { parseTurns } from '../options.js';
import { sharedOptions as shared } from '../shared-options.js';
import type { CommandWiring } from './command-wiring.js';

/** `pmiyc converse`: its options and help; its action loads commands/converse.ts (nothing of it is loaded before). */
export function addConverseCommand(program: Command, { context, abortSignal, setExitCode, color }: CommandWiring): void {
  program
    .command('converse')
    .description('run one conversation and show it as it happens')
    .requiredOption('--persuader <model>', 'the model that argues for the claim, e.g. sim/eloquent')
    .requiredOption('--persuadee <model>', 'the model that reports its agreement, e.g. sim/stubborn')
    .requiredOption('--claim <text>', 'the claim (or, with --question, the incorrect answer) to argue for')
    .option('--question <text>', 'a factual question: makes this a misinformation conversation')
    .option('--turns <n>', 'turns t, odd and at least 3 (3 is single-turn)', parseTurns, 9)
    .addOption(shared.seed('run seed; every call seed derives from it'))
    .addOption(shared.maxAttempts('samples per turn before the conversation fails'))
    .addOption(shared.temperature(0.7))
    .addOption(shared.maxTokens(400))
    .addOption(shared.config(context.env))
    .option('--json', 'print the conversation record as JSON instead of the live view', false)
    .action(async (options) => {
      const { converseCommand } = await import('../commands/converse.js');
      setExitCode(await converseCommand({ ...options, color: color() }, context, abortSignal));
    });
}
