import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { LabelBook, parseLabelsFile } from '../../studies/annotation/annotation-labels.js';
import { type AnnotationTaskFile, parseTaskFile } from '../../studies/annotation/annotation-tasks.js';
import { readTextFile } from '../read-text-file.js';

/** Reads and checks a task file written by `pmiyc annotate export`. */
export async function readTaskFile(path: string): Promise<AnnotationTaskFile> {
  return parseTaskFile(await readTextFile(path, `${path} does not exist: pass the task file \`pmiyc annotate export\` wrote`), path);
}

/** The task file `pmiyc annotate export` writes unless --out says: `annotation-tasks-<run>.json`, the name made safe. */
export function defaultTasksPath(runName: string): string {
  return `annotation-tasks-${runName.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
}

/** `tasks.json` + alice -> `tasks.alice.labels.jsonl`, beside the task file. */
export function defaultLabelsPath(tasksPath: string, annotator: string): string {
  const stem = basename(tasksPath).replace(/\.json$/i, '');
  return join(dirname(tasksPath), `${stem}.${annotator}.labels.jsonl`);
}

/**
 * The annotator's label book, with the labels already saved in `labelsPath` when it exists (a
 * session continued). A file of another annotator or task set is refused rather than mixed in.
 */
export async function loadLabelBook(tasks: AnnotationTaskFile, annotator: string, labelsPath: string): Promise<LabelBook> {
  const book = new LabelBook(tasks, annotator);
  if (!existsSync(labelsPath)) return book;
  const { header, labels } = parseLabelsFile(await readTextFile(labelsPath, `${labelsPath} does not exist: pass the labels file`), labelsPath);
  if (header.annotator !== annotator)
    throw new DatasetError(
      { file: labelsPath },
      `holds the labels of ${header.annotator}, not ${annotator}: pass --annotator ${header.annotator}, or another --labels file`,
      { fileIsSubject: true },
    );
  if (header.taskSetId !== tasks.taskSetId)
    throw new DatasetError(
      { file: labelsPath },
      `belongs to another task set (${header.taskSetId}, not ${tasks.taskSetId}): pass --labels with a new file name`,
      { fileIsSubject: true },
    );
  for (const label of labels) {
    if (!book.has(label.conversationId, label.turnIndex))
      throw new DatasetError(
        { file: labelsPath, line: label.line },
        `conversation ${label.conversationId} turn ${label.turnIndex} is not a turn of the task file: remove the line`,
      );
    book.apply(label);
  }
  return book;
}
