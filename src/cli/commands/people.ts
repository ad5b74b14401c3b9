import { type PeopleServeCommandOptions, peopleKind, peopleStudyOptions } from '../../kit/kinds/people-kind.js';
import { runStudyCommand } from '../../kit/study-command.js';
import type { CliContext, RunSignals } from '../terminal.js';

/**
 * `pmiyc people serve`: a people study's server until Ctrl-C (exit 130; see kit/kinds/people-kind.ts);
 * the same --run continues it with every link as it was.
 */
export async function peopleServeCommand(options: PeopleServeCommandOptions, context: CliContext, signals: RunSignals): Promise<number> {
  return (await runStudyCommand(peopleKind, peopleStudyOptions(options), context, signals)).exitCode;
}
