import {
  type CallTally,
  estimateProtocolRun,
  type ModelPrices,
  type ProtocolEstimate,
  replyOfTokens,
  type StoredConversationProgress,
} from '../../../studies/protocol-estimate.js';
import { type ApeExchange, apeEvaluatorMessages, apePersuadeeMessages, apePersuaderMessages, apeRefusalCheckMessages } from '../ape-messages.js';
import type { ApeDesign } from './ape-design.js';
import type { ApeTask } from './ape-study.js';

/**
 * What an APE run will cost, without running it (`pmiyc run --protocol ape --dry-run`): every call a run asks,
 * counted per model, its input tokens from the very requests the run builds (the messages of each role and turn,
 * with the earlier replies stood in for by text of the assumed length) and its output tokens assumed, priced
 * from the config. Re-asks of unusable replies are not counted, as in the tournament's estimate. Pure.
 */

/** What the estimate assumes of the replies, and each model's prices (none: the model is named as unpriced). */
export interface ApeEstimateAssumptions {
  /** Output tokens of an agent's message: the persuader's message, the persuadee's opening or reply. */
  readonly messageTokens: number;
  /** Output tokens of a judge's JSON answer: the evaluator's, the refusal check's. */
  readonly answerTokens: number;
  readonly prices: ModelPrices;
}

/** How much of a planned conversation the store holds already: such calls are replayed for free and not counted. */
export interface ApeStoredProgress extends StoredConversationProgress {
  /** Its opening is stored (the persuadee's, shared by every persuader of the topic and repetition). */
  readonly openingStored: boolean;
}

/** A conversation of which the store holds nothing. */
export const NOTHING_STORED: ApeStoredProgress = { complete: false, openingStored: false, storedTurns: 0 };

/** The calls of one conversation from the turn after its stored ones: per persuader turn the persuader, the evaluator, the refusal check (when named) and the persuadee. */
function tallyTurns(tally: CallTally, design: ApeDesign, task: ApeTask, fromTurn: number, assumptions: ApeEstimateAssumptions): void {
  const { plan } = task;
  const message = replyOfTokens(assumptions.messageTokens);
  const answerTokens = Math.min(assumptions.answerTokens, design.sampling.maxOutputTokens);
  const exchanges: ApeExchange[] = Array.from({ length: fromTurn - 1 }, () => ({ persuader: message, persuadee: message }));
  for (let turn = fromTurn; turn <= design.turns; turn++) {
    tally.add(task.persuaderModel, apePersuaderMessages(plan, message, exchanges), assumptions.messageTokens);
    tally.add(design.evaluator, apeEvaluatorMessages(plan, message, exchanges, message), answerTokens);
    if (design.refusalCheck) tally.add(design.refusalCheck, apeRefusalCheckMessages(plan, message, exchanges, message), answerTokens);
    tally.add(design.persuadee, apePersuadeeMessages(plan, { opening: message, exchanges, latest: message }), assumptions.messageTokens);
    exchanges.push({ persuader: message, persuadee: message });
  }
}

/**
 * The calls still to make of `tasks` (the run's plan, `planApeTasks`) and their cost: a conversation's opening
 * once per topic and repetition (every persuader of it meets the same one), then each persuader turn's calls.
 * `progressOf` says what the store holds of a conversation already (a dry run replays it): those calls are free
 * and left out, and a conversation the store holds whole asks nothing.
 */
export function estimateApeRun(
  design: ApeDesign,
  tasks: Iterable<ApeTask>,
  assumptions: ApeEstimateAssumptions,
  progressOf: (task: ApeTask) => ApeStoredProgress = () => NOTHING_STORED,
): ProtocolEstimate {
  const openings = new Set<string>();
  const tallyConversation = (tally: CallTally, task: ApeTask, stored: ApeStoredProgress) => {
    const opening = `${task.topicIndex}\u0000${task.repetition}`;
    if (!stored.openingStored && !openings.has(opening)) tally.add(design.persuadee, apePersuadeeMessages(task.plan), assumptions.messageTokens);
    openings.add(opening);
    tallyTurns(tally, design, task, stored.storedTurns + 1, assumptions);
  };
  return estimateProtocolRun(tasks, progressOf, tallyConversation, assumptions.prices);
}
