import type { LabelUpdate, TurnLabel } from '../../studies/annotation/annotation-labels.js';
import type { AnnotationConversation } from '../../studies/annotation/annotation-tasks.js';

/*
 * The bodies of the annotation server's API, as types only: the server builds them
 * (annotation-server.ts) and the page reads and sends them (browser/), so both are checked against
 * one definition. Imports only modules the page's program (no Node types) can read.
 */

/** `GET /api/session`: the task set the page labels, blind to every score. */
export interface SessionAnswer {
  readonly run: string;
  readonly taskSetId: string;
  readonly annotator: string;
  readonly annotationGuide: string;
  readonly conversations: readonly AnnotationConversation[];
}

/** `GET /api/labels`: the labels the server has saved, in task order. */
export interface LabelsAnswer {
  readonly labels: readonly TurnLabel[];
}

/** What the page posts to `/api/labels`: a label, or a clearing (a null score). */
export type LabelPost = LabelUpdate;

/** The answer to a saved label: how many turns are labelled, of how many. */
export interface LabelSaved {
  readonly labelled: number;
  readonly of: number;
}
