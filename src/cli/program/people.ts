import type { Command } from '@commander-js/extra-typings';
import { DEFAULT_PEOPLE_PORT, parseDistinctNames, parsePort, parseWholeNumber } from '../options.js';
import { sharedOptions as shared } from '../shared-options.js';
import { type CommandWiring, examplesHelp } from './command-wiring.js';

const PEOPLE_SERVE_EXAMPLES = examplesHelp([
  {
    does: 'try it yourself: three links, people as persuadees against a simulated agent on the example claims',
    command: 'pmiyc people serve --run try-people --role persuadee --opponent sim/eloquent --participants 3',
  },
  {
    does: 'behind a reverse proxy: one open link for up to 40 persuaders, your texts, two models argue the same claims (the same command resumes it)',
    command:
      'pmiyc people serve --run study-1 --role persuader --opponent gpt-4o-mini --open 40 --experiment people-experiment.yaml --compare haiku,llama-70b --public-url https://study.example.org',
  },
  { does: 'people and models side by side, as the study goes or after it', command: 'pmiyc report --run study-1' },
]);

/** `pmiyc people serve`: its options and help; its action loads commands/people.ts (nothing of it is loaded before). */
export function addPeopleCommand(program: Command, { context, signals, setExitCode }: CommandWiring): void {
  const people = program
    .command('people')
    .description('people studies (docs/design/people.md): a person as persuadee or persuader, in the same protocol, store and report');
  people
    .command('serve')
    .description(
      'serve a people study: one link per participant (or one open link), an admin page; stored as it happens (Ctrl-C stops; the same --run resumes)',
    )
    .addOption(shared.runName("the study's run (a new one, or the one to continue)").makeOptionMandatory())
    .addOption(shared.choice('--role', ['persuadee', 'persuader'] as const, 'the side people play').makeOptionMandatory())
    .requiredOption('--opponent <model>', 'the model on the other side (a config alias, provider/model or sim/...)')
    .addOption(shared.claims())
    .addOption(shared.dataDir())
    .addOption(shared.limit())
    .option('--participants <n>', 'one link for each of N participants (a restart adds links up to N)', parseWholeNumber('--participants', 1))
    .option('--open <n>', 'one open link that admits at most N participants, each given a link of their own', parseWholeNumber('--open', 1))
    .option('--turns <n>', "turns of each conversation (odd, at least 3; 9 is the paper's)", parseWholeNumber('--turns', 3), 9)
    .option('--experiment <file>', "the study's texts and rules (YAML; without it pmiyc's starter text, which says to replace it)")
    .option('--compare <models>', "models that also play the people's side on every claim, stored in the same run", parseDistinctNames('--compare'))
    .option('--host <address>', 'address to listen on; anything but 127.0.0.1 must be said explicitly (a reverse proxy usually needs none)', '127.0.0.1')
    .option('--port <n>', 'port (0 picks a free one)', parsePort, DEFAULT_PEOPLE_PORT)
    .option('--public-url <url>', 'the address participants reach through a reverse proxy (https://...): links use it, and its host is accepted')
    .addOption(shared.seed())
    .addOption(shared.store())
    .addOption(shared.noCheckModels())
    .addOption(shared.config(context.env))
    .addHelpText('after', PEOPLE_SERVE_EXAMPLES)
    .action(async (options, command) => {
      const { peopleServeCommand } = await import('../commands/people.js');
      setExitCode(await peopleServeCommand({ ...options, hostGiven: command.getOptionValueSource('host') === 'cli' }, context, signals));
    });
}
