import { setMaxListeners } from 'node:events';
import { Command } from '@commander-js/extra-typings';
import { addAnalyzeCommand } from './program/analyze.js';
import { addAnnotateCommand } from './program/annotate.js';
import { addClaimsCommand } from './program/claims.js';
import type { CommandWiring } from './program/command-wiring.js';
import { addConsistencyCommand } from './program/consistency.js';
import { addConverseCommand } from './program/converse.js';
import { addDemoCommand } from './program/demo.js';
import { addExportCommand } from './program/export.js';
import { addImportCommand } from './program/import.js';
import { addInitCommand } from './program/init.js';
import { addJudgeCommand } from './program/judge.js';
import { addModelsCommand } from './program/models.js';
import { addPeopleCommand } from './program/people.js';
import { addReportCommand } from './program/report.js';
import { addRunCommand } from './program/run.js';
import { addRunsCommand } from './program/runs.js';
import { addShowCommand } from './program/show.js';
import { addUpgradeCommand } from './program/upgrade.js';
import { addViewCommand } from './program/view.js';
import type { CliContext, RunSignals } from './terminal.js';

type AddCommand = (program: Command, wiring: CommandWiring) => void;

/**
 * The commands as `pmiyc --help` lists them: in groups, in the order of the work (try it, set up,
 * run, read the results), then the checks, the other studies and the tools.
 */
const COMMAND_GROUPS: ReadonlyArray<{ readonly heading: string; readonly commands: readonly AddCommand[] }> = [
  { heading: 'Start here:', commands: [addDemoCommand, addInitCommand] },
  {
    heading: 'Run a tournament and read it:',
    commands: [addRunCommand, addReportCommand, addViewCommand, addRunsCommand, addShowCommand, addExportCommand],
  },
  { heading: 'Check models and claims before a run:', commands: [addModelsCommand, addConverseCommand, addClaimsCommand] },
  {
    heading: 'Studies beside the tournament:',
    commands: [addAnalyzeCommand, addConsistencyCommand, addJudgeCommand, addAnnotateCommand, addPeopleCommand],
  },
  { heading: 'Stores and other tools:', commands: [addImportCommand, addUpgradeCommand] },
];

/** What `pmiyc --help` ends with: where a newcomer begins, and where the documents are (lines under 80 columns). */
const NEW_HERE = `
New here? pmiyc demo runs an offline tournament of simulated agents (no key,
no cost) and prints its table. Then, in a folder of your own: pmiyc init,
pmiyc run, pmiyc report, pmiyc view. Each command's --help shows its options
(and, for run, report, analyze and people serve, examples); docs/README.md in
the repository lists the design notes that say how pmiyc works.`;

/**
 * The command-line program: the global options, then each command as its module in program/
 * declares it (its options, the shared ones from shared-options.ts). A command's action loads its
 * module in commands/ and calls its command function (a command loads only its own code: `pmiyc
 * runs` never loads the report's or a study's); the action resolves to an exit code, which `main`
 * sets. Errors propagate to `main`, which prints them as one line.
 */
export function buildProgram(context: CliContext, signals: RunSignals, setExitCode: (code: number) => void) {
  // Commands without a graceful stop treat the first Ctrl-C as an abort.
  const abortSignal = AbortSignal.any([signals.stop, signals.abort]);
  setMaxListeners(0, abortSignal);
  const program = new Command('pmiyc')
    .description('Measure how well language models persuade, and how easily they are persuaded (Persuade Me If You Can).')
    .version(context.packageVersion)
    .option('--verbose', 'show stack traces of unexpected errors')
    .option('--no-color', 'plain output even on a terminal')
    .configureOutput({ outputError: (text, write) => write(`pmiyc: ${text.replace(/^error: /, '')}`) })
    .exitOverride();
  const wiring: CommandWiring = { context, signals, abortSignal, setExitCode, color: () => program.opts().color };
  for (const group of COMMAND_GROUPS) {
    program.commandsGroup(group.heading);
    for (const addCommand of group.commands) addCommand(program, wiring);
  }
  program.commandsGroup('Help:').helpCommand(true).addHelpText('after', NEW_HERE);
  return program;
}
