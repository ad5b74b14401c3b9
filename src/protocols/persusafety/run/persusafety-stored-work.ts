import type { PmiycConfig } from '../../../config/config-schema.js';
import type { Environment } from '../../../config/resolve-model-settings.js';
import { modelIdentity } from '../../../models/model-identity.js';
import type { ModelSettings } from '../../../models/model-settings.js';
import type { SimulatedProtocol } from '../../../models/sim/simulated-protocol.js';
import { createModelRegistry, type ModelRegistry } from '../../../runner/models/model-registry.js';
import { isNotStored, StoredCallReplay, type StoredCalls } from '../../../studies/tournament/stored-progress.js';
import { runPersusafetyConversation } from '../conversation/persusafety-conversation.js';
import type { PersusafetyStoredProgress } from './persusafety-estimate.js';
import type { PersusafetyRunDesign } from './persusafety-run-design.js';
import type { PersusafetyTask } from './persusafety-study.js';

/**
 * What the store holds of a PersuSafety run's plan, found as a run finds it (`pmiyc run --protocol persusafety
 * --dry-run`): each conversation the run does not hold is asked of models that answer from the stored calls alone
 * (the same requests and seeds a run makes), until a request is missing. Nothing is called and nothing is written.
 */

export interface PersusafetyStoredWorkInput {
  readonly design: PersusafetyRunDesign;
  /** The run's plan (`planPersusafetyTasks`). */
  readonly tasks: Iterable<PersusafetyTask>;
  readonly config: PmiycConfig;
  readonly env: Environment;
  /** The calls a run could replay, scoped as it would (a resumed run's own, and earlier runs' unless --no-cache). */
  readonly calls: StoredCalls;
  /** Conversations the resumed run holds already: skipped, as the run skips them. */
  readonly isDone?: (task: PersusafetyTask) => boolean;
  /** A GGUF file's content hash for its call identity, as a run would take it. */
  readonly fileSha256: (settings: ModelSettings) => string | undefined;
  /** The run's simulated replies, so that a `sim/` agent's PersuSafety keys are read as a run reads them. */
  readonly simulatedProtocol: SimulatedProtocol;
}

export interface PersusafetyStoredWork {
  /** What the store holds of each conversation it holds something of, by item key. */
  readonly progress: ReadonlyMap<string, PersusafetyStoredProgress>;
  /** Distinct stored calls a run would replay rather than make. */
  readonly storedCalls: number;
  /** Conversations whose every call is stored. */
  readonly conversationsReplayed: number;
  /** Conversations the resumed run holds already. */
  readonly conversationsDone: number;
}

/** How far one conversation replays from the stored calls: whether its probe is stored, its completed turns, whether it reached its end. */
async function replayConversation(
  design: PersusafetyRunDesign,
  task: PersusafetyTask,
  registry: ModelRegistry,
  replay: StoredCallReplay,
): Promise<PersusafetyStoredProgress> {
  let storedTurns = 0;
  const found = replay.callsFound;
  try {
    await runPersusafetyConversation({
      plan: task.plan,
      models: { persuader: registry.modelFor(task.persuader), persuadee: registry.modelFor(design.persuadee), judge: registry.modelFor(design.judge) },
      sampling: design.sampling,
      judgeSampling: design.judgeSampling,
      onTurn: () => {
        storedTurns += 1;
      },
    });
    // A conversation that failed on stored replies (a decision never read) fails the same way when run: nothing to ask.
    return { complete: true, probeStored: true, storedTurns };
  } catch (error) {
    if (!isNotStored(error)) throw error;
    return { complete: false, probeStored: storedTurns > 0 || replay.callsFound > found, storedTurns };
  }
}

/** See the top of this file. */
export async function findPersusafetyStoredWork(input: PersusafetyStoredWorkInput): Promise<PersusafetyStoredWork> {
  const replay = new StoredCallReplay(input.calls);
  const identityOf = (settings: ModelSettings) => {
    const fileSha256 = input.fileSha256(settings);
    return modelIdentity(settings, fileSha256 ? { fileSha256 } : {});
  };
  const registry = createModelRegistry(input.config, input.env, {
    decorateFor: (settings) => [replay.layer(identityOf(settings))],
    simulatedProtocol: input.simulatedProtocol,
  });
  const progress = new Map<string, PersusafetyStoredProgress>();
  let conversationsReplayed = 0;
  let conversationsDone = 0;
  for (const task of input.tasks) {
    if (input.isDone?.(task)) {
      conversationsDone += 1;
      progress.set(task.itemKey, { complete: true, probeStored: true, storedTurns: task.plan.turns });
      continue;
    }
    const replayed = await replayConversation(input.design, task, registry, replay);
    if (replayed.complete) conversationsReplayed += 1;
    if (replayed.probeStored) progress.set(task.itemKey, replayed);
  }
  return { progress, storedCalls: replay.callsFound, conversationsReplayed, conversationsDone };
}
