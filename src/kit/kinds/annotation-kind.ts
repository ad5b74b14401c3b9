import { existsSync } from 'node:fs';
import { InputError } from '../../domain/errors/input-error.js';
import { defaultLabelsPath, defaultTasksPath, loadLabelBook, readTaskFile } from '../../io/prepare/annotation-files.js';
import { holdGracefulStop, untilStopped } from '../../io/process/graceful-stop.js';
import { readTextFile } from '../../io/read-text-file.js';
import { writeFileAtomically } from '../../io/write-file-atomically.js';
import { annotatingText, annotationStoppedText, annotationTasksText, labelsImportedText } from '../../report/studies/annotation-text.js';
import { checkAnnotatorName, parseLabelsFile } from '../../studies/annotation/annotation-labels.js';
import { buildTaskFile } from '../../studies/annotation/annotation-tasks.js';
import { chooseRecords, type SelectionOptions, selectionOf } from '../../studies/annotation/choose-conversations.js';
import { importLabels } from '../../studies/annotation/import-labels.js';
import { importNoteGrades } from '../../studies/annotation/import-note-grades.js';
import { AnnotationServer } from '../../web/annotation/annotation-server.js';
import type { CommandContext } from '../command-context.js';
import { withStore } from '../study-command.js';

/**
 * The annotation study (`pmiyc annotate`): a run's persuadee turns written as tasks, blind to every
 * score, and the labels people gave stored next to the models' own. Each returns what is printed.
 */

export interface AnnotationTasksOptions extends SelectionOptions {
  readonly store: string;
  readonly run?: string;
  readonly out?: string;
  readonly force?: boolean;
}

/** `pmiyc annotate export`: the task file of a run's persuadee turns, written; returns what to print. */
export function writeAnnotationTasks(options: AnnotationTasksOptions, context: Pick<CommandContext, 'now'>): Promise<string> {
  return withStore(options.store, 'read', undefined, async (store) => {
    const run = store.findRun(options.run, 'tournament');
    const out = options.out ?? defaultTasksPath(run.name);
    if (existsSync(out) && !options.force) throw new InputError(`${out} exists (labels may refer to it): pass --force to replace it, or --out another file`);
    const selection = selectionOf(options, run.seed);
    const { sample, records } = chooseRecords(store, run.id, run.name, selection);
    const tasks = buildTaskFile({ run: run.name, createdAt: context.now().toISOString(), selection, records });
    await writeFileAtomically(out, `${JSON.stringify(tasks, null, 2)}\n`);
    return `${annotationTasksText(tasks, out, options.store, selection, sample)}\n`;
  });
}

export interface AnnotationLabelsOptions {
  readonly store: string;
  /** Checked against the run each labels file names; default: that run. */
  readonly run?: string;
  readonly files: readonly string[];
  /** --notes: the grades of persuadee turns written in pmiyc view, as --annotator's labels (no files). */
  readonly notes?: boolean;
  readonly annotator?: string;
  /** With --notes: only the grades of notes with this tag. */
  readonly tag?: string;
}

/** `pmiyc annotate import --notes --annotator NAME`: a researcher's grades of persuadee turns stored as their labels. */
function importGradesAsLabels(options: AnnotationLabelsOptions, context: Pick<CommandContext, 'now'>): Promise<string> {
  if (options.files.length > 0) throw new InputError('--notes reads the labels from the store: give no labels files with it (import them separately)');
  if (options.annotator === undefined)
    throw new InputError('--notes needs --annotator NAME: who graded the turns (their labels replace any earlier ones of that name)');
  const annotator = checkAnnotatorName(options.annotator);
  return withStore(options.store, 'write', undefined, (store) => {
    const imported = importNoteGrades(store, {
      ...(options.run ? { run: options.run } : {}),
      annotator,
      ...(options.tag ? { tag: options.tag } : {}),
      importedAt: context.now().toISOString(),
    });
    const { persuaderTurns, missingTurns } = imported.skipped;
    const left = [
      persuaderTurns > 0 ? `${persuaderTurns} graded persuader turns (only persuadee turns are labels)` : '',
      missingTurns > 0 ? `${missingTurns} graded turns the run no longer has` : '',
    ].filter(Boolean);
    return `${labelsImportedText(imported)}\n${left.length > 0 ? `Left out: ${left.join('; ')}.\n` : ''}`;
  });
}

/** `pmiyc annotate import`: the labels of several annotators stored next to the models' own scores (all or nothing); returns what to print. */
export async function importAnnotationLabels(options: AnnotationLabelsOptions, context: Pick<CommandContext, 'now'>): Promise<string> {
  if (options.notes) return importGradesAsLabels(options, context);
  if (options.annotator !== undefined || options.tag !== undefined)
    throw new InputError('--annotator and --tag go with --notes (a labels file names its annotator)');
  const files: (ReturnType<typeof parseLabelsFile> & { readonly path: string })[] = [];
  for (const path of options.files)
    files.push({ path, ...parseLabelsFile(await readTextFile(path, `${path} does not exist: pass the labels file \`pmiyc annotate serve\` wrote`), path) });
  return withStore(options.store, 'write', undefined, (store) => {
    const imported = importLabels(store, files, { ...(options.run ? { run: options.run } : {}), importedAt: context.now().toISOString() });
    return `${labelsImportedText(imported)}\n`;
  });
}

export interface AnnotationServeOptions {
  readonly tasks: string;
  readonly annotator: string;
  readonly labels?: string;
  readonly port: number;
}

/** `pmiyc annotate serve`: the annotation page on 127.0.0.1 until `stop`; labels are saved as they are given. */
export async function serveAnnotation(options: AnnotationServeOptions, context: Pick<CommandContext, 'stdout'>, stop: AbortSignal): Promise<void> {
  const annotator = checkAnnotatorName(options.annotator);
  const tasks = await readTaskFile(options.tasks);
  const labelsPath = options.labels ?? defaultLabelsPath(options.tasks, annotator);
  const book = await loadLabelBook(tasks, annotator, labelsPath);
  const server = await AnnotationServer.start({ book, labelsPath, port: options.port });
  const release = holdGracefulStop();
  const session = { run: tasks.run, annotator, conversations: tasks.conversations.length, turnsToLabel: book.turnsToLabel, url: server.url, labelsPath };
  context.stdout.write(`${annotatingText({ ...session, labelled: book.size })}\n`);
  await untilStopped(stop);
  await server.close();
  release();
  context.stdout.write(`${annotationStoppedText({ ...session, labelled: book.size })}\n`);
}
