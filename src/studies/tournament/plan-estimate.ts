import { type Setting, SINGLE_TURN_TURNS } from '../../domain/conversation.js';
import { persuadeeSystemPrompt, persuaderSystemPrompt } from '../../protocol/prompts.js';
import { countPlan, type TournamentDesign } from './plan.js';

/** A model's prices, in US dollars per million tokens. */
export interface ModelPrices {
  readonly inputUsdPerMillion?: number;
  readonly outputUsdPerMillion?: number;
}

export interface EstimateAssumptions {
  /** Chance that a persuadee's in-loop reply is 5 and ends the loop, per persuadee model. */
  readonly earlyStopRate: (persuadee: string) => number;
  /** Output tokens of a typical reply (the paper's replies run to a few hundred tokens). */
  readonly replyTokens: number;
  readonly prices: (model: string) => ModelPrices | undefined;
}

interface ModelEstimate {
  readonly model: string;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Undefined when the model has no prices. */
  readonly costUsd?: number;
}

export interface PlanEstimate {
  readonly conversations: number;
  /** Conversations per domain and setting, keyed "subjective multi". */
  readonly bySetting: Record<string, number>;
  /** Every call the plan can make, shared calls once, before re-samples. */
  readonly callsUpperBound: number;
  /** The same with early stops at the assumed rates. */
  readonly callsExpected: number;
  readonly byModel: ModelEstimate[];
  readonly costUsd?: number;
}

/** Early-stop rate per reply assumed for a persuadee with no history (the dry run's and the live ETA's prior). */
export const DEFAULT_EARLY_STOP_RATE = 0.1;
/** Replies seen before a stored rate replaces the default in the dry run. */
export const MIN_REPLIES_FOR_RATE = 20;

const CHARS_PER_TOKEN = 4;
/** Tags, wrappers and the reminder around each message in a history. */
const MESSAGE_OVERHEAD_TOKENS = 40;

/** Expected calls after the shared prefix in a t-turn conversation whose persuadee stops early at rate p per reply. */
export function expectedCallsAfterPrefix(turns: number, p: number): number {
  const replies = (turns - SINGLE_TURN_TURNS) / 2;
  let expected = 0;
  for (let reply = 1; reply <= replies; reply++) expected += p * (1 - p) ** (reply - 1) * 2 * reply;
  return expected + (1 - p) ** replies * (turns - 2);
}

/**
 * Expected calls of a t-turn conversation from turn `nextTurn` (>= 3) to its end, given that it is
 * still going: its persuadee stops early at rate `p` per reply, and each call ends the conversation
 * (a failure) at rate `q`. From turn 3 with q = 0 it equals `expectedCallsAfterPrefix`; later, it
 * is what a conversation under way still needs.
 */
export function expectedCallsFrom(turns: number, nextTurn: number, p: number, q = 0): number {
  if (nextTurn > turns) return 0;
  // Backwards from the final decision: an argument is one call, then (unless it failed) the rest; a
  // reply is one call, then (unless it failed) the final decision after a stop, or the rest.
  let fromHere = 1;
  for (let turn = turns - 1; turn >= nextTurn; turn--) fromHere = 1 + (1 - q) * (turn % 2 === 0 ? fromHere : p + (1 - p) * fromHere);
  return fromHere;
}

/**
 * What a plan will cost, without running it: conversations per setting, calls (shared openings and
 * first arguments counted once) as an upper bound and as expected with early stops, and tokens and
 * cost per model from the assumptions. Pure: the same numbers for --dry-run and progress totals.
 */
export function estimatePlan(design: TournamentDesign, assumptions: EstimateAssumptions): PlanEstimate {
  const perModel = new Map<string, { calls: number; inputTokens: number; outputTokens: number }>();
  const add = (model: string, calls: number, turnIndex: number, systemTokens: number) => {
    const entry = perModel.get(model) ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
    entry.calls += calls;
    entry.inputTokens += calls * (systemTokens + turnIndex * (assumptions.replyTokens + MESSAGE_OVERHEAD_TOKENS));
    entry.outputTokens += calls * assumptions.replyTokens;
    perModel.set(model, entry);
  };
  const repetitions = design.repetitions ?? 1;
  const multiTurns = design.multiTurns ?? 9;
  const openers = new Set([...design.persuadees, ...design.persuaders]);
  let upper = 0;
  let expected = 0;
  for (const claim of design.claims) {
    const eeSystem = persuadeeSystemPrompt(claim).length / CHARS_PER_TOKEN;
    const erSystem = persuaderSystemPrompt(claim).length / CHARS_PER_TOKEN;
    for (const model of openers) add(model, 1, 0, eeSystem);
    upper += openers.size;
    expected += openers.size;
    for (const persuader of design.persuaders) {
      for (const persuadee of design.persuadees) {
        add(persuader, repetitions, 1, erSystem);
        upper += repetitions;
        expected += repetitions;
        for (const setting of design.settings) {
          const turns = setting === 'single' ? SINGLE_TURN_TURNS : multiTurns;
          const rest = expectedCallsAfterPrefix(turns, assumptions.earlyStopRate(persuadee));
          upper += repetitions * (turns - 2);
          expected += repetitions * rest;
          // After the prefix, the persuadee speaks about half the calls and the persuader the rest.
          const persuadeeShare = setting === 'single' ? rest : Math.ceil(rest / 2);
          add(persuadee, repetitions * persuadeeShare, Math.ceil(turns / 2), eeSystem);
          add(persuader, repetitions * (rest - persuadeeShare), Math.ceil(turns / 2), erSystem);
        }
      }
    }
  }
  const byModel = [...perModel].map(([model, entry]) => {
    const prices = assumptions.prices(model);
    const priced = prices && (prices.inputUsdPerMillion !== undefined || prices.outputUsdPerMillion !== undefined);
    const costUsd = priced ? (entry.inputTokens * (prices.inputUsdPerMillion ?? 0) + entry.outputTokens * (prices.outputUsdPerMillion ?? 0)) / 1e6 : undefined;
    return {
      model,
      calls: Math.round(entry.calls),
      inputTokens: Math.round(entry.inputTokens),
      outputTokens: Math.round(entry.outputTokens),
      ...(costUsd === undefined ? {} : { costUsd }),
    };
  });
  const pairs = design.persuaders.length * design.persuadees.length * repetitions;
  const domains = [...new Set(design.claims.map((claim) => claim.domain))];
  const bySetting = Object.fromEntries(
    domains.flatMap((domain) => {
      const claims = design.claims.filter((claim) => claim.domain === domain).length;
      return design.settings.map((setting: Setting) => [`${domain} ${setting}`, claims * pairs]);
    }),
  );
  const costs = byModel.map((model) => model.costUsd);
  return {
    conversations: countPlan(design),
    bySetting,
    callsUpperBound: upper,
    callsExpected: Math.round(expected),
    byModel,
    ...(costs.every((cost) => cost !== undefined) ? { costUsd: costs.reduce((sum, cost) => sum! + cost!, 0) } : {}),
  };
}
