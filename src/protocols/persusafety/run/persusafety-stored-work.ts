import { type ConversationReplay, replayStoredTurns } from '../../../studies/protocol-stored-work.js';
import { runPersusafetyConversation } from '../conversation/persusafety-conversation.js';
import type { PersusafetyStoredProgress } from './persusafety-estimate.js';
import type { PersusafetyRunDesign } from './persusafety-run-design.js';
import type { PersusafetyTask } from './persusafety-study.js';

/**
 * How a PersuSafety conversation is replayed from the store for a dry run (`pmiyc run --protocol persusafety
 * --dry-run`, `findProtocolStoredWork`): the same requests and seeds a run makes, and whether its task probe (its
 * first call) is stored.
 */
export function persusafetyConversationReplay(design: PersusafetyRunDesign): ConversationReplay<PersusafetyTask, PersusafetyStoredProgress> {
  return {
    itemKey: (task) => task.itemKey,
    held: (task) => ({ complete: true, probeStored: true, storedTurns: task.plan.turns }),
    replay: async (task, models, replay) => {
      const found = replay.callsFound;
      // A conversation that failed on stored replies (a decision never read) fails the same way when run: nothing to ask.
      const { complete, storedTurns } = await replayStoredTurns((onTurn) =>
        runPersusafetyConversation({
          plan: task.plan,
          models: { persuader: models.modelFor(task.persuader), persuadee: models.modelFor(design.persuadee), judge: models.modelFor(design.judge) },
          sampling: design.sampling,
          judgeSampling: design.judgeSampling,
          onTurn,
        }),
      );
      return { complete, probeStored: complete || storedTurns > 0 || replay.callsFound > found, storedTurns };
    },
    holdsAny: (progress) => progress.probeStored,
  };
}
