import { type ConversationReplay, replayStoredTurns } from '../../../studies/protocol-stored-work.js';
import { runApeConversation } from '../ape-conversation.js';
import type { ApeDesign } from './ape-design.js';
import type { ApeStoredProgress } from './ape-estimate.js';
import { apeItemKey } from './ape-record.js';
import { type ApeTask, apeConversationModels } from './ape-study.js';

/**
 * How an APE conversation is replayed from the store for a dry run (`pmiyc run --protocol ape --dry-run`,
 * `findProtocolStoredWork`): the same requests and seeds a run makes, and whether the opening of the conversation's
 * topic and repetition is stored (it is shared by every persuader of them).
 */
export function apeConversationReplay(design: ApeDesign): ConversationReplay<ApeTask, ApeStoredProgress> {
  // Whether the opening of a topic's repetition is stored: its first conversation's replay says (the opening is its first call).
  const openings = new Map<string, boolean>();
  const openingOf = (task: ApeTask) => `${task.topicIndex}\u0000${task.repetition}`;
  return {
    itemKey: apeItemKey,
    held: (task) => {
      openings.set(openingOf(task), true);
      return { complete: true, openingStored: true, storedTurns: task.plan.turns };
    },
    replay: async (task, models, replay) => {
      const found = replay.callsFound;
      // A conversation that failed on stored replies (a belief never read) fails the same way when run: nothing to ask.
      const replayed = await replayStoredTurns((onTurn) =>
        runApeConversation({ plan: task.plan, models: apeConversationModels(design, task, models.modelFor), sampling: design.sampling, onTurn }),
      );
      const opening = openingOf(task);
      const openingStored = openings.get(opening) ?? (replayed.storedTurns > 0 || replayed.complete || replay.callsFound > found);
      openings.set(opening, openingStored);
      return { ...replayed, openingStored };
    },
    holdsAny: (progress) => progress.openingStored || progress.complete,
  };
}
