import { type JudgeCommandOptions, judgeKind } from '../../kit/kinds/judge-kind.js';
import { runStudyCommand } from '../../kit/study-command.js';
import type { CliContext, RunSignals } from '../terminal.js';

export { judgeSynthesizeCommand } from './judge-synthesize.js';

export type JudgeOptions = JudgeCommandOptions;

/** `pmiyc judge`: LLM as judge (paper Sec. 4.1.2; see kit/kinds/judge-kind.ts); the accuracy table is printed at the end. */
export async function judgeCommand(options: JudgeOptions, context: CliContext, signals: RunSignals): Promise<number> {
  return (await runStudyCommand(judgeKind, options, context, signals)).exitCode;
}
