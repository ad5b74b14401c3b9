import {
  type AnnotationLabelsOptions,
  type AnnotationServeOptions,
  type AnnotationTasksOptions,
  importAnnotationLabels,
  serveAnnotation,
  writeAnnotationTasks,
} from '../../kit/kinds/annotation-kind.js';
import type { CliContext } from '../terminal.js';

export type AnnotateExportOptions = AnnotationTasksOptions;
export type AnnotateServeOptions = AnnotationServeOptions;
export type AnnotateImportOptions = AnnotationLabelsOptions;

/** `pmiyc annotate export`: writes the task file of a run's persuadee turns, blind to every score. */
export async function annotateExportCommand(options: AnnotateExportOptions, context: CliContext): Promise<number> {
  context.stdout.write(await writeAnnotationTasks(options, context));
  return 0;
}

/** `pmiyc annotate serve`: the annotation page on 127.0.0.1 until Ctrl-C; labels are saved as they are given. */
export async function annotateServeCommand(options: AnnotateServeOptions, context: CliContext, stop: AbortSignal): Promise<number> {
  await serveAnnotation(options, context, stop);
  return 0;
}

/** `pmiyc annotate import`: stores the labels of several annotators next to the models' own scores (all or nothing). */
export async function annotateImportCommand(options: AnnotateImportOptions, context: CliContext): Promise<number> {
  context.stdout.write(await importAnnotationLabels(options, context));
  return 0;
}
