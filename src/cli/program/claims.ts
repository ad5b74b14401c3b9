import type { Command } from '@commander-js/extra-typings';
import { CLAIMS_FORMATS } from '../../report/report-formats.js';
import { sharedOptions as shared } from '../shared-options.js';
import type { CommandWiring } from './command-wiring.js';

/** `pmiyc claims`: its options and help; its action loads commands/claims.ts (nothing of it is loaded before). */
export function addClaimsCommand(program: Command, { context, setExitCode }: CommandWiring): void {
  program
    .command('claims')
    .description('list the items of a claim set (subjective, misinformation, examples) or a claims file')
    .argument('<set|file>', 'subjective, misinformation, examples, or a .csv/.jsonl file')
    .addOption(shared.dataDir())
    .addOption(shared.choice('--format', CLAIMS_FORMATS, 'a table, or JSON lines').default('table'))
    .addOption(shared.limit())
    .addOption(shared.sample())
    .addOption(shared.seed('seed of --sample'))
    .action(async (source, options) => {
      const { claimsCommand } = await import('../commands/claims.js');
      setExitCode(await claimsCommand({ ...options, source }, context));
    });
}
