import { type AnalyzeCommandOptions, analysisKind } from '../../kit/kinds/analysis-kind.js';
import { analyzesProtocolRun, protocolAnalysisKind } from '../../kit/kinds/protocol-analysis-kind.js';
import { runStudyCommand } from '../../kit/study-command.js';
import type { CliContext, RunSignals } from '../terminal.js';

export type AnalyzeOptions = AnalyzeCommandOptions;

/**
 * `pmiyc analyze`: judges label every turn of a tournament run's completed conversations (see
 * kit/kinds/analysis-kind.ts), or another judge labels a protocol run's items again with the protocol's own
 * checklist (kit/kinds/protocol-analysis-kind.ts); a short summary and how to report it are printed at the end.
 */
export async function analyzeCommand(options: AnalyzeOptions, context: CliContext, signals: RunSignals): Promise<number> {
  if (analyzesProtocolRun(options)) return (await runStudyCommand(protocolAnalysisKind, options, context, signals)).exitCode;
  return (await runStudyCommand(analysisKind, options, context, signals)).exitCode;
}
