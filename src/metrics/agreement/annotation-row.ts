import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Domain } from '../../domain/claim.js';

/** One human label of one persuadee turn, next to the score the persuadee gave itself. */
export interface AnnotationRow {
  readonly conversationId: string;
  /** The turn's 1-based index in its conversation. */
  readonly turnIndex: number;
  readonly annotator: string;
  /** The annotator's label. */
  readonly score: AgreementScore;
  /** The persuadee's self-reported score on that turn. */
  readonly modelScore: AgreementScore;
  readonly persuadee: string;
  readonly domain: Domain;
}
