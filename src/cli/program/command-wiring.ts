import { gitRevision } from '../../io/git-revision.js';
import type { CliContext, RunSignals } from '../terminal.js';

/** What a command's declaration hands its action: the outside world, the signals, where the exit code goes. */
export interface CommandWiring {
  readonly context: CliContext;
  readonly signals: RunSignals;
  /** For commands without a graceful stop: the first Ctrl-C aborts them. */
  readonly abortSignal: AbortSignal;
  /** The action resolves to an exit code, which `main` sets. */
  readonly setExitCode: (code: number) => void;
  /** Whether colour is wanted (the program's --no-color), read when the command runs. */
  readonly color: () => boolean;
}

/** The options the user typed on the command line (or set through the environment), not defaults. */
export function typedOptions(command: { opts(): object; getOptionValueSource(key: string): string | undefined }): Set<string> {
  return new Set(Object.keys(command.opts()).filter((key) => ['cli', 'env'].includes(command.getOptionValueSource(key) ?? '')));
}

/** What every run records and shows besides its options: the git revision, and how often progress is printed when it is not on a terminal. */
export function runExtras(context: CliContext): { gitRevision?: string; progressIntervalMs?: number } {
  const interval = context.env['PMIYC_PROGRESS_INTERVAL_MS'] ? Number(context.env['PMIYC_PROGRESS_INTERVAL_MS']) : undefined;
  const revision = gitRevision();
  return { ...(revision ? { gitRevision: revision } : {}), ...(interval ? { progressIntervalMs: interval } : {}) };
}

/** One example of a command's help: the command line, and what it does. */
export interface HelpExample {
  readonly command: string;
  readonly does: string;
}

/**
 * The examples a command's help ends with (commander's `addHelpText('after', ...)`): each what it
 * does as a comment, then the command line as it is typed, so that it can be copied whole.
 */
export function examplesHelp(examples: readonly HelpExample[]): string {
  return `\nExamples:\n${examples.map(({ command, does }) => `  # ${does}\n  ${command}`).join('\n')}\n`;
}
