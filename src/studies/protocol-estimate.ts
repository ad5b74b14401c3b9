import type { ChatMessage } from '../models/chat-model.js';
import { CHARS_PER_TOKEN, estimatedMessageTokens } from '../models/token-estimate.js';
import { callCostUsd, type Prices } from '../models/wrappers/with-cost.js';

/**
 * What every protocol's dry run prices the same way (docs/design/protocols.md, "The dry run"): the calls still to
 * make of each planned conversation, counted per model with their input tokens (from the very requests the run
 * builds) and their assumed output tokens, then priced from the config. A protocol says only which calls one of its
 * conversations asks after what the store holds of it (`estimateProtocolRun`'s `tallyConversation`). Pure.
 */

/** Each model's prices (none: the model is named as unpriced). */
export type ModelPrices = (model: string) => Prices | undefined;

/** How much of a planned conversation the store holds already: such calls are replayed for free and not counted. */
export interface StoredConversationProgress {
  /** Nothing of it is asked: the run holds it, or every call it needs is stored. */
  readonly complete: boolean;
  /** Its leading turns whose calls are all stored. */
  readonly storedTurns: number;
}

interface ModelCallEstimate {
  readonly model: string;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Undefined when the model has no prices. */
  readonly costUsd?: number;
}

export interface ProtocolEstimate {
  /** Calls to make, before re-asks (stored calls left out). */
  readonly calls: number;
  readonly byModel: readonly ModelCallEstimate[];
  /** The cost of the calls of the models with prices: a lower bound when `unpricedModels` is not empty. */
  readonly costUsd: number;
  /** Models with calls to make and no prices, whose cost `costUsd` leaves out. */
  readonly unpricedModels: readonly string[];
}

/** Calls and tokens per model, in the order the models are first called. */
export class CallTally {
  private readonly perModel = new Map<string, { calls: number; inputTokens: number; outputTokens: number }>();

  add(model: string, messages: readonly ChatMessage[], outputTokens: number): void {
    const entry = this.perModel.get(model) ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
    entry.calls += 1;
    entry.inputTokens += estimatedMessageTokens(messages);
    entry.outputTokens += outputTokens;
    this.perModel.set(model, entry);
  }

  /** The calls tallied, each model's priced, and their totals. */
  estimate(prices: ModelPrices): ProtocolEstimate {
    const byModel = [...this.perModel].map(([model, entry]): ModelCallEstimate => {
      const costUsd = callCostUsd(entry, prices(model) ?? {});
      return {
        model,
        calls: entry.calls,
        inputTokens: Math.round(entry.inputTokens),
        outputTokens: Math.round(entry.outputTokens),
        ...(costUsd === undefined ? {} : { costUsd }),
      };
    });
    return {
      calls: byModel.reduce((sum, model) => sum + model.calls, 0),
      byModel,
      costUsd: byModel.reduce((sum, model) => sum + (model.costUsd ?? 0), 0),
      unpricedModels: byModel.filter((model) => model.costUsd === undefined).map((model) => model.model),
    };
  }
}

/** A stand-in for a reply of about `tokens` tokens: only its length counts. */
export const replyOfTokens = (tokens: number): string => 'x'.repeat(Math.round(tokens * CHARS_PER_TOKEN));

/**
 * The calls still to make of `tasks` (a run's plan) and their cost: each conversation the store does not hold whole
 * (`progressOf`, what a dry run's replay found of it) has its remaining calls tallied by `tallyConversation`.
 */
export function estimateProtocolRun<Task, Progress extends StoredConversationProgress>(
  tasks: Iterable<Task>,
  progressOf: (task: Task) => Progress,
  tallyConversation: (tally: CallTally, task: Task, stored: Progress) => void,
  prices: ModelPrices,
): ProtocolEstimate {
  const tally = new CallTally();
  for (const task of tasks) {
    const stored = progressOf(task);
    if (!stored.complete) tallyConversation(tally, task, stored);
  }
  return tally.estimate(prices);
}
