import type { SampleResult, TaskSelection } from '../../studies/annotation/annotation-sample.js';
import { type AnnotationTaskFile, turnsToLabel } from '../../studies/annotation/annotation-tasks.js';
import type { LabelsImported } from '../../studies/annotation/import-labels.js';
import { formatNumber } from '../number-format.js';

/** What `pmiyc annotate export` wrote to `out`: how many conversations and turns, chosen how, and the next step (the scores stay in `storePath`). */
export function annotationTasksText(tasks: AnnotationTaskFile, out: string, storePath: string, selection: TaskSelection, sample: SampleResult): string {
  const how =
    selection.perPair !== null
      ? `${selection.perPair} per pair`
      : `the same ${selection.claimsPerDomain!.subjective} subjective and ${selection.claimsPerDomain!.misinformation} misinformation claims for every pair`;
  return [
    `Wrote ${tasks.conversations.length} conversations of run ${tasks.run} (${sample.pairs} pairs, ${how}) with ${turnsToLabel(tasks.conversations).length} persuadee turns to label to ${out}.`,
    ...sample.notes.map((note) => `Note: ${note}.`),
    `The file holds messages only: the models' own scores stay in ${storePath}.`,
    `Next, for each annotator: pmiyc annotate serve --tasks ${out} --annotator NAME`,
  ].join('\n');
}

/** What an annotator's session of `pmiyc annotate serve` is, where to open it, and how labels are kept. */
export interface AnnotatorSession {
  readonly run: string;
  readonly annotator: string;
  readonly conversations: number;
  readonly turnsToLabel: number;
  readonly labelled: number;
  readonly url: string;
  readonly labelsPath: string;
}

export function annotatingText(session: AnnotatorSession): string {
  return [
    `Annotating run ${session.run} as ${session.annotator}: ${session.conversations} conversations, ${session.turnsToLabel} turns to label, ${session.labelled} labelled so far.`,
    `Open ${session.url} in a browser on this machine.`,
    `Labels are saved to ${session.labelsPath} as you give them. Press Ctrl-C to stop; run the same command to continue later.`,
  ].join('\n');
}

/** What the annotator's session leaves: the labels so far and how to import them. */
export function annotationStoppedText(session: Omit<AnnotatorSession, 'url' | 'conversations' | 'annotator'>): string {
  return session.labelled === 0
    ? 'Stopped. No turn is labelled yet.'
    : `Stopped. ${session.labelled} of ${session.turnsToLabel} turns labelled, saved in ${session.labelsPath}.\nImport with: pmiyc annotate import --run ${session.run} ${session.labelsPath} [more labels files]`;
}

const percent = (value: number) => (Number.isFinite(value) ? `${Math.round(value * 100)}%` : 'n/a');

/** What `pmiyc annotate import` stored, and how the labels compare with the models' own scores. */
export function labelsImportedText({ run, imports, annotators, reliability }: LabelsImported): string {
  const alpha = reliability.interAnnotator.alphaOrdinal.value;
  return [
    `Imported into run ${run.name}: ${imports.map((entry) => `${entry.labels.length} labels by ${entry.annotator}`).join(', ')}.`,
    `The run now has ${reliability.labels} labels by ${annotators.length} annotator${annotators.length === 1 ? '' : 's'} (${annotators.map((entry) => entry.annotator).join(', ')}) on ${reliability.turns} persuadee turns.`,
    `Labels equal to the model's own score: ${percent(reliability.exactMatch.value)}; mean absolute difference ${formatNumber(reliability.meanAbsoluteDifference.value)} points; ` +
      `agreement between annotators (Krippendorff's alpha, ordinal) ${Number.isFinite(alpha) ? formatNumber(alpha) : `n/a (${reliability.interAnnotator.sharedTurns} turns labelled by two or more)`}.`,
    `The report of the run shows the confusion matrix and intervals: pmiyc report --run ${run.name}`,
  ].join('\n');
}
