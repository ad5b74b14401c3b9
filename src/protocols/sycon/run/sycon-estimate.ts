import {
  type CallTally,
  estimateProtocolRun,
  type ModelPrices,
  type ProtocolEstimate,
  replyOfTokens,
  type StoredConversationProgress,
} from '../../../studies/protocol-estimate.js';
import { syconJudgeMessages, syconPersuadeeMessages, syconPressureMessages } from '../sycon-messages.js';
import { SYCON_FIXED_PUSH_BACK, syconOpeningRequest } from '../sycon-prompts.js';
import type { SyconDesign } from './sycon-design.js';
import type { SyconTask } from './sycon-study.js';

/**
 * What a SYCON run will cost, without running it (`pmiyc run --protocol sycon --dry-run`): every call a run asks,
 * counted per model, its input tokens from the very requests the run builds (the earlier replies and the agent's
 * push-backs stood in for by text of the assumed length), its output tokens assumed, priced from the config. Re-asks
 * of unusable replies are not counted, as in the other estimates. Pure.
 */

/** What the estimate assumes of the replies, and each model's prices (none: the model is named as unpriced). */
export interface SyconEstimateAssumptions {
  /** Output tokens of a reply of the model under test, and of a push-back of the pressure agent. */
  readonly messageTokens: number;
  /** Output tokens of the judge's JSON answer. */
  readonly answerTokens: number;
  readonly prices: ModelPrices;
}

/** A conversation of which the store holds nothing (its stored turns count from the first answer, turn 0). */
export const NOTHING_STORED: StoredConversationProgress = { complete: false, storedTurns: 0 };

/** The push-back of pressure turn `turn` as the run will have it: the benchmark's, or an agent's of the assumed length, or the fixed one. */
function pushBackOf(design: SyconDesign, task: SyconTask, turn: number, agentText: string): { text: string; fromAgent: boolean } {
  const { question } = task.plan;
  const benchmark = question.setting === 'false-presupposition' ? question.pushBacks[turn - 1] : undefined;
  if (benchmark !== undefined) return { text: benchmark, fromAgent: false };
  return design.persuader === undefined ? { text: SYCON_FIXED_PUSH_BACK, fromAgent: false } : { text: agentText, fromAgent: true };
}

/** The calls of one conversation from turn `fromTurn`: per turn the pressure agent's push-back (where it writes one), the reply, the judge. */
function tallyTurns(tally: CallTally, design: SyconDesign, task: SyconTask, fromTurn: number, assumptions: SyconEstimateAssumptions): void {
  const { plan } = task;
  const message = replyOfTokens(assumptions.messageTokens);
  const answerTokens = Math.min(assumptions.answerTokens, design.sampling.maxOutputTokens);
  const replies = Array.from({ length: fromTurn }, () => message);
  const pushBacks = Array.from({ length: Math.max(0, fromTurn - 1) }, (_, index) => pushBackOf(design, task, index + 1, message).text);
  for (let turn = fromTurn; turn <= design.pressureTurns; turn++) {
    let answered = syconOpeningRequest(plan.question);
    if (turn > 0) {
      const pushBack = pushBackOf(design, task, turn, message);
      if (pushBack.fromAgent) tally.add(design.persuader!, syconPressureMessages(plan.question, { replies, pushBacks }), assumptions.messageTokens);
      pushBacks.push(pushBack.text);
      answered = pushBack.text;
    }
    tally.add(task.persuadee, syconPersuadeeMessages(plan, { replies, pushBacks }), assumptions.messageTokens);
    tally.add(design.judge, syconJudgeMessages(plan.question, answered, message), answerTokens);
    replies.push(message);
  }
}

/**
 * The calls still to make of `tasks` (the run's plan, `planSyconTasks`) and their cost. `progressOf` says what the
 * store holds of a conversation already (a dry run replays it): those calls are free and left out, and a conversation
 * the store holds whole asks nothing.
 */
export function estimateSyconRun(
  design: SyconDesign,
  tasks: Iterable<SyconTask>,
  assumptions: SyconEstimateAssumptions,
  progressOf: (task: SyconTask) => StoredConversationProgress = () => NOTHING_STORED,
): ProtocolEstimate {
  const tallyOf = (tally: CallTally, task: SyconTask, stored: StoredConversationProgress) => tallyTurns(tally, design, task, stored.storedTurns, assumptions);
  return estimateProtocolRun(tasks, progressOf, tallyOf, assumptions.prices);
}
