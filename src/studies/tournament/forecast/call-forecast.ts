import {
  type CompletedConversation,
  type FailedConversation,
  MULTI_TURN_TURNS,
  type Setting,
  SINGLE_TURN_TURNS,
  type Turn,
} from '../../../domain/conversation.js';
import { seedNamesOf } from '../agents.js';
import type { PlannedConversation, TournamentDesign } from '../plan.js';
import { DEFAULT_EARLY_STOP_RATE, expectedCallsFrom } from './plan-estimate.js';

/** A persuadee reply of 5 ends the loop (Algorithm 1). */
const STOPPING_SCORE = 5;
/** Turns 1 and 2 (the opening and the first argument) are shared between conversations; the rest are their own. */
const PREFIX_TURNS = 2;
/** The weight of the prior early-stop rate, in replies: light, so that a persuadee's own replies soon decide. */
const PRIOR_REPLIES = 5;
/** The weight of the prior (no failures) in the failure rate per call, in calls. */
const PRIOR_CALLS_FOR_FAILURES = 100;

interface Tally {
  skipped: number;
  finished: number;
  /** Calls after the prefix that the finished conversations made (a failed one's failing call included). */
  callsOfFinished: number;
}

const NO_TALLY: Readonly<Tally> = { skipped: 0, finished: 0, callsOfFinished: 0 };

/** A conversation under way: its last accepted turn. */
interface Running {
  readonly cell: string;
  readonly persuadee: string;
  readonly turns: number;
  lastTurn: Pick<Turn, 'index' | 'kind' | 'score'>;
}

/** What the forecast reads of a finished conversation: how many turns it asked. */
type FinishedOutcome =
  | { readonly status: CompletedConversation['status']; readonly turns: readonly unknown[] }
  | Pick<FailedConversation, 'status' | 'failedTurn'>;

const cellOf = (persuadee: string, setting: Setting) => `${persuadee}\u0000${setting}`;

/**
 * The calls of the plan one session of a tournament is expected to make, counted as
 * `estimatePlan` counts them (shared openings and first arguments once, re-samples not at all),
 * re-estimated as the session goes:
 * - each persuadee's early-stop rate is learnt from its replies (the prior, 10 % per reply as the dry
 *   run assumes, weighs as much as 5 replies), and the rate at which calls fail a
 *   conversation from the calls made (the prior, none, weighs as much as 100 calls);
 * - a conversation under way is expected to make the calls it made plus those its remaining turns
 *   need (a long one that has not stopped yet needs more than a fresh one);
 * - a finished conversation (completed or failed) counts the calls it made, so that the forecast
 *   ends equal to what was made;
 * - conversations stored already (a resume) leave the count: those the plan reached as they are
 *   found (with their first argument when they are of the first setting, and a claim's openings
 *   when all of its are), the others (`storedAtStart` less those found) at the average of those
 *   not started.
 * The ETA is this minus the calls obtained so far.
 */
export class CallForecast {
  private readonly repetitions: number;
  private readonly firstSetting: Setting | undefined;
  /** Openings (one per opener and repetition) and first arguments (one per pair and repetition) of one claim. */
  private readonly prefixCallsPerClaim: number;
  /**
   * Openings of one claim: every persuadee, and every persuader for its own stance, in each
   * repetition, named by the prompts they are asked with (a persuader-only variant opens as its model).
   */
  private readonly openingsPerClaim: number;
  /** Calls after a conversation's last turn: its drift probe with `--probe-drift`, else none. */
  private readonly probeCalls: number;
  private readonly replies = new Map<string, { replies: number; stops: number }>();
  private readonly tallies = new Map<string, Tally>();
  private readonly running = new Map<string, Running>();
  /** Skipped conversations of the first setting per claim: a claim with all of them skipped needs no prefix. */
  private readonly skippedFirstByClaim = new Map<number, number>();
  private claimsWithoutPrefix = 0;
  private skippedFirst = 0;
  private skipped = 0;
  private failuresAfterPrefix = 0;
  private prefixCallsAgain = 0;

