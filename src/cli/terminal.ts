import type { CommandContext } from '../kit/command-context.js';
import { COLOUR_STYLE, PLAIN_STYLE, type TextStyle } from '../report/texts/dialogue-text.js';

export { formatDuration, labelModel } from '../domain/text-labels.js';
/** Where a command reaches the data sets: the kit's, for the commands that read them without a study. */
export { dataOf } from '../kit/command-context.js';

export type { RunSignals } from '../runner/run-signals.js';

/** What commands may touch of the outside world: passed in, so commands stay testable (the kit's `CommandContext`). */
export type CliContext = CommandContext;

/** Colour only on a terminal, and never when NO_COLOR is set or --no-color was given. */
export function styleFor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv, colourWanted: boolean): TextStyle {
  if (!colourWanted || env['NO_COLOR'] !== undefined || env['TERM'] === 'dumb') return PLAIN_STYLE;
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') return COLOUR_STYLE;
  return stream.isTTY ? COLOUR_STYLE : PLAIN_STYLE;
}
