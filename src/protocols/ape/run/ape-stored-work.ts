import type { PmiycConfig } from '../../../config/config-schema.js';
import type { Environment } from '../../../config/resolve-model-settings.js';
import { modelIdentity } from '../../../models/model-identity.js';
import type { ModelSettings } from '../../../models/model-settings.js';
import { createModelRegistry, type ModelRegistry } from '../../../runner/models/model-registry.js';
import { isNotStored, StoredCallReplay, type StoredCalls } from '../../../studies/tournament/stored-progress.js';
import { runApeConversation } from '../ape-conversation.js';
import type { ApeDesign } from './ape-design.js';
import type { ApeStoredProgress } from './ape-estimate.js';
import { apeItemKey } from './ape-record.js';
import { type ApeTask, apeConversationModels } from './ape-study.js';

/**
 * What the store holds of an APE run's plan, found as a run finds it (`pmiyc run --protocol ape --dry-run`):
 * each conversation the run does not hold is asked of models that answer from the stored calls alone (the same
 * requests and seeds a run makes), until a request is missing. Nothing is called and nothing is written.
 */

export interface ApeStoredWorkInput {
  readonly design: ApeDesign;
  /** The run's plan (`planApeTasks`). */
  readonly tasks: Iterable<ApeTask>;
  readonly config: PmiycConfig;
  readonly env: Environment;
  /** The calls a run could replay, scoped as it would (a resumed run's own, and earlier runs' unless --no-cache). */
  readonly calls: StoredCalls;
  /** Conversations the resumed run holds already: skipped, as the run skips them. */
  readonly isDone?: (task: ApeTask) => boolean;
  /** A GGUF file's content hash for its call identity, as a run would take it. */
  readonly fileSha256: (settings: ModelSettings) => string | undefined;
}

export interface ApeStoredWork {
  /** What the store holds of each conversation it holds something of, by item key (`apeItemKey`). */
  readonly progress: ReadonlyMap<string, ApeStoredProgress>;
  /** Distinct stored calls a run would replay rather than make. */
  readonly storedCalls: number;
  /** Conversations whose every call is stored. */
  readonly conversationsReplayed: number;
  /** Conversations the resumed run holds already. */
  readonly conversationsDone: number;
}

/** How far one conversation replays from the stored calls: its completed turns, whether it reached its end. */
async function replayConversation(design: ApeDesign, task: ApeTask, registry: ModelRegistry): Promise<{ complete: boolean; storedTurns: number }> {
  let storedTurns = 0;
  try {
    await runApeConversation({
      plan: task.plan,
      models: apeConversationModels(design, task, registry.modelFor),
      sampling: design.sampling,
      onTurn: () => {
        storedTurns += 1;
      },
    });
    // A conversation that failed on stored replies (a belief never read) fails the same way when run: nothing to ask.
    return { complete: true, storedTurns };
  } catch (error) {
    if (!isNotStored(error)) throw error;
    return { complete: false, storedTurns };
  }
}

/** See the top of this file. */
export async function findApeStoredWork(input: ApeStoredWorkInput): Promise<ApeStoredWork> {
  const replay = new StoredCallReplay(input.calls);
  const identityOf = (settings: ModelSettings) => {
    const fileSha256 = input.fileSha256(settings);
    return modelIdentity(settings, fileSha256 ? { fileSha256 } : {});
  };
  const registry = createModelRegistry(input.config, input.env, { decorateFor: (settings) => [replay.layer(identityOf(settings))] });
  const progress = new Map<string, ApeStoredProgress>();
  // Whether the opening of a topic's repetition is stored: its first conversation's replay says (the opening is its first call).
  const openings = new Map<string, boolean>();
  let conversationsReplayed = 0;
  let conversationsDone = 0;
  for (const task of input.tasks) {
    const opening = `${task.topicIndex}\u0000${task.repetition}`;
    if (input.isDone?.(task)) {
      conversationsDone += 1;
      openings.set(opening, true);
      progress.set(apeItemKey(task), { complete: true, openingStored: true, storedTurns: task.plan.turns });
      continue;
    }
    const found = replay.callsFound;
    const replayed = await replayConversation(input.design, task, registry);
    const openingStored = openings.get(opening) ?? (replayed.storedTurns > 0 || replayed.complete || replay.callsFound > found);
    openings.set(opening, openingStored);
    if (replayed.complete) conversationsReplayed += 1;
    if (openingStored || replayed.complete) progress.set(apeItemKey(task), { ...replayed, openingStored });
  }
  return { progress, storedCalls: replay.callsFound, conversationsReplayed, conversationsDone };
}