  /** `storedAtStart`: conversations of the plan stored before the session began (they will be skipped). */
  constructor(
    private readonly design: Omit<TournamentDesign, 'runSeed'>,
    private readonly storedAtStart = 0,
  ) {
    this.repetitions = design.repetitions ?? 1;
    this.probeCalls = design.probeDrift ? 1 : 0;
    this.firstSetting = [...design.settings].sort((a, b) => this.turnsOf(b) - this.turnsOf(a))[0];
    const openers = new Set([...design.persuadees, ...design.persuaders].map((agent) => seedNamesOf(agent, design.variants ?? {}).persuadee));
    this.openingsPerClaim = openers.size * this.repetitions;
    this.prefixCallsPerClaim = this.openingsPerClaim + this.firstSettingPerClaim();
  }

  /** Learns from one accepted turn of a conversation: how far it got, and (a reply) whether its persuadee stopped. */
  noteTurn(conversation: PlannedConversation, turn: Pick<Turn, 'index' | 'kind' | 'score'>): void {
    const persuadee = conversation.spec.persuadeeModel;
    const running = this.running.get(conversation.id);
    if (running) running.lastTurn = turn;
    else this.running.set(conversation.id, { cell: cellOf(persuadee, conversation.setting), persuadee, turns: conversation.spec.turns, lastTurn: turn });
    if (turn.kind !== 'reply') return;
    const seen = this.replies.get(persuadee) ?? { replies: 0, stops: 0 };
    seen.replies += 1;
    if (turn.score === STOPPING_SCORE) seen.stops += 1;
    this.replies.set(persuadee, seen);
  }

  /** A conversation of the plan that is stored already: this session makes none of its calls. */
  noteSkipped(conversation: PlannedConversation): void {
    this.tallyOf(conversation).skipped += 1;
    this.skipped += 1;
    if (conversation.setting !== this.firstSetting) return;
    this.skippedFirst += 1;
    const claim = conversation.spec.claim.index;
    const skipped = (this.skippedFirstByClaim.get(claim) ?? 0) + 1;
    this.skippedFirstByClaim.set(claim, skipped);
    if (skipped === this.firstSettingPerClaim()) this.claimsWithoutPrefix += 1;
  }

  /** A conversation that finished (completed or failed): the calls it made replace those it was expected to make. */
  noteFinished(conversation: PlannedConversation, outcome: FinishedOutcome): void {
    this.running.delete(conversation.id);
    const tally = this.tallyOf(conversation);
    tally.finished += 1;
    // A failed conversation asked every turn up to the one that failed.
    const asked = outcome.status === 'completed' ? outcome.turns.length + this.probeCalls : outcome.failedTurn;
    tally.callsOfFinished += Math.max(0, asked - PREFIX_TURNS);
    if (outcome.status === 'failed' && outcome.failedTurn > PREFIX_TURNS) this.failuresAfterPrefix += 1;
    // A failed opening or first argument is not kept: the next conversation that needs it asks again.
    if (outcome.status === 'failed' && outcome.failedTurn <= PREFIX_TURNS) this.prefixCallsAgain += 1;
  }

  /** A persuadee's early-stop rate per reply: the prior, moved by the replies seen in this session. */
  earlyStopRate(persuadee: string): number {
    const seen = this.replies.get(persuadee) ?? { replies: 0, stops: 0 };
    return (PRIOR_REPLIES * DEFAULT_EARLY_STOP_RATE + seen.stops) / (PRIOR_REPLIES + seen.replies);
  }

