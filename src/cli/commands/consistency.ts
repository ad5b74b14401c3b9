import { type ConsistencyCommandOptions, consistencyKind, importConsistencyAnswers } from '../../kit/kinds/consistency-kind.js';
import { runStudyCommand } from '../../kit/study-command.js';
import { checkConsistencyFlags } from '../../studies/consistency/consistency-design.js';
import type { CliContext, RunSignals } from '../terminal.js';

export type ConsistencyOptions = ConsistencyCommandOptions;

/**
 * `pmiyc consistency` (paper Sec. 5.1, Table 1): asks each model for its stance on each claim N
 * times (see kit/kinds/consistency-kind.ts); or, with --import, reads the paper's published
 * answers. Prints Table 1 per model; returns the exit code.
 */
export async function consistencyCommand(options: ConsistencyOptions, context: CliContext, signals: RunSignals): Promise<number> {
  checkConsistencyFlags(options);
  const file = options.import;
  if (file === undefined) return (await runStudyCommand(consistencyKind, options, context, signals)).exitCode;
  context.stdout.write(await importConsistencyAnswers({ ...options, import: file }, context));
  return 0;
}
