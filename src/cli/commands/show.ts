import { InputError } from '../../domain/errors/input-error.js';
import { storedConversationText } from '../../report/stored-conversation-text.js';
import { openStore } from '../../store/result-store.js';
import { type CliContext, labelModel, styleFor } from '../terminal.js';

export interface ShowOptions {
  readonly store: string;
  /** The run to take the conversation from when several runs have the id (default: the latest). */
  readonly run?: string;
  readonly json: boolean;
  readonly color: boolean;
}

/**
 * `pmiyc show <conversation-id>`: one stored conversation in the terminal, as `pmiyc converse`
 * prints it (turn by turn, then how it ended and what it cost), or with --json its export record.
 * Opens the store read-only.
 */
export function showCommand(conversationId: string, options: ShowOptions, context: CliContext): number {
  const store = openStore(options.store, { access: 'read' });
  try {
    const found = store.conversationsWithId(conversationId);
    if (found.length === 0) {
      throw new InputError(
        `${store.path} has no conversation ${conversationId}: browse the runs with pmiyc view --store ${store.path}, or list a run's ids with pmiyc export --run NAME --format csv`,
      );
    }
    const chosen = options.run === undefined ? found[0] : found.find((entry) => entry.run === options.run);
    if (!chosen) {
      throw new InputError(`conversation ${conversationId} is not in run ${options.run}; it is in ${found.map((entry) => entry.run).join(', ')}`);
    }
    if (options.run === undefined && found.length > 1) {
      const others = found.slice(1).map((entry) => entry.run);
      context.stderr.write(`pmiyc: showing run ${chosen.run}; the same conversation id is also in ${others.join(', ')} (choose with --run)\n`);
    }
    const { record } = chosen;
    if (options.json) {
      context.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
      return 0;
    }
    const style = styleFor(context.stdout, context.env, options.color);
    context.stdout.write(storedConversationText(record, chosen.run, labelModel, style));
    return 0;
  } finally {
    store.close();
  }
}