  /** The calls this session is expected to make in all (those made so far included). */
  expectedCalls(): number {
    const failureRate = this.failureRate();
    const runningPerCell = new Map<string, number>();
    // A claim's openings are asked unless all its conversations of the first setting are stored; a first argument, unless its own is.
    let expected =
      this.design.claims.length * this.prefixCallsPerClaim - this.claimsWithoutPrefix * this.openingsPerClaim - this.skippedFirst + this.prefixCallsAgain;
    for (const running of this.running.values()) {
      runningPerCell.set(running.cell, (runningPerCell.get(running.cell) ?? 0) + 1);
      expected += this.expectedAfterPrefix(running, failureRate);
    }
    const conversationsPerCell = this.design.claims.length * this.design.persuaders.length * this.repetitions;
    const notStarted = { conversations: 0, calls: 0 };
    for (const persuadee of this.design.persuadees) {
      const rate = this.earlyStopRate(persuadee);
      for (const setting of this.design.settings) {
        const cell = cellOf(persuadee, setting);
        const tally = this.tallies.get(cell) ?? NO_TALLY;
        const conversations = conversationsPerCell - tally.skipped - tally.finished - (runningPerCell.get(cell) ?? 0);
        notStarted.conversations += conversations;
        notStarted.calls += conversations * (expectedCallsFrom(this.turnsOf(setting), PREFIX_TURNS + 1, rate, failureRate) + this.probeCalls);
        expected += tally.callsOfFinished;
      }
    }
    expected += notStarted.calls;
    // Stored conversations the plan has not reached yet: as many fewer of those not started.
    const storedAhead = Math.min(notStarted.conversations, Math.max(0, this.storedAtStart - this.skipped));
    if (storedAhead > 0) expected -= (storedAhead * notStarted.calls) / notStarted.conversations;
    return Math.max(0, expected);
  }

  /**
   * The calls the longest conversation still to finish is expected to need, one after another: the
   * run cannot end sooner than that many calls' time, however many run at once (the tail of a run).
   */
  longestRemainingCalls(): number {
    const failureRate = this.failureRate();
    let longest = 0;
    for (const running of this.running.values()) {
      longest = Math.max(longest, this.expectedAfterPrefix(running, failureRate) - Math.max(0, running.lastTurn.index - PREFIX_TURNS));
    }
    return longest;
  }

  /** The share of calls after the prefix that failed their conversation (the calls of those under way included). */
  private failureRate(): number {
    let calls = PRIOR_CALLS_FOR_FAILURES;
    for (const tally of this.tallies.values()) calls += tally.callsOfFinished;
    for (const running of this.running.values()) calls += Math.max(0, running.lastTurn.index - PREFIX_TURNS);
    return this.failuresAfterPrefix / calls;
  }

  /** The calls after the prefix of a conversation under way: those it made and those its remaining turns need. */
  private expectedAfterPrefix(running: Running, failureRate: number): number {
    const { index, kind, score } = running.lastTurn;
    const made = Math.max(0, index - PREFIX_TURNS);
    if (kind === 'final') return made + this.probeCalls;
    if (kind === 'reply' && score === STOPPING_SCORE) return made + 1 + this.probeCalls;
    const rate = this.earlyStopRate(running.persuadee);
    return made + expectedCallsFrom(running.turns, Math.max(index + 1, PREFIX_TURNS + 1), rate, failureRate) + this.probeCalls;
  }

  /** Conversations of one claim in the first setting: its pairs times repetitions (each asks a first argument). */
  private firstSettingPerClaim(): number {
    return this.design.persuaders.length * this.design.persuadees.length * this.repetitions;
  }

  private tallyOf(conversation: PlannedConversation): Tally {
    const cell = cellOf(conversation.spec.persuadeeModel, conversation.setting);
    let tally = this.tallies.get(cell);
    if (!tally) {
      tally = { ...NO_TALLY };
      this.tallies.set(cell, tally);
    }
    return tally;
  }

  private turnsOf(setting: Setting): number {
    return setting === 'single' ? SINGLE_TURN_TURNS : (this.design.multiTurns ?? MULTI_TURN_TURNS);
  }
}
