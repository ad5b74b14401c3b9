import { existsSync } from 'node:fs';
import { InputError } from '../../domain/errors/input-error.js';
import { defaultLabelsPath, loadLabelBook, readTaskFile } from '../../io/annotation-files.js';
import { holdGracefulStop } from '../../io/graceful-stop.js';
import { readTextFile } from '../../io/read-text-file.js';
import { writeFileAtomically } from '../../io/write-file-atomically.js';
import { formatNumber } from '../../report/number-format.js';
import { openStore } from '../../store/result-store.js';
import { checkAnnotatorName, parseLabelsFile } from '../../studies/annotation/annotation-labels.js';
import { buildTaskFile, turnsToLabel } from '../../studies/annotation/annotation-tasks.js';
import { chooseRecords, type SelectionOptions, selectionOf } from '../../studies/annotation/choose-conversations.js';
import { importLabels } from '../../studies/annotation/import-labels.js';
import { AnnotationServer } from '../../web/annotation-server.js';
import type { CliContext } from '../terminal.js';

export interface AnnotateExportOptions extends SelectionOptions {
  readonly store: string;
  readonly run?: string;
  readonly out?: string;
  readonly force?: boolean;
}

/** `pmiyc annotate export`: writes the task file of a run's persuadee turns, blind to every score. */
export async function annotateExportCommand(options: AnnotateExportOptions, context: CliContext): Promise<number> {
  const store = openStore(options.store, { access: 'read' });
  try {
    const run = store.findRun(options.run, 'tournament');
    const out = options.out ?? `annotation-tasks-${run.name.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
    if (existsSync(out) && !options.force) throw new InputError(`${out} exists (labels may refer to it): pass --force to replace it, or --out another file`);
    const selection = selectionOf(options, run.seed);
    const { sample, records } = chooseRecords(store, run.id, run.name, selection);
    const tasks = buildTaskFile({ run: run.name, createdAt: context.now().toISOString(), selection, records });
    await writeFileAtomically(out, `${JSON.stringify(tasks, null, 2)}\n`);
    const how =
      selection.perPair !== null
        ? `${selection.perPair} per pair`
        : `the same ${selection.claimsPerDomain!.subjective} subjective and ${selection.claimsPerDomain!.misinformation} misinformation claims for every pair`;
    context.stdout.write(
      `${[
        `Wrote ${tasks.conversations.length} conversations of run ${run.name} (${sample.pairs} pairs, ${how}) with ${turnsToLabel(tasks.conversations).length} persuadee turns to label to ${out}.`,
        ...sample.notes.map((note) => `Note: ${note}.`),
        `The file holds messages only: the models' own scores stay in ${options.store}.`,
        `Next, for each annotator: pmiyc annotate serve --tasks ${out} --annotator NAME`,
      ].join('\n')}\n`,
    );
    return 0;
  } finally {
    store.close();
  }
}

export interface AnnotateServeOptions {
  readonly tasks: string;
  readonly annotator: string;
  readonly labels?: string;
  readonly port: number;
}

/** `pmiyc annotate serve`: the annotation page on 127.0.0.1 until Ctrl-C; labels are saved as they are given. */
export async function annotateServeCommand(options: AnnotateServeOptions, context: CliContext, stop: AbortSignal): Promise<number> {
  const annotator = checkAnnotatorName(options.annotator);
  const tasks = await readTaskFile(options.tasks);
  const labelsPath = options.labels ?? defaultLabelsPath(options.tasks, annotator);
  const book = await loadLabelBook(tasks, annotator, labelsPath);
  const server = await AnnotationServer.start({ book, labelsPath, port: options.port });
  const release = holdGracefulStop();
  context.stdout.write(
    `${[
      `Annotating run ${tasks.run} as ${annotator}: ${tasks.conversations.length} conversations, ${book.turnsToLabel} turns to label, ${book.size} labelled so far.`,
      `Open ${server.url} in a browser on this machine.`,
      `Labels are saved to ${labelsPath} as you give them. Press Ctrl-C to stop; run the same command to continue later.`,
    ].join('\n')}\n`,
  );
  await new Promise<void>((resolve) => (stop.aborted ? resolve() : stop.addEventListener('abort', () => resolve(), { once: true })));
  await server.close();
  release();
  context.stdout.write(
    book.size === 0
      ? 'Stopped. No turn is labelled yet.\n'
      : `Stopped. ${book.size} of ${book.turnsToLabel} turns labelled, saved in ${labelsPath}.\nImport with: pmiyc annotate import --run ${tasks.run} ${labelsPath} [more labels files]\n`,
  );
  return 0;
}

export interface AnnotateImportOptions {
  readonly store: string;
  /** Checked against the run each labels file names; default: that run. */
  readonly run?: string;
  readonly files: readonly string[];
}

const percent = (value: number) => (Number.isFinite(value) ? `${Math.round(value * 100)}%` : 'n/a');

/** `pmiyc annotate import`: stores the labels of several annotators next to the models' own scores (all or nothing). */
export async function annotateImportCommand(options: AnnotateImportOptions, context: CliContext): Promise<number> {
  const files = options.files.map((path) => ({
    path,
    ...parseLabelsFile(readTextFile(path, `${path} does not exist: pass the labels file \`pmiyc annotate serve\` wrote`), path),
  }));
  const store = openStore(options.store, { access: 'write' });
  try {
    const { run, imports, annotators, reliability } = importLabels(store, files, {
      ...(options.run ? { run: options.run } : {}),
      importedAt: context.now().toISOString(),
    });
    const alpha = reliability.interAnnotator.alphaOrdinal.value;
    const out = (line: string) => context.stdout.write(`${line}\n`);
    out(`Imported into run ${run.name}: ${imports.map((entry) => `${entry.labels.length} labels by ${entry.annotator}`).join(', ')}.`);
    out(
      `The run now has ${reliability.labels} labels by ${annotators.length} annotator${annotators.length === 1 ? '' : 's'} (${annotators.map((entry) => entry.annotator).join(', ')}) on ${reliability.turns} persuadee turns.`,
    );
    out(
      `Labels equal to the model's own score: ${percent(reliability.exactMatch.value)}; mean absolute difference ${formatNumber(reliability.meanAbsoluteDifference.value)} points; ` +
        `agreement between annotators (Krippendorff's alpha, ordinal) ${Number.isFinite(alpha) ? formatNumber(alpha) : `n/a (${reliability.interAnnotator.sharedTurns} turns labelled by two or more)`}.`,
    );
    out(`The report of the run shows the confusion matrix and intervals: pmiyc report --run ${run.name}`);
    return 0;
  } finally {
    store.close();
  }
}
