import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { analyzeReliability, type ReliabilityAnalysis } from '../../metrics/agreement/annotation-agreement.js';
import type { RunInfo, RunRecords } from '../../runner/run-records.js';
import type { LabelLine, LabelsHeader } from './annotation-labels.js';
import type { AnnotationResults, AnnotatorImport } from './annotation-results.js';

/** A labels file as `pmiyc annotate serve` wrote it, read and parsed. */
export interface LabelsFile {
  readonly path: string;
  readonly header: LabelsHeader;
  readonly labels: readonly LabelLine[];
}

/** Each annotator once: an annotator's file holds all their labels. */
function checkAnnotators(files: readonly LabelsFile[]): void {
  if (files.length === 0)
    throw new InputError(
      'name the labels files to import, e.g. pmiyc annotate import tasks.alice.labels.jsonl tasks.bob.labels.jsonl (or take the grades written in pmiyc view: --notes --annotator NAME)',
    );
  const byAnnotator = new Map<string, string>();
  for (const file of files) {
    const other = byAnnotator.get(file.header.annotator);
    if (other !== undefined)
      throw new InputError(
        `${other} and ${file.path} are both labels of ${file.header.annotator}: import one of them (an annotator's file holds all their labels)`,
      );
    byAnnotator.set(file.header.annotator, file.path);
  }
}

/** The run the files were made on; every file must name the same one, and --run (when given) must agree. */
function runOf(store: Pick<RunRecords, 'findRun'>, files: readonly LabelsFile[], requested: string | undefined): RunInfo {
  const name = requested ?? files[0]!.header.run;
  for (const file of files) {
    if (file.header.run !== name)
      throw new DatasetError(
        { file: file.path, line: 1 },
        `these labels were made on run ${file.header.run}, not ${name}: import each run's labels with its own --run`,
      );
  }
  return store.findRun(name);
}

/** Checks each label against the run's stored turns and attaches the model's own score. */
function validateLabels(table: AnnotationResults, run: RunInfo, file: LabelsFile): AnnotatorImport {
  const labels = file.labels.map((label) => {
    const where = { file: file.path, line: label.line };
    const turn = table.modelTurn(run.id, label.conversationId, label.turnIndex);
    if (turn === undefined) {
      if (!table.hasConversation(run.id, label.conversationId))
        throw new DatasetError(where, `run ${run.name} has no conversation ${label.conversationId}: were these labels made on another run or store?`);
      throw new DatasetError(where, `conversation ${label.conversationId} of run ${run.name} has no turn ${label.turnIndex}: remove the line`);
    }
    if (turn.role !== 'persuadee')
      throw new DatasetError(where, `turn ${label.turnIndex} of conversation ${label.conversationId} is the persuader's: only persuadee turns are labelled`);
    return { conversationId: label.conversationId, turnIndex: label.turnIndex, score: label.score, modelScore: turn.score };
  });
  return { annotator: file.header.annotator, labels };
}

/** What an import did, for the user. */
export interface LabelsImported {
  readonly run: RunInfo;
  readonly imports: readonly AnnotatorImport[];
  /** Labels stored per annotator for the run now. */
  readonly annotators: Array<{ annotator: string; labels: number }>;
  readonly reliability: ReliabilityAnalysis;
}

/**
 * Imports labels files into their run, all or nothing: every label is checked against the run's
 * stored turns (and given the model's own score) before anything is written.
 */
export function importLabels(
  store: Pick<RunRecords, 'findRun'> & { readonly annotations: AnnotationResults },
  files: readonly LabelsFile[],
  options: { readonly run?: string; readonly importedAt: string },
): LabelsImported {
  checkAnnotators(files);
  const run = runOf(store, files, options.run);
  const table = store.annotations;
  const imports = files.map((file) => validateLabels(table, run, file));
  table.replaceLabels(run.id, imports, options.importedAt);
  const reliability = analyzeReliability(table.rows([run.id]), { replicates: 0, confidence: 0.95, seed: run.seed });
  return { run, imports, annotators: table.annotators(run.id), reliability };
}
