import type { AgreementScore } from './agreement-score.js';
import type { Claim, Domain } from './claim.js';
import { claimKey } from './claim.js';
import { type Attempt, type ConversationOutcome, type ConversationSpec, type FailureReason, type Setting, settingOfTurns, type Turn } from './conversation.js';
import { hashString } from './random.js';
import type { Role } from './roles.js';

/**
 * One conversation as stored and exported (one line of `pmiyc export --format jsonl`, SPEC 4).
 * Field names are public: other tools read them.
 */
export interface ConversationRecord {
  /** The run's name; null for a conversation that was never stored (`pmiyc converse`). */
  readonly run: string | null;
  readonly conversationId: string;
  readonly domain: Domain;
  readonly setting: Setting;
  /** Planned turns t (3 single-turn, 9 the paper's multi-turn). */
  readonly turnsPlanned: number;
  readonly repetition: number;
  /** The run's seed; null for a conversation imported from another tool's results, whose file keeps no seed. */
  readonly runSeed: number | null;
  readonly claimIndex: number;
  readonly claim: string;
  readonly question: string | null;
  readonly origin: string;
  readonly license: string;
  readonly persuader: string;
  readonly persuadee: string;
  /** Simulated agents are labelled in every output. */
  readonly simulated: { readonly persuader: boolean; readonly persuadee: boolean };
  readonly status: 'completed' | 'failed';
  readonly failureReason: FailureReason | null;
  readonly failureDetail: string | null;
  readonly failedTurn: number | null;
  readonly failedRole: Role | null;
  /** Every attempt of the turn that failed (empty when completed). */
  readonly failedAttempts: readonly Attempt[];
  readonly earlyStopped: boolean | null;
  /** The opening's score, also known for a failed conversation whose opening succeeded. */
  readonly initialScore: AgreementScore | null;
  readonly finalScore: AgreementScore | null;
  readonly normalizedChange: number | null;
  readonly absoluteChange: number | null;
  /**
   * The persuader's own stance on the claim: its opening score as a persuadee on it (SPEC 1.4),
   * null when no such opening was made (e.g. a single `pmiyc converse`).
   */
  readonly persuaderStance: AgreementScore | null;
  readonly turns: readonly Turn[];
  /**
   * The persuader's answer to the drift probe (`pmiyc run --probe-drift`, docs/design/techniques.md):
   * its stance asked again after the conversation, with the conversation in context. Absent when the
   * run does not probe, and on a failed conversation (its probe is asked when it completes).
   */
  readonly driftProbe?: DriftProbe;
  /** Present only on a conversation imported from another tool's results (`pmiyc import official`). */
  readonly imported?: ImportedFrom;
}

/**
 * A persuader's stance asked again after its conversation (drift, paper Sec. 5.3). `score` is null
 * when no attempt gave a usable tagged reply; drift is `score - persuaderStance`.
 */
export interface DriftProbe {
  readonly score: AgreementScore | null;
  /** Calls made for the probe (1 + re-samples). */
  readonly attempts: number;
  /** The reply that was read, or the last unusable one ('' when no call answered). */
  readonly raw: string;
  /** The call store's hash of that reply's request (null when no call answered). */
  readonly callHash: string | null;
}

/** What scoring a conversation needs of its record: no turns (the closing table of a run reads only these). */
export type ConversationScore = Pick<
  ConversationRecord,
  'domain' | 'setting' | 'status' | 'persuader' | 'persuadee' | 'claim' | 'question' | 'normalizedChange' | 'failureReason'
>;

/**
 * A turn whose stored reply pmiyc's parser reads differently from the score the source recorded
 * (the recorded score is the one kept): `readScore` is pmiyc's reading, null when it rejects the
 * reply, with why in `detail`.
 */
export interface ReadingDifference {
  readonly turn: number;
  readonly recordedScore: AgreementScore;
  readonly readScore: AgreementScore | null;
  readonly detail: string | null;
}

