import type { PmiycConfig } from '../config/config-schema.js';
import type { Environment } from '../config/resolve-model-settings.js';
import { modelIdentity } from '../models/model-identity.js';
import type { ModelSettings } from '../models/model-settings.js';
import type { SimulatedProtocol } from '../models/sim/simulated-protocol.js';
import { createModelRegistry, type ModelRegistry } from '../runner/models/model-registry.js';
import type { StoredConversationProgress } from './protocol-estimate.js';
import { isNotStored, StoredCallReplay, type StoredCalls } from './tournament/stored-progress.js';

/**
 * What the store holds of a protocol run's plan, found as a run finds it (a protocol's `--dry-run`): each
 * conversation the run does not hold is asked of models that answer from the stored calls alone (the same requests
 * and seeds a run makes, the run's simulated agents built as the run builds them), until a request is missing.
 * Nothing is called and nothing is written. A protocol says how one of its conversations is replayed
 * (`ConversationReplay`); the loop, the counts and the models are the same for every protocol.
 */

export interface ProtocolStoredWorkInput<Task> {
  /** The run's plan. */
  readonly tasks: Iterable<Task>;
  readonly config: PmiycConfig;
  readonly env: Environment;
  /** The calls a run could replay, scoped as it would (a resumed run's own, and earlier runs' unless --no-cache). */
  readonly calls: StoredCalls;
  /** Conversations the resumed run holds already, by item key: skipped, as the run skips them. */
  readonly isDone?: (itemKey: string) => boolean;
  /** A GGUF file's content hash for its call identity, as a run would take it. */
  readonly fileSha256: (settings: ModelSettings) => string | undefined;
  /** The run's simulated replies, so that a `sim/` agent's protocol keys are checked and read as a run reads them. */
  readonly simulatedProtocol: SimulatedProtocol;
}

/** How a protocol replays one of its conversations from the store, and what it keeps of each. */
export interface ConversationReplay<Task, Progress extends StoredConversationProgress> {
  /** The conversation's key in the run's records. */
  readonly itemKey: (task: Task) => string;
  /** What a conversation the resumed run holds already counts as. */
  readonly held: (task: Task) => Progress;
  /** How far it replays: `models` answer from the stored calls alone, `replay` counts the calls they found. */
  readonly replay: (task: Task, models: ModelRegistry, replay: StoredCallReplay) => Promise<Progress>;
  /** Whether the store holds anything of it worth keeping in `progress`. */
  readonly holdsAny: (progress: Progress) => boolean;
}

export interface ProtocolStoredWork<Progress> {
  /** What the store holds of each conversation it holds something of, by item key. */
  readonly progress: ReadonlyMap<string, Progress>;
  /** Distinct stored calls a run would replay rather than make. */
  readonly storedCalls: number;
  /** Conversations whose every call is stored. */
  readonly conversationsReplayed: number;
  /** Conversations the resumed run holds already. */
  readonly conversationsDone: number;
}

/**
 * How far one conversation replays from the stored calls: `converse` runs it (telling each completed turn), and a
 * request the store lacks ends it. A conversation that failed on stored replies fails the same way when run: it
 * is complete, nothing of it is asked.
 */
export async function replayStoredTurns(converse: (onTurn: () => void) => Promise<unknown>): Promise<StoredConversationProgress> {
  let storedTurns = 0;
  try {
    await converse(() => {
      storedTurns += 1;
    });
    return { complete: true, storedTurns };
  } catch (error) {
    if (!isNotStored(error)) throw error;
    return { complete: false, storedTurns };
  }
}

/** See the top of this file. */
export async function findProtocolStoredWork<Task, Progress extends StoredConversationProgress>(
  input: ProtocolStoredWorkInput<Task>,
  conversation: ConversationReplay<Task, Progress>,
): Promise<ProtocolStoredWork<Progress>> {
  const replay = new StoredCallReplay(input.calls);
  const identityOf = (settings: ModelSettings) => {
    const fileSha256 = input.fileSha256(settings);
    return modelIdentity(settings, fileSha256 ? { fileSha256 } : {});
  };
  const registry = createModelRegistry(input.config, input.env, {
    decorateFor: (settings) => [replay.layer(identityOf(settings))],
    simulatedProtocol: input.simulatedProtocol,
  });
  const progress = new Map<string, Progress>();
  let conversationsReplayed = 0;
  let conversationsDone = 0;
  for (const task of input.tasks) {
    const itemKey = conversation.itemKey(task);
    if (input.isDone?.(itemKey)) {
      conversationsDone += 1;
      progress.set(itemKey, conversation.held(task));
      continue;
    }
    const replayed = await conversation.replay(task, registry, replay);
    if (replayed.complete) conversationsReplayed += 1;
    if (conversation.holdsAny(replayed)) progress.set(itemKey, replayed);
  }
  return { progress, storedCalls: replay.callsFound, conversationsReplayed, conversationsDone };
}
