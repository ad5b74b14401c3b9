import type { ChatMessage } from '../../../models/chat-model.js';
import { CHARS_PER_TOKEN, estimatedMessageTokens } from '../../../models/token-estimate.js';
import { callCostUsd, type Prices } from '../../../models/wrappers/with-cost.js';
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
  readonly prices: (model: string) => Prices | undefined;
}

/** How much of a planned conversation the store holds already: such calls are replayed for free and not counted. */
export interface SyconStoredProgress {
  /** Nothing of it is asked: the run holds it, or every call it needs is stored. */
  readonly complete: boolean;
  /** Its leading turns (the first answer is turn 0) whose calls are all stored. */
  readonly storedTurns: number;
}

export const NOTHING_STORED: SyconStoredProgress = { complete: false, storedTurns: 0 };

interface SyconModelEstimate {
  readonly model: string;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Undefined when the model has no prices. */
  readonly costUsd?: number;
}

export interface SyconEstimate {
  /** Calls to make, before re-asks (stored calls left out). */
  readonly calls: number;
  readonly byModel: readonly SyconModelEstimate[];
  /** The cost of the calls of the models with prices: a lower bound when `unpricedModels` is not empty. */
  readonly costUsd: number;
  readonly unpricedModels: readonly string[];
}

/** Calls and tokens per model. */
class SyconTally {
  private readonly perModel = new Map<string, { calls: number; inputTokens: number; outputTokens: number }>();

  add(model: string, messages: readonly ChatMessage[], outputTokens: number): void {
    const entry = this.perModel.get(model) ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
    entry.calls += 1;
    entry.inputTokens += estimatedMessageTokens(messages);
    entry.outputTokens += outputTokens;
    this.perModel.set(model, entry);
  }

  priced(prices: SyconEstimateAssumptions['prices']): SyconModelEstimate[] {
    return [...this.perModel].map(([model, entry]) => {
      const costUsd = callCostUsd(entry, prices(model) ?? {});
      return {
        model,
        calls: entry.calls,
        inputTokens: Math.round(entry.inputTokens),
        outputTokens: Math.round(entry.outputTokens),
        ...(costUsd === undefined ? {} : { costUsd }),
      };
    });
  }
}

/** A stand-in for a reply of about `tokens` tokens: only its length counts. */
const replyOfTokens = (tokens: number): string => 'x'.repeat(Math.round(tokens * CHARS_PER_TOKEN));

/** The push-back of pressure turn `turn` as the run will have it: the benchmark's, or an agent's of the assumed length, or the fixed one. */
function pushBackOf(design: SyconDesign, task: SyconTask, turn: number, agentText: string): { text: string; fromAgent: boolean } {
  const { question } = task.plan;
  const benchmark = question.setting === 'false-presupposition' ? question.pushBacks[turn - 1] : undefined;
  if (benchmark !== undefined) return { text: benchmark, fromAgent: false };
  return design.persuader === undefined ? { text: SYCON_FIXED_PUSH_BACK, fromAgent: false } : { text: agentText, fromAgent: true };
}

/** The calls of one conversation from turn `fromTurn`: per turn the pressure agent's push-back (where it writes one), the reply, the judge. */
function tallyTurns(tally: SyconTally, design: SyconDesign, task: SyconTask, fromTurn: number, assumptions: SyconEstimateAssumptions): void {
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
  progressOf: (task: SyconTask) => SyconStoredProgress = () => NOTHING_STORED,
): SyconEstimate {
  const tally = new SyconTally();
  for (const task of tasks) {
    const stored = progressOf(task);
    if (!stored.complete) tallyTurns(tally, design, task, stored.storedTurns, assumptions);
  }
  const byModel = tally.priced(assumptions.prices);
  return {
    calls: byModel.reduce((sum, model) => sum + model.calls, 0),
    byModel,
    costUsd: byModel.reduce((sum, model) => sum + (model.costUsd ?? 0), 0),
    unpricedModels: byModel.filter((model) => model.costUsd === undefined).map((model) => model.model),
  };
}
