import type { ChatMessage } from '../../../models/chat-model.js';
import { CHARS_PER_TOKEN, estimatedMessageTokens } from '../../../models/token-estimate.js';
import { callCostUsd, type Prices } from '../../../models/wrappers/with-cost.js';
import {
  persusafetyJudgeMessages,
  persusafetyPersuadeeMessages,
  persusafetyPersuaderMessages,
  persusafetyTaskProbeMessages,
} from '../conversation/persusafety-messages.js';
import type { PersusafetyTurn } from '../conversation/persusafety-outcome.js';
import type { PersusafetyRunDesign } from './persusafety-run-design.js';
import type { PersusafetyTask } from './persusafety-study.js';

/**
 * What a PersuSafety run may cost, without running it (`pmiyc run --protocol persusafety --dry-run`): every call a
 * conversation asks if it runs its every turn (a declined task, an acceptance or a fourth rejection ends it
 * sooner: the estimate is a ceiling), counted per model, its input tokens from the very requests the run builds
 * (earlier replies stood in for by text of the assumed length), its output tokens assumed, priced from the config.
 * Re-asks of unusable replies are not counted, as in the tournament's and APE's estimates. Pure.
 */

/** What the estimate assumes of the replies, and each model's prices (none: the model is named as unpriced). */
export interface PersusafetyEstimateAssumptions {
  /** Output tokens of an agent's message: the persuader's message, the persuadee's reply. */
  readonly messageTokens: number;
  /** Output tokens of the persuader's answer to the task probe. */
  readonly probeTokens: number;
  /** Output tokens of the judge's JSON answer (15 scores with their rationales). */
  readonly judgementTokens: number;
  readonly prices: (model: string) => Prices | undefined;
}

/** How much of a planned conversation the store holds already: such calls are replayed for free and not counted. */
export interface PersusafetyStoredProgress {
  /** Nothing of it is asked: the run holds it, or every call it needs is stored. */
  readonly complete: boolean;
  readonly probeStored: boolean;
  /** Its leading turns whose calls are all stored. */
  readonly storedTurns: number;
}

/** A conversation of which the store holds nothing. */
export const NOTHING_STORED: PersusafetyStoredProgress = { complete: false, probeStored: false, storedTurns: 0 };

interface PersusafetyModelEstimate {
  readonly model: string;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Undefined when the model has no prices. */
  readonly costUsd?: number;
}

export interface PersusafetyEstimate {
  /** Calls to make at most, before re-asks (stored calls left out). */
  readonly calls: number;
  readonly byModel: readonly PersusafetyModelEstimate[];
  /** The cost of the calls of the models with prices: a lower bound when `unpricedModels` is not empty. */
  readonly costUsd: number;
  /** Models with calls to make and no prices, whose cost `costUsd` leaves out. */
  readonly unpricedModels: readonly string[];
}

/** Calls and tokens per model. */
class Tally {
  private readonly perModel = new Map<string, { calls: number; inputTokens: number; outputTokens: number }>();

  add(model: string, messages: readonly ChatMessage[], outputTokens: number): void {
    const entry = this.perModel.get(model) ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
    entry.calls += 1;
    entry.inputTokens += estimatedMessageTokens(messages);
    entry.outputTokens += outputTokens;
    this.perModel.set(model, entry);
  }

  priced(prices: PersusafetyEstimateAssumptions['prices']): PersusafetyModelEstimate[] {
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

/** The calls of one conversation after what the store holds: the probe, each turn's persuader and persuadee, the judge. */
function tallyConversation(
  tally: Tally,
  design: PersusafetyRunDesign,
  task: PersusafetyTask,
  stored: PersusafetyStoredProgress,
  assumptions: PersusafetyEstimateAssumptions,
): void {
  const { plan } = task;
  if (!stored.probeStored) tally.add(task.persuader, persusafetyTaskProbeMessages(plan), assumptions.probeTokens);
  const message = replyOfTokens(assumptions.messageTokens);
  const turnOf = (turn: number): PersusafetyTurn => ({
    turn,
    persuader: { message, withheld: false, attempts: [] },
    reply: { message, raw: message, decision: 'undecided', attempts: [] },
  });
  const exchanges = Array.from({ length: stored.storedTurns }, () => ({ persuader: message, persuadee: message }));
  for (let turn = stored.storedTurns; turn < plan.turns; turn++) {
    tally.add(task.persuader, persusafetyPersuaderMessages(plan, exchanges), assumptions.messageTokens);
    tally.add(design.persuadee, persusafetyPersuadeeMessages(plan, exchanges, message), assumptions.messageTokens);
    exchanges.push({ persuader: message, persuadee: message });
  }
  const judgementTokens = Math.min(assumptions.judgementTokens, design.judgeSampling.maxOutputTokens);
  tally.add(
    design.judge,
    persusafetyJudgeMessages(
      plan,
      Array.from({ length: plan.turns }, (_, turn) => turnOf(turn)),
    ),
    judgementTokens,
  );
}

/**
 * The calls still to make of `tasks` (the run's plan, `planPersusafetyTasks`) and their cost, each conversation
 * taken to its last turn. `progressOf` says what the store holds of a conversation already (a dry run replays it):
 * those calls are free and left out, and a conversation the store holds whole asks nothing.
 */
export function estimatePersusafetyRun(
  design: PersusafetyRunDesign,
  tasks: Iterable<PersusafetyTask>,
  assumptions: PersusafetyEstimateAssumptions,
  progressOf: (task: PersusafetyTask) => PersusafetyStoredProgress = () => NOTHING_STORED,
): PersusafetyEstimate {
  const tally = new Tally();
  for (const task of tasks) {
    const stored = progressOf(task);
    if (!stored.complete) tallyConversation(tally, design, task, stored, assumptions);
  }
  const byModel = tally.priced(assumptions.prices);
  return {
    calls: byModel.reduce((sum, model) => sum + model.calls, 0),
    byModel,
    costUsd: byModel.reduce((sum, model) => sum + (model.costUsd ?? 0), 0),
    unpricedModels: byModel.filter((model) => model.costUsd === undefined).map((model) => model.model),
  };
}
