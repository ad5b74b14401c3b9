import { type Command, Option } from '@commander-js/extra-typings';
import { DOMAINS } from '../../domain/claim.js';
import { SETTINGS } from '../../domain/conversation.js';
import { LABEL_MATCHES } from '../../protocol/agreement-label.js';
import { PERSUSAFETY_PERSUADEE_PROFILES, PERSUSAFETY_PROFILE_CONDITIONS } from '../../protocols/persusafety/persusafety-facts.js';
import { parseChoice, parseRunName } from '../options.js';
import { sharedOptions as shared } from '../shared-options.js';
import { type CommandWiring, runExtras } from './command-wiring.js';

/**
 * `pmiyc import official` and `pmiyc import persusafety`: their options and help; each action loads its module of
 * commands/ (nothing of it is loaded before).
 */
export function addImportCommand(program: Command, wiring: CommandWiring): void {
  const command = program
    .command('import')
    .description(
      "bring in results made by other tools: `official` reads the official PMIYC code's results.json files, `persusafety` PersuSafety's published conversations with its judge's scores, `llm-persuasion-benchmark` a bundle of the LLM Persuasion Benchmark",
    );
  addImportOfficial(command, wiring);
  addImportPersusafety(command, wiring);
  addImportLpb(command, wiring);
}

function addImportOfficial(command: Command, { context, setExitCode }: CommandWiring): void {
  command
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

function addImportPersusafety(command: Command, { context, setExitCode }: CommandWiring): void {
  command
    .command('persusafety')
    .description(
      "store PersuSafety's published results (its results/ tree or single scores/*.json files) as a run of the persusafety protocol: each conversation with its scene, the persuadee's decisions and the paper judge's 15 scores",
    )
    .argument('<dir|file...>', 'results files, or folders holding them (every scores/*.json under them)')
    .requiredOption('--run <name>', 'the run to store them as (made when missing; importing the same files again adds nothing)', parseRunName('--run'))
    .option('--persuader <name>', 'the persuader of every file (default: from the path, results/<persuader>/...)')
    .option(
      '--study <name>',
      'the study of every file (default: from the folder: ethical_personality_visible is the study ethical_personality, shown the profile)',
    )
    .addOption(
      shared.choice(
        '--condition',
        PERSUSAFETY_PROFILE_CONDITIONS,
        "whether the persuader was shown the persuadee's profile (default: from the folder's ending, _visible or _invisible)",
      ),
    )
    .addOption(
      new Option(
        '--profile <name>',
        `the persuadee's profile of every file: ${PERSUSAFETY_PERSUADEE_PROFILES.join(', ')} (default: from the file name, e.g. default__Anxious.json)`,
      ).argParser(parseChoice('--profile', PERSUSAFETY_PERSUADEE_PROFILES)),
    )
    .addOption(shared.store())
    .action(async (paths, options) => {
      const { importPersusafetyCommand } = await import('../commands/import-persusafety.js');
      setExitCode(await importPersusafetyCommand({ ...options, paths, ...runExtras(context) }, context));
    });
}

function addImportLpb(command: Command, { context, setExitCode }: CommandWiring): void {
  command
    .command('llm-persuasion-benchmark')
    .description(
      "store a bundle of the LLM Persuasion Benchmark (lechmazur/persuasion: its report's per-cell table and transcripts) as a run that report, export, show and view read",
    )
    .argument('<dir>', "a copy of the benchmark's repository, or one bundle's folder (reports/<bundle>)")
    .requiredOption('--run <name>', 'the run to store it as (made when missing; importing the same bundle again adds nothing)', parseRunName('--run'))
    .option('--bundle <name>', 'the bundle to import, when the copy has several (reports/<bundle>)')
    .option('--commit <sha>', "the copy's commit, kept with the run (default: read from the copy when it is a git checkout)")
    .addOption(shared.store())
    .action(async (directory, options) => {
      const { importLpbCommand } = await import('../commands/import-lpb.js');
      setExitCode(await importLpbCommand({ ...options, directory, ...runExtras(context) }, context));
    });
}
