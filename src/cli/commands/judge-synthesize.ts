import { type SynthesisCommandOptions, synthesizePreferences } from '../../kit/kinds/synthesis-kind.js';
import type { CliContext, RunSignals } from '../terminal.js';

export type JudgeSynthesizeOptions = SynthesisCommandOptions;

/** `pmiyc judge synthesize`: a preference dataset for training reward models elsewhere (see kit/kinds/synthesis-kind.ts). */
export function judgeSynthesizeCommand(options: JudgeSynthesizeOptions, context: CliContext, signals: RunSignals): Promise<number> {
  return synthesizePreferences(options, context, signals);
}
