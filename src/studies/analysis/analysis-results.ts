import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Role } from '../../domain/roles.js';
import type { TurnLabels } from '../../domain/turn-labels.js';

/**
 * One judge's reading of one turn of an analysed run, as an analysis study stores it (issue 29,
 * docs/design/techniques.md). `labels` is null when no attempt gave a usable answer: the turn's
 * analysis failed with `problem`, and the turn counts as not analysed.
 */
export interface StoredTurnLabels {
  readonly conversationId: string;
  /** The turn's 1-based index in its conversation (as `turns.turn_index` and `show` number it). */
  readonly turn: number;
  /** The judge model's name as the study names it. */
  readonly judge: string;
  readonly role: Role;
  readonly labels: TurnLabels | null;
  /** Why the last attempt was unusable (null when labels were read). */
  readonly problem: string | null;
  /** Calls made for this turn's labels (1 + re-samples). */
  readonly attempts: number;
  /** The answer that was read, or the last unusable one. */
  readonly raw: string;
  /** The call store's hash of that answer's request (null when no call answered). */
  readonly callHash: string | null;
}

/** Which turn and which judge: the key within an analysis study. */
export type TurnLabelsKey = Pick<StoredTurnLabels, 'conversationId' | 'turn' | 'judge'>;

/**
 * A persuader's stance asked again after a conversation, with the conversation in context (drift,
 * paper Sec. 5.3): by `pmiyc analyze --probe-drift` for a finished run. (`pmiyc run --probe-drift`
 * keeps it in the conversation's own record instead.) Null score: no usable answer.
 */
export interface StoredDriftProbe {
  readonly conversationId: string;
  /** The persuader model asked (the conversation's persuader). */
  readonly model: string;
  readonly score: AgreementScore | null;
  readonly attempts: number;
  readonly raw: string;
  readonly callHash: string | null;
}

/**
 * Where analysis studies keep what their judges said (the SQLite store implements it). An analysis
 * study is a run of its own (`config.command = 'analyze'`) linked to the tournament run it reads
 * (`config.tournamentRun`); its rows are keyed by the study's run id, so two studies of the same
 * run (another judge, another taxonomy) never mix, and the tournament's own records stay untouched.
 */
export interface AnalysisResults {
  /** Stores one turn's labels, committed at once. */
  saveLabels(studyRunId: number, labels: StoredTurnLabels): void;
  /** Stores the labels of every turn of a conversation read whole by one judge, in one transaction: never half of them. */
  saveConversationLabels(studyRunId: number, labels: readonly StoredTurnLabels[]): void;
  /** Whether this turn has this judge's labels stored already (a resumed study skips it). */
  hasLabels(studyRunId: number, key: TurnLabelsKey): boolean;
  countLabels(studyRunId: number): number;
  /** Label sets a study holds with labels (not those stored without: no attempt gave a usable answer). */
  countUsableLabels(studyRunId: number): number;
  /** A study's labels, by conversation, turn and judge, streamed. */
  labels(studyRunId: number): Iterable<StoredTurnLabels>;
  /** The labels of one conversation's turns (every judge), by turn and judge. */
  labelsOf(studyRunId: number, conversationId: string): StoredTurnLabels[];
  /** Stores one drift probe, committed at once. */
  saveProbe(studyRunId: number, probe: StoredDriftProbe): void;
  hasProbe(studyRunId: number, conversationId: string): boolean;
  /** A study's drift probes, by conversation, streamed. */
  probes(studyRunId: number): Iterable<StoredDriftProbe>;
  /** Names of the analysis studies, oldest first; only those of `tournamentRun` when given. */
  studyNames(tournamentRun?: string): string[];
}
