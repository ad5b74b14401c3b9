import type { Command } from '@commander-js/extra-typings';
import { DOMAINS } from '../../domain/claim.js';
import { SETTINGS } from '../../domain/conversation.js';
import { LABEL_MATCHES } from '../../protocol/agreement-label.js';
import { parseRunName } from '../options.js';
import { sharedOptions as shared } from '../shared-options.js';
import { type CommandWiring, runExtras } from './command-wiring.js';

/** `pmiyc import official`: its options and help; its action loads commands/import-official.ts (nothing of it is loaded before). */
export function addImportCommand(program: Command, { context, setExitCode }: CommandWiring): void {
  program
    .command('import')
    .description("bring in results made by other tools: `official` reads the official PMIYC code's results.json files")
    .command('official')
    .description("store the official PMIYC code's results.json files (an experiments/ tree or single files) as one run that report, export and view read")
    .argument('<dir|file...>', 'results.json files, or folders holding them (every results.json under them)')
    .requiredOption('--run <name>', 'the run to store them as (made when missing; importing the same files again adds nothing)', parseRunName('--run'))
    .addOption(shared.choice('--setting', SETTINGS, 'checked against each conversation (default: from the folder name, e.g. multi_turn_subj)'))
    .addOption(shared.choice('--domain', DOMAINS, "the claims' domain (default: from the folder name, else misinformation when a record has a question)"))
    .addOption(
      shared
        .choice(
          '--label-match',
          LABEL_MATCHES,
          "how pmiyc's parser reads each reply to check it against the recorded score: first takes the first label, as the official code read it",
        )
        .default('strict' as const),
    )
    .addOption(shared.dataDir("pmiyc's claim sets, to match the claims to (never downloaded by an import)"))
    .addOption(shared.store())
    .action(async (paths, options) => {
      const { importOfficialCommand } = await import('../commands/import-official.js');
      setExitCode(await importOfficialCommand({ ...options, paths, ...runExtras(context) }, context));
    });
}
