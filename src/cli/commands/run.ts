import { settleTournamentOptions, type TournamentCommandOptions, tournamentKind } from '../../kit/kinds/tournament-kind.js';
import type { StudyCommandEnding } from '../../kit/study-command.js';
import { runStudyCommand } from '../../kit/study-command.js';
import type { CliContext, RunSignals } from '../terminal.js';

export type RunOptions = TournamentCommandOptions;

/** `pmiyc run`: a tournament (see kit/kinds/tournament-kind.ts), then its table and how to go on. */
export async function runCommand(options: RunOptions, context: CliContext, signals: RunSignals): Promise<number> {
  return (await runTournamentCommand(options, context, signals)).exitCode;
}

/** `pmiyc run`, also telling which run it ran (the demo writes its report next). */
export async function runTournamentCommand(options: RunOptions, context: CliContext, signals: RunSignals): Promise<StudyCommandEnding> {
  return runStudyCommand(tournamentKind, await settleTournamentOptions(options, context), context, signals);
}
