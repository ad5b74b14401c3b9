import { InputError } from '../../domain/errors/input-error.js';
import { protocolOutputsOf } from '../../kit/protocol-registry.js';
import { createModelLabels } from '../../report/model-labels.js';
import { protocolConversationText } from '../../report/texts/protocol-conversation-text.js';
import { storedConversationText } from '../../report/texts/stored-conversation-text.js';
import type { ConversationLabels } from '../../report/texts/turn-tags-text.js';
import { openStore, type Store } from '../../store/result-store.js';
import { analysisConfigOf } from '../../studies/analysis/analysis-design.js';
import { turnTagsOf } from '../../studies/analysis/turn-tags.js';
import { chooseStudy } from '../../studies/chosen-study.js';
import type { StoredProtocolRecord } from '../../studies/protocol-records.js';
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

/** How an id is named: "conversation c-1" when it is missing from a run, "conversation id" when others have it too. */
interface IdWords {
  readonly named: string;
  readonly same: string;
}

/**
 * The entry of run --run among those found with an id (latest run first); without --run the latest, saying
 * which other runs have it.
 */
function chooseRun<Entry extends { readonly run: string }>(found: readonly Entry[], words: IdWords, options: ShowOptions, context: CliContext): Entry {
  const chosen = options.run === undefined ? found[0]! : found.find((entry) => entry.run === options.run);
  if (!chosen) throw new InputError(`${words.named} is not in run ${options.run}; it is in ${found.map((entry) => entry.run).join(', ')}`);
  if (options.run === undefined && found.length > 1) {
    const others = found.slice(1).map((entry) => entry.run);
    context.stderr.write(`pmiyc: showing run ${chosen.run}; the same ${words.same} is also in ${others.join(', ')} (choose with --run)\n`);
  }
  return chosen;
}

/** One finished item of a protocol run (APE's conversation, ...), as its protocol shows it, or with --json its export line. */
function showProtocolItem(
  store: Store,
  found: ReadonlyArray<{ readonly run: string; readonly record: StoredProtocolRecord }>,
  options: ShowOptions,
  context: CliContext,
): number {
  const chosen = chooseRun(found, { named: `item ${found[0]!.record.itemKey}`, same: 'item' }, options, context);
  const run = store.findRun(chosen.run);
  if (run.config.kind !== 'protocol') throw new InputError(`run ${run.name} holds protocol records but is not a protocol run: the store is damaged`);
  if (options.analysis !== undefined)
    throw new InputError(`--analysis is for a tournament's conversations; run ${run.name} is a run of the ${run.config.protocol} protocol`);
  const outputs = protocolOutputsOf(run.config.protocol);
  if (options.json) {
    context.stdout.write(`${JSON.stringify(outputs.exportLine(run, chosen.record), null, 2)}\n`);
    return 0;
  }
  const labels = createModelLabels(run.config.simulated.map((model) => ({ model, simulated: true })));
  const view = outputs.conversation(run, chosen.record);
  context.stdout.write(
    protocolConversationText(view, { run: run.name, protocol: run.config.protocol }, labels.text, styleFor(context.stdout, context.env, options.color)),
  );
  return 0;
}

/**
 * `pmiyc show <id>`: one stored conversation in the terminal, as `pmiyc converse` prints it (turn by
 * turn, then how it ended and what it cost), or with --json its export record; an item key of a
 * protocol run (APE's `persuader/topic-0003/repetition-000`) shows that item as its protocol words it.
 * Opens the store read-only.
 */
export function showCommand(conversationId: string, options: ShowOptions, context: CliContext): number {
  const store = openStore(options.store, { access: 'read' });
  try {
    const found = store.conversationsWithId(conversationId);
    if (found.length === 0) {
      const items = store.protocolRecords.withKey(conversationId);
      if (items.length > 0) return showProtocolItem(store, items, options, context);
      throw new InputError(
        `${store.path} has no conversation or protocol item ${conversationId}: browse the runs with pmiyc view --store ${store.path}, or list a run's ids with pmiyc export --run NAME --format csv (a protocol run's item keys, such as persuader/topic-0003/repetition-000 of an APE run, are the item field of pmiyc export --run NAME --format jsonl)`,
      );
    }
    const chosen = chooseRun(found, { named: `conversation ${conversationId}`, same: 'conversation id' }, options, context);
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
