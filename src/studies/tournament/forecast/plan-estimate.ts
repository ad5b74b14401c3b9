import { type Claim, claimKey } from '../../../domain/claim.js';
import { type Setting, SINGLE_TURN_TURNS } from '../../../domain/conversation.js';
import { hashString } from '../../../domain/random.js';
import type { PromptCacheRule } from '../../../models/providers/prompt-cache-rule.js';
import { estimatedTokens } from '../../../models/token-estimate.js';
import { callCostUsd, type Prices } from '../../../models/wrappers/with-cost.js';
import { persuadeeSystemPrompt, persuaderSystemPrompt } from '../../../protocol/prompts.js';
import { seedNamesOf } from '../agents.js';
import { countPlan, iteratePlan, type PlannedConversation, type TournamentDesign } from '../plan.js';

/** A model's prices, in US dollars per million tokens (cached and cache-written input as a call is priced). */
export type ModelPrices = Prices;

export interface EstimateAssumptions {
  /** Chance that a persuadee's in-loop reply is 5 and ends the loop, per persuadee model. */
  readonly earlyStopRate: (persuadee: string) => number;
  /** Output tokens of a typical reply (the paper's replies run to a few hundred tokens). */
  readonly replyTokens: number;
  readonly prices: (model: string) => ModelPrices | undefined;
  /** The prompt cache a model's provider applies (none when absent or undefined): each call's prefix is its agent's previous call in the conversation. */
  readonly promptCache?: (model: string) => PromptCacheRule | undefined;
}

export interface ModelEstimate {
  readonly model: string;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Of the input tokens, those a prompt cache is expected to serve, and to store (billed as cache writes). */
  readonly cachedInputTokens: number;
  readonly cacheWriteTokens: number;
  /** Whether the model's provider caches prompts at all (`EstimateAssumptions.promptCache`). */
  readonly promptCached: boolean;
  /** Undefined when the model has no prices. */
  readonly costUsd?: number;
}

export interface PlanEstimate {
  readonly conversations: number;
  /** Conversations per domain and setting, keyed "subjective multi". */
  readonly bySetting: Record<string, number>;
  /** Every call the plan can make, shared calls once, before re-samples (stored calls left out). */
  readonly callsUpperBound: number;
  /** The same with early stops at the assumed rates. */
  readonly callsExpected: number;
  readonly byModel: ModelEstimate[];
  /** The cost of the calls of the models with prices: a lower bound when `unpricedModels` is not empty. */
  readonly costUsd: number;
  /** Models with calls to make and no prices, whose cost `costUsd` leaves out. */
  readonly unpricedModels: string[];
  /** Of the calls, the drift probes to ask (`--probe-drift`; 0 without it). */
  readonly driftProbes: number;
}

/**
 * How much of a planned conversation the store holds already: a dry run replays the stored calls
 * (stored-progress.ts) and counts only the rest.
 */
export interface StoredProgress {
  /** Nothing of it is asked: every call it needs is stored, or the run holds the conversation. */
  readonly complete: boolean;
  /** Its leading turns whose calls are stored: 1 its opening, 2 with the first argument, and so on. */
  readonly storedTurns: number;
  /** The first turn not stored is the final decision after an early stop. */
  readonly nextIsFinal: boolean;
  /** Its persuader's stance (that agent's opening as a persuadee) is stored. */
  readonly stanceStored: boolean;
  /** With `probeDrift`: its drift probe is stored (or the run holds the conversation). Not stored unless said. */
  readonly probeStored?: boolean;
}

/** A conversation of which the store holds nothing. */
export const NOTHING_STORED: StoredProgress = { complete: false, storedTurns: 0, nextIsFinal: false, stanceStored: false };

/** Early-stop rate per reply assumed for a persuadee with no history (the dry run's and the live ETA's prior). */
export const DEFAULT_EARLY_STOP_RATE = 0.1;
/** Replies seen before a stored rate replaces the default in the dry run. */
export const MIN_REPLIES_FOR_RATE = 20;

/** Turns 1 and 2 (the opening and the first argument) are shared between conversations. */
const PREFIX_TURNS = 2;
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

/** Calls and tokens per model (by the name that stands for the prompts it is asked with), from the assumptions. */
class ModelTally {
  private readonly perModel = new Map<
    string,
    { calls: number; inputTokens: number; outputTokens: number; cachedInputTokens: number; cacheWriteTokens: number }
  >();

  constructor(private readonly assumptions: Pick<EstimateAssumptions, 'replyTokens' | 'promptCache'>) {}

