import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Role } from '../../domain/roles.js';
import type { AnnotationRow } from '../../metrics/agreement/annotation-row.js';

export type { AnnotationRow } from '../../metrics/agreement/annotation-row.js';

/** One annotator's labels to store, each with the model's own score of the turn. */
export interface AnnotatorImport {
  readonly annotator: string;
  readonly labels: ReadonlyArray<{ conversationId: string; turnIndex: number; score: AgreementScore; modelScore: AgreementScore }>;
}

/** Where human labels of persuadee turns are kept, next to the runs they label (the SQLite store implements it). */
export interface AnnotationResults {
  hasConversation(runId: number, conversationId: string): boolean;
  /** The stored turn's role and score (the persuadee's self-report, or a persuader's own rating), or undefined. */
  modelTurn(runId: number, conversationId: string, turnIndex: number): { role: Role; score: AgreementScore } | undefined;
  /** Stores several annotators' labels at once; an annotator imported again replaces their earlier labels on the run. */
  replaceLabels(runId: number, imports: readonly AnnotatorImport[], importedAt: string): void;
  /** Labels stored per annotator for a run. */
  annotators(runId: number): Array<{ annotator: string; labels: number }>;
  /** The labels of runs with each conversation's persuadee and domain; a label in several runs counts once. */
  rows(runIds: readonly number[]): AnnotationRow[];
}
