import { InputError } from '../../domain/errors/input-error.js';
import { storedConversationText } from '../../report/texts/stored-conversation-text.js';
import type { ConversationLabels } from '../../report/texts/turn-tags-text.js';
import { openStore, type Store } from '../../store/result-store.js';
import { analysisConfigOf } from '../../studies/analysis/analysis-design.js';
import { turnTagsOf } from '../../studies/analysis/turn-tags.js';
import { chooseStudy } from '../../studies/chosen-study.js';
import { type CliContext, labelModel, styleFor } from '../terminal.js';

export interface ShowOptions {
  readonly store: string;
  /** The run to take the conversation from when several runs have the id (default: the latest). */
  readonly run?: string;
  /** The analysis study whose labels to print under the turns (default: the run's latest, if any). */
  readonly analysis?: string;
  readonly json: boolean;
  readonly color: boolean;
}

/** The labels of a conversation from the run's chosen analysis study; undefined when the run has none. */
function labelsOf(store: Store, run: string, conversationId: string, asked: string | undefined): ConversationLabels | undefined {
  const study = chooseStudy(store, { kind: 'analysis', runs: [store.findRun(run)], asked });
  if (!study) return undefined;
  const { design, simulated } = analysisConfigOf(study.name, study.study.config);
  return {
    study: study.name,
    taxonomy: design.taxonomy.name,
    judges: design.judges,
    simulated,
    turns: turnTagsOf(store.analysis.labelsOf(study.study.id, conversationId), design.taxonomy, { judges: design.judges, simulated }),
  };
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
    const labels = labelsOf(store, chosen.run, conversationId, options.analysis);
    if (options.json) {
      context.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
      return 0;
    }
    const style = styleFor(context.stdout, context.env, options.color);
    context.stdout.write(storedConversationText(record, chosen.run, labelModel, style, labels));
    return 0;
  } finally {
    store.close();
  }
}
