import { InputError } from '../domain/input-error.js';
import { readTextFile } from '../io/read-text-file.js';
import { analyzeReliability } from '../metrics/annotation-agreement.js';
import { formatNumber } from '../report/number-format.js';
import { ResultStore, type RunInfo } from '../store/result-store.js';
import { type LabelLine, type LabelsHeader, parseLabelsFile } from '../studies/annotation/annotation-labels.js';
import type { AnnotationResults, AnnotatorImport } from '../studies/annotation/annotation-results.js';

interface LabelsFile {
  readonly path: string;
  readonly header: LabelsHeader;
  readonly labels: readonly LabelLine[];
}

async function readLabelFiles(paths: readonly string[]): Promise<LabelsFile[]> {
  if (paths.length === 0) throw new InputError('name the labels files to import, e.g. pmiyc annotate import tasks.alice.labels.jsonl tasks.bob.labels.jsonl');
  const files: LabelsFile[] = [];
  for (const path of paths)
    files.push({ path, ...parseLabelsFile(readTextFile(path, `${path} does not exist: pass the labels file \`pmiyc annotate serve\` wrote`), path) });
  const byAnnotator = new Map<string, string>();
  for (const file of files) {
    const other = byAnnotator.get(file.header.annotator);
    if (other !== undefined)
      throw new InputError(
        `${other} and ${file.path} are both labels of ${file.header.annotator}: import one of them (an annotator's file holds all their labels)`,
      );
    byAnnotator.set(file.header.annotator, file.path);
  }
  return files;
}

/** The run the files were made on; every file must name the same one, and --run (when given) must agree. */
function runOf(store: ResultStore, files: readonly LabelsFile[], requested: string | undefined): RunInfo {
  const name = requested ?? files[0]!.header.run;
  for (const file of files) {
    if (file.header.run !== name)
      throw new InputError(`${file.path}:1: these labels were made on run ${file.header.run}, not ${name}: import each run's labels with its own --run`);
  }
  return store.findRun(name);
}

/** Checks each label against the run's stored turns and attaches the model's own score. */
function validateLabels(table: AnnotationResults, run: RunInfo, file: LabelsFile): AnnotatorImport {
  const labels = file.labels.map((label) => {
    const where = `${file.path}:${label.line}`;
    const turn = table.modelTurn(run.id, label.conversationId, label.turnIndex);
    if (turn === undefined) {
      if (!table.hasConversation(run.id, label.conversationId))
        throw new InputError(`${where}: run ${run.name} has no conversation ${label.conversationId}: were these labels made on another run or store?`);
      throw new InputError(`${where}: conversation ${label.conversationId} of run ${run.name} has no turn ${label.turnIndex}: remove the line`);
    }
    if (turn.role !== 'persuadee')
      throw new InputError(`${where}: turn ${label.turnIndex} of conversation ${label.conversationId} is the persuader's: only persuadee turns are labelled`);
    return { conversationId: label.conversationId, turnIndex: label.turnIndex, score: label.score, modelScore: turn.score };
  });
  return { annotator: file.header.annotator, labels };
}

function percent(value: number): string {
  return Number.isFinite(value) ? `${Math.round(value * 100)}%` : 'n/a';
}

/**
 * Imports labels files into the run's `annotations` table, all or nothing: every file is read and
 * every label checked before anything is written. Returns the lines to print.
 */
export async function importLabelFiles(options: { store: string; run?: string; files: readonly string[] }, importedAt: string): Promise<string[]> {
  const files = await readLabelFiles(options.files);
  const store = ResultStore.openExisting(options.store);
  try {
    const run = runOf(store, files, options.run);
    const table = store.annotations;
    const imports = files.map((file) => validateLabels(table, run, file));
    table.replaceLabels(run.id, imports, importedAt);
    const stored = table.annotators(run.id);
    const result = analyzeReliability(table.rows([run.id]), { replicates: 0, confidence: 0.95, seed: run.seed });
    const alpha = result.interAnnotator.alphaOrdinal.value;
    return [
      `Imported into run ${run.name}: ${imports.map((entry) => `${entry.labels.length} labels by ${entry.annotator}`).join(', ')}.`,
      `The run now has ${result.labels} labels by ${stored.length} annotator${stored.length === 1 ? '' : 's'} (${stored.map((entry) => entry.annotator).join(', ')}) on ${result.turns} persuadee turns.`,
      `Labels equal to the model's own score: ${percent(result.exactMatch.value)}; mean absolute difference ${formatNumber(result.meanAbsoluteDifference.value)} points; ` +
        `agreement between annotators (Krippendorff's alpha, ordinal) ${Number.isFinite(alpha) ? formatNumber(alpha) : `n/a (${result.interAnnotator.sharedTurns} turns labelled by two or more)`}.`,
      `The report of the run shows the confusion matrix and intervals: pmiyc report --run ${run.name}`,
    ];
  } finally {
    store.close();
  }
}
