import type { StoredConversationProgress } from '../../../studies/protocol-estimate.js';
import { type ConversationReplay, replayStoredTurns } from '../../../studies/protocol-stored-work.js';
import { runSyconConversation } from '../sycon-conversation.js';
import type { SyconDesign } from './sycon-design.js';
import { syconItemKey } from './sycon-record.js';
import type { SyconTask } from './sycon-study.js';

/**
 * How a SYCON conversation is replayed from the store for a dry run (`pmiyc run --protocol sycon --dry-run`,
 * `findProtocolStoredWork`): the same requests and seeds a run makes, its turns counted from the first answer.
 */
export function syconConversationReplay(design: SyconDesign): ConversationReplay<SyconTask, StoredConversationProgress> {
  return {
    itemKey: syconItemKey,
    held: (task) => ({ complete: true, storedTurns: task.plan.pressureTurns + 1 }),
    replay: (task, models) =>
      replayStoredTurns((onTurn) =>
        runSyconConversation({
          plan: task.plan,
          models: {
            persuadee: models.modelFor(task.persuadee),
            judge: models.modelFor(design.judge),
            ...(design.persuader ? { persuader: models.modelFor(design.persuader) } : {}),
          },
          sampling: design.sampling,
          judgeSampling: { ...design.sampling, temperature: design.judgeTemperature },
          onTurn,
        }),
      ),
    holdsAny: (progress) => progress.complete || progress.storedTurns > 0,
  };
}