  /**
   * `calls` calls of `model` with `turnIndex` earlier turns in context. Its agent's previous call in
   * the conversation, two turns before, is the prefix a prompt cache can serve (pmiyc's requests
   * append the history: model-layer.md, "Prompt caching"); what lies beyond it is stored, where the
   * provider bills cache writes.
   */
  add(model: string, calls: number, turnIndex: number, systemTokens: number): void {
    this.addSpread(model, calls, [turnIndex], systemTokens);
  }

  /**
   * `calls` calls of `model` spread evenly over the turns it speaks in (`turnIndices`, each the
   * number of earlier turns in context): a prompt cache serves only prefixes of `minTokens` or
   * more, so the later, longer turns of a conversation are cached while its first ones are not.
   */
  addSpread(model: string, calls: number, turnIndices: readonly number[], systemTokens: number): void {
    const entry = this.perModel.get(model) ?? { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0 };
    const messageTokens = this.assumptions.replyTokens + MESSAGE_OVERHEAD_TOKENS;
    const rule = this.assumptions.promptCache?.(model);
    const share = calls / Math.max(1, turnIndices.length);
    for (const turnIndex of turnIndices) {
      const prompt = systemTokens + turnIndex * messageTokens;
      const prefix = turnIndex >= 2 ? systemTokens + (turnIndex - 2) * messageTokens : 0;
      const cached = rule && prefix >= rule.minTokens ? prefix : 0;
      const written = rule?.writes && prompt >= rule.minTokens ? prompt - cached : 0;
      entry.inputTokens += share * prompt;
      entry.cachedInputTokens += share * cached;
      entry.cacheWriteTokens += share * written;
    }
    entry.calls += calls;
    entry.outputTokens += calls * this.assumptions.replyTokens;
    this.perModel.set(model, entry);
  }

  priced(prices: EstimateAssumptions['prices']): ModelEstimate[] {
    return [...this.perModel]
      .filter(([, entry]) => entry.calls > 0)
      .map(([model, entry]) => {
        const costUsd = callCostUsd(entry, prices(model) ?? {});
        return {
          model,
          calls: Math.round(entry.calls),
          inputTokens: Math.round(entry.inputTokens),
          outputTokens: Math.round(entry.outputTokens),
          cachedInputTokens: Math.round(entry.cachedInputTokens),
          cacheWriteTokens: Math.round(entry.cacheWriteTokens),
          promptCached: this.assumptions.promptCache?.(model) !== undefined,
          ...(costUsd === undefined ? {} : { costUsd }),
        };
      });
  }
}

/** Pairs of agents whose conversations are another pair's, request for request (same seed names in both roles). */
function pairsAskedBefore(design: TournamentDesign): Set<string> {
  const names = (agent: string) => seedNamesOf(agent, design.variants ?? {});
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const persuader of design.persuaders) {
    for (const persuadee of design.persuadees) {
      const key = `${names(persuader).persuader}\u0000${names(persuadee).persuadee}`;
      if (seen.has(key)) duplicates.add(`${persuader}\u0000${persuadee}`);
      seen.add(key);
    }
  }
  return duplicates;
}

/** System prompts' tokens of a claim, by role (pmiyc's own prompts; a variant's are about as long). */
function systemTokensOf(claim: Claim): { persuader: number; persuadee: number } {
  return { persuader: estimatedTokens(persuaderSystemPrompt(claim)), persuadee: estimatedTokens(persuadeeSystemPrompt(claim)) };
}

/**
 * What a plan will cost, without running it: conversations per setting, calls as an upper bound and
 * as expected with early stops, and tokens and cost per model from the assumptions. A request that
 * several conversations or agents share is counted once: an opening per (persuadee, claim,
 * repetition), the persuader's stance being its opening as a persuadee, a first argument per (pair,
 * claim, repetition), each named by the prompts it is asked with (a persuader-only variant's
 * openings are its model's). With `probeDrift`, each conversation asks its persuader one more call
 * after its end, with the whole conversation in context (counted as if every conversation completed). `progressOf` says what the store holds of a conversation already (a
 * dry run replays it): those calls are free and left out. Pure: the same numbers for every caller.
 */