/** Where an imported conversation comes from, and how pmiyc's parser reads its replies. */
export interface ImportedFrom {
  /** The source's format: the official PMIYC code's results.json. */
  readonly format: 'pmiyc-official';
  /** The file as imported (an absolute path) and the sha256 of its bytes then. */
  readonly file: string;
  readonly sha256: string;
  /** The record's position in the file's JSON array, from 0. */
  readonly recordIndex: number;
  /** The record's own claim number (`i`), when it has one. */
  readonly claimNumber: number | null;
  /** How the replies were read to find `differences` (`--label-match`). */
  readonly labelMatch: 'strict' | 'first';
  /** The disputed turns: those whose reply pmiyc's parser reads differently from the recorded score. */
  readonly differences: readonly ReadingDifference[];
  /**
   * The conversation's scores that rest on a disputed turn: `initial` when its opening is one,
   * `final` when its final decision is one (empty when neither). Its NC then rests on a score pmiyc
   * would not have read from the reply, and the report gives its figures without such conversations too.
   */
  readonly disputedScores: readonly DisputedScore[];
}

/** A conversation score that an imported turn gives: the opening's (initial) or the final decision's (final). */
export type DisputedScore = 'initial' | 'final';

/**
 * Which of an imported conversation's scores rest on a turn listed in `differences`: the opening
 * gives the initial score, the final decision the final one. Records stored before
 * `disputedScores` existed get it from this when read back.
 */
export function disputedScoresOf(
  turns: ReadonlyArray<Pick<Turn, 'index' | 'kind'>>,
  differences: ReadonlyArray<Pick<ReadingDifference, 'turn'>>,
): DisputedScore[] {
  const disputed = new Set(differences.map((difference) => difference.turn));
  const scores: DisputedScore[] = [];
  if (turns.some((turn) => turn.kind === 'opening' && disputed.has(turn.index))) scores.push('initial');
  if (turns.some((turn) => turn.kind === 'final' && disputed.has(turn.index))) scores.push('final');
  return scores;
}

/** A stable id from what the conversation is: the same spec always gets the same id. */
export function conversationId(spec: ConversationSpec): string {
  const text = [spec.persuaderModel, spec.persuadeeModel, claimKey(spec.claim), spec.turns, spec.repetition].join('\u001f');
  return `c${hashString(text).toString(36).padStart(11, '0')}`;
}

export function toConversationRecord(
  run: string | null,
  spec: ConversationSpec,
  outcome: ConversationOutcome,
  simulated: { persuader: boolean; persuadee: boolean },
  persuaderStance: AgreementScore | null = null,
  driftProbe?: DriftProbe,
): ConversationRecord {
  if (outcome.status === 'partial') throw new RangeError('a partial conversation is not a record');
  const failed = outcome.status === 'failed' ? outcome : undefined;
  const done = outcome.status === 'completed' ? outcome : undefined;
  return {
    run,
    conversationId: conversationId(spec),
    domain: spec.claim.domain,
    setting: settingOfTurns(spec.turns),
    turnsPlanned: spec.turns,
    repetition: spec.repetition,
    runSeed: spec.runSeed,
    claimIndex: spec.claim.index,
    claim: spec.claim.claim,
    question: spec.claim.question ?? null,
    origin: spec.claim.origin,
    license: spec.claim.license,
    persuader: spec.persuaderModel,
    persuadee: spec.persuadeeModel,
    simulated,
    status: outcome.status,
    failureReason: failed?.reason ?? null,
    failureDetail: failed?.detail ?? null,
    failedTurn: failed?.failedTurn ?? null,
    failedRole: failed?.failedRole ?? null,
    failedAttempts: failed?.failedAttempts ?? [],
    earlyStopped: done?.earlyStopped ?? null,
    initialScore: outcome.turns[0]?.score ?? null,
    finalScore: done?.finalScore ?? null,
    normalizedChange: done?.normalizedChange ?? null,
    absoluteChange: done?.absoluteChange ?? null,
    persuaderStance,
    turns: outcome.turns,
    ...(driftProbe && outcome.status === 'completed' ? { driftProbe } : {}),
  };
}

/** The claim a record argued, as the prompts need it (and as a run that continues it plans it). */
export function claimOfRecord(record: ConversationRecord): Claim {
  return {
    index: record.claimIndex,
    domain: record.domain,
    claim: record.claim,
    ...(record.question === null ? {} : { question: record.question }),
    origin: record.origin,
    license: record.license,
  };
}
