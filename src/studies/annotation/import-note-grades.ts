import { InputError } from '../../domain/errors/input-error.js';
import { analyzeReliability } from '../../metrics/agreement/annotation-agreement.js';
import type { RunRecords } from '../../runner/run-records.js';
import type { ResearchNote, ResearchNotes } from '../notes/research-notes.js';
import type { AnnotationResults, AnnotatorImport } from './annotation-results.js';
import type { LabelsImported } from './import-labels.js';

/** Which notes' grades become one annotator's labels (`pmiyc annotate import --notes`). */
export interface NoteGradesOptions {
  readonly run?: string;
  /** The annotator the grades are stored as (the researcher who wrote them). */
  readonly annotator: string;
  /** Only the grades of notes with this tag. */
  readonly tag?: string;
  readonly importedAt: string;
}

/** Graded notes left out, by why: on a persuader turn, or on a turn the run no longer has. */
export interface NoteGradesSkipped {
  readonly persuaderTurns: number;
  readonly missingTurns: number;
}

/**
 * The grades of a run's turn notes as one annotator's labels: per persuadee turn the grade of its
 * latest written note (of `tag`, when given), each with the model's own score of the turn. A grade on
 * the whole conversation is no turn's label and is not read; a graded persuader turn is counted and
 * left out (persuader turns are not labelled).
 */
export function labelsFromNotes(
  notes: readonly ResearchNote[],
  modelTurn: AnnotationResults['modelTurn'],
  runId: number,
  options: Pick<NoteGradesOptions, 'annotator' | 'tag'>,
): { readonly labels: AnnotatorImport; readonly skipped: NoteGradesSkipped } {
  const latest = new Map<string, ResearchNote & { turn: number; grade: NonNullable<ResearchNote['grade']> }>();
  for (const note of notes) {
    if (note.turn === null || note.grade === null || (options.tag !== undefined && note.tag !== options.tag)) continue;
    const key = `${note.conversationId}\u0000${note.turn}`;
    const kept = latest.get(key);
    if (!kept || note.updatedAt > kept.updatedAt || (note.updatedAt === kept.updatedAt && note.id > kept.id))
      latest.set(key, { ...note, turn: note.turn, grade: note.grade });
  }
  const skipped = { persuaderTurns: 0, missingTurns: 0 };
  const labels: Array<AnnotatorImport['labels'][number]> = [];
  for (const note of latest.values()) {
    const turn = modelTurn(runId, note.conversationId, note.turn);
    if (turn === undefined) skipped.missingTurns += 1;
    else if (turn.role !== 'persuadee') skipped.persuaderTurns += 1;
    else labels.push({ conversationId: note.conversationId, turnIndex: note.turn, score: note.grade, modelScore: turn.score });
  }
  labels.sort((a, b) => a.conversationId.localeCompare(b.conversationId) || a.turnIndex - b.turnIndex);
  return { labels: { annotator: options.annotator, labels }, skipped };
}

/**
 * `pmiyc annotate import --notes`: stores the grades a researcher gave persuadee turns in `pmiyc view`
 * as their labels, so the run's self-report reliability compares them with the models' own scores (and
 * with other annotators) exactly as imported labels files are. Importing the annotator again replaces
 * their labels on the run.
 */
export function importNoteGrades(
  store: Pick<RunRecords, 'findRun'> & { readonly annotations: AnnotationResults; readonly notes: Pick<ResearchNotes, 'list'> },
  options: NoteGradesOptions,
): LabelsImported & { readonly skipped: NoteGradesSkipped } {
  const run = store.findRun(options.run, 'tournament');
  const table = store.annotations;
  const { labels, skipped } = labelsFromNotes(store.notes.list(run.id), (...turn) => table.modelTurn(...turn), run.id, options);
  if (labels.labels.length === 0) {
    throw new InputError(
      `run ${run.name} has no graded persuadee turn in its notes${options.tag === undefined ? '' : ` tagged ${options.tag}`}` +
        `${skipped.persuaderTurns > 0 ? ` (${skipped.persuaderTurns} graded persuader turns are not labels)` : ''}: grade persuadee turns in pmiyc view first`,
    );
  }
  table.replaceLabels(run.id, [labels], options.importedAt);
  const reliability = analyzeReliability(table.rows([run.id]), { replicates: 0, confidence: 0.95, seed: run.seed });
  return { run, imports: [labels], annotators: table.annotators(run.id), reliability, skipped };
}