export function estimatePlan(
  design: TournamentDesign,
  assumptions: EstimateAssumptions,
  progressOf: (planned: PlannedConversation) => StoredProgress = () => NOTHING_STORED,
): PlanEstimate {
  const tally = new ModelTally(assumptions);
  const names = (agent: string) => seedNamesOf(agent, design.variants ?? {});
  const duplicates = pairsAskedBefore(design);
  // Shared requests already counted, as 53-bit hashes of what they are (memory: agents and pairs x claims x repetitions).
  const counted = new Set<number>();
  const isNew = (parts: readonly (string | number)[]) => {
    const key = hashString(parts.join('\u001f'));
    if (counted.has(key)) return false;
    counted.add(key);
    return true;
  };
  const calls = { upper: 0, expected: 0, probes: 0 };
  const ask = (model: string, count: number, turnIndex: number, systemTokens: number) => {
    tally.add(model, count, turnIndex, systemTokens);
    calls.expected += count;
  };
  const askShared = (model: string, turnIndex: number, systemTokens: number) => {
    ask(model, 1, turnIndex, systemTokens);
    calls.upper += 1;
  };
  const systemTokens = new Map<number, { persuader: number; persuadee: number }>();
  for (const planned of iteratePlan(design)) {
    const { spec } = planned;
    const stored = progressOf(planned);
    const claim = claimKey(spec.claim);
    const system = systemTokens.get(spec.claim.index) ?? systemTokensOf(spec.claim);
    systemTokens.set(spec.claim.index, system);
    const persuader = names(spec.persuaderModel).persuader;
    const persuadee = names(spec.persuadeeModel).persuadee;
    const stance = names(spec.persuaderModel).persuadee;
    if (!stored.stanceStored && isNew(['opening', stance, claim, spec.repetition])) askShared(stance, 0, system.persuadee);
    if (duplicates.has(`${spec.persuaderModel}\u0000${spec.persuadeeModel}`)) continue;
    if (design.probeDrift && !stored.probeStored) {
      askShared(persuader, spec.turns, system.persuader);
      calls.probes += 1;
    }
    if (stored.complete) continue;
    if (stored.storedTurns < 1 && isNew(['opening', persuadee, claim, spec.repetition])) askShared(persuadee, 0, system.persuadee);
    if (stored.storedTurns < 2 && isNew(['argument', persuader, persuadee, claim, spec.repetition])) askShared(persuader, 1, system.persuader);
    // After the prefix, the conversation's own calls: the persuadee speaks on odd turns, the persuader on even ones.
    const next = Math.max(PREFIX_TURNS + 1, stored.storedTurns + 1);
    const rest = stored.nextIsFinal ? 1 : expectedCallsFrom(spec.turns, next, assumptions.earlyStopRate(spec.persuadeeModel));
    calls.upper += stored.nextIsFinal ? 1 : Math.max(0, spec.turns - next + 1);
    const persuadeeShare = stored.nextIsFinal || spec.turns === SINGLE_TURN_TURNS ? rest : next % 2 === 1 ? Math.ceil(rest / 2) : Math.floor(rest / 2);
    // The turns each side speaks in from here, by the number of turns before them (the persuadee's are the odd turns and the last).
    const from = stored.nextIsFinal ? stored.storedTurns : next - 1;
    const indices = Array.from({ length: stored.nextIsFinal ? 1 : spec.turns - from }, (_, offset) => from + offset);
    tally.addSpread(persuadee, persuadeeShare, stored.nextIsFinal ? indices : indices.filter((index) => index % 2 === 0), system.persuadee);
    tally.addSpread(
      persuader,
      rest - persuadeeShare,
      indices.filter((index) => index % 2 === 1),
      system.persuader,
    );
    calls.expected += rest;
  }
  const byModel = tally.priced(assumptions.prices);
  return {
    conversations: countPlan(design),
    bySetting: conversationsBySetting(design),
    callsUpperBound: calls.upper,
    callsExpected: Math.round(calls.expected),
    byModel,
    costUsd: byModel.reduce((sum, model) => sum + (model.costUsd ?? 0), 0),
    unpricedModels: byModel.filter((model) => model.costUsd === undefined && model.calls > 0).map((model) => model.model),
    driftProbes: calls.probes,
  };
}

/** Conversations per domain and setting, keyed "subjective multi". */
function conversationsBySetting(design: TournamentDesign): Record<string, number> {
  const pairs = design.persuaders.length * design.persuadees.length * (design.repetitions ?? 1);
  const domains = [...new Set(design.claims.map((claim) => claim.domain))];
  return Object.fromEntries(
    domains.flatMap((domain) => {
      const claims = design.claims.filter((claim) => claim.domain === domain).length;
      return design.settings.map((setting: Setting) => [`${domain} ${setting}`, claims * pairs]);
    }),
  );
}
