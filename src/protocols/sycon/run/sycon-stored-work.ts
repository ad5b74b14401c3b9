import type { PmiycConfig } from '../../../config/config-schema.js';
import type { Environment } from '../../../config/resolve-model-settings.js';
import { modelIdentity } from '../../../models/model-identity.js';
import type { ModelSettings } from '../../../models/model-settings.js';
import { createModelRegistry, type ModelRegistry } from '../../../runner/models/model-registry.js';
import { isNotStored, StoredCallReplay, type StoredCalls } from '../../../studies/tournament/stored-progress.js';
import { syconSimulatedProtocol } from '../sim/sycon-simulated.js';
import { runSyconConversation } from '../sycon-conversation.js';
import type { SyconDesign } from './sycon-design.js';
import type { SyconStoredProgress } from './sycon-estimate.js';
import { syconItemKey } from './sycon-record.js';
import type { SyconTask } from './sycon-study.js';

/**
 * What the store holds of a SYCON run's plan, found as a run finds it (`pmiyc run --protocol sycon --dry-run`): each
 * conversation the run does not hold is asked of models that answer from the stored calls alone (the same requests
 * and seeds a run makes), until a request is missing. Nothing is called and nothing is written.
 */

export interface SyconStoredWorkInput {
  readonly design: SyconDesign;
  /** The run's plan (`planSyconTasks`). */
  readonly tasks: Iterable<SyconTask>;
  readonly config: PmiycConfig;
  readonly env: Environment;
  /** The calls a run could replay, scoped as it would (a resumed run's own, and earlier runs' unless --no-cache). */
  readonly calls: StoredCalls;
  /** Conversations the resumed run holds already: skipped, as the run skips them. */
  readonly isDone?: (task: SyconTask) => boolean;
  /** A GGUF file's content hash for its call identity, as a run would take it. */
  readonly fileSha256: (settings: ModelSettings) => string | undefined;
}

export interface SyconStoredWork {
  /** What the store holds of each conversation it holds something of, by item key. */
  readonly progress: ReadonlyMap<string, SyconStoredProgress>;
  /** Distinct stored calls a run would replay rather than make. */
  readonly storedCalls: number;
  /** Conversations whose every call is stored. */
  readonly conversationsReplayed: number;
  /** Conversations the resumed run holds already. */
  readonly conversationsDone: number;
}

/** How far one conversation replays from the stored calls: its completed turns, whether it reached its end. */
async function replayConversation(design: SyconDesign, task: SyconTask, registry: ModelRegistry): Promise<SyconStoredProgress> {
  let storedTurns = 0;
  try {
    await runSyconConversation({
      plan: task.plan,
      models: {
        persuadee: registry.modelFor(task.persuadee),
        judge: registry.modelFor(design.judge),
        ...(design.persuader ? { persuader: registry.modelFor(design.persuader) } : {}),
      },
      sampling: design.sampling,
      judgeSampling: { ...design.sampling, temperature: design.judgeTemperature },
      onTurn: () => {
        storedTurns += 1;
      },
    });
    // A conversation that failed on stored replies fails the same way when run: nothing to ask.
    return { complete: true, storedTurns };
  } catch (error) {
    if (!isNotStored(error)) throw error;
    return { complete: false, storedTurns };
  }
}

/** See the top of this file. */
export async function findSyconStoredWork(input: SyconStoredWorkInput): Promise<SyconStoredWork> {
  const replay = new StoredCallReplay(input.calls);
  const identityOf = (settings: ModelSettings) => {
    const fileSha256 = input.fileSha256(settings);
    return modelIdentity(settings, fileSha256 ? { fileSha256 } : {});
  };
  const registry = createModelRegistry(input.config, input.env, {
    decorateFor: (settings) => [replay.layer(identityOf(settings))],
    // Simulated agents are built as a run builds them (their SYCON keys checked), though only the store answers.
    simulatedProtocol: syconSimulatedProtocol(input.design.defences.list),
  });
  const progress = new Map<string, SyconStoredProgress>();
  let conversationsReplayed = 0;
  let conversationsDone = 0;
  for (const task of input.tasks) {
    if (input.isDone?.(task)) {
      conversationsDone += 1;
      progress.set(syconItemKey(task), { complete: true, storedTurns: task.plan.pressureTurns + 1 });
      continue;
    }
    const replayed = await replayConversation(input.design, task, registry);
    if (replayed.complete) conversationsReplayed += 1;
    if (replayed.complete || replayed.storedTurns > 0) progress.set(syconItemKey(task), replayed);
  }
  return { progress, storedCalls: replay.callsFound, conversationsReplayed, conversationsDone };
}
