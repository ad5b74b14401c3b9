import { z } from 'zod';
import { type AgreementScore, isAgreementScore } from '../../domain/agreement-score.js';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { type AnnotationTaskFile, turnLabelKey, turnsToLabel } from './annotation-tasks.js';

const LABELS_FORMAT = 'pmiyc-annotation-labels';

/** The first line of a labels file: whose labels, on which run and task set. */
export interface LabelsHeader {
  readonly format: typeof LABELS_FORMAT;
  readonly version: 1;
  readonly run: string;
  readonly taskSetId: string;
  readonly annotator: string;
}

/** One label: the annotator's score of one persuadee turn, and when it was given (ISO time, from the browser). */
export interface TurnLabel {
  readonly conversationId: string;
  readonly turnIndex: number;
  readonly score: AgreementScore;
  readonly labelledAt: string;
}

/** A label as the page sends it: a null score clears the label. */
export interface LabelUpdate {
  readonly conversationId: string;
  readonly turnIndex: number;
  readonly score: AgreementScore | null;
  readonly labelledAt: string;
}

/** Names that are safe in a file name and unambiguous in a report: letters, digits, dot, dash, underscore. */
const ANNOTATOR_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,63}$/u;

/** Checks an annotator's name, or says what a good one looks like. */
export function checkAnnotatorName(name: string): string {
  if (!ANNOTATOR_NAME.test(name)) {
    throw new InputError(
      `annotator name "${name}" is not usable: use 1-64 letters, digits, ".", "-" or "_" (starting with a letter or digit), e.g. --annotator alice`,
    );
  }
  return name;
}

export const labelUpdateSchema = z.object({
  conversationId: z.string().min(1).max(200),
  turnIndex: z.number().int().min(1),
  score: z.number().int().min(1).max(5).nullable(),
  labelledAt: z
    .string()
    .max(40)
    .refine((text) => Number.isFinite(Date.parse(text)), 'not a time'),
});

const headerSchema = z.object({
  format: z.literal(LABELS_FORMAT),
  version: z.literal(1),
  run: z.string().min(1),
  taskSetId: z.string(),
  annotator: z.string().refine((name) => ANNOTATOR_NAME.test(name), 'not a usable annotator name'),
});

const labelSchema = labelUpdateSchema.extend({ score: z.number().int().min(1).max(5) });

/**
 * One annotator's labels on one task set, as the server keeps them: only turns the task file
 * marks to label are accepted; the latest `labelledAt` wins, so a page re-sending an older label
 * (after a reload or from a second tab) never overwrites a newer one.
 */
export class LabelBook {
  private readonly labels = new Map<string, TurnLabel>();
  private readonly order: string[];
  private readonly known: Set<string>;

  constructor(
    readonly tasks: AnnotationTaskFile,
    readonly annotator: string,
  ) {
    this.order = turnsToLabel(tasks.conversations);
    this.known = new Set(this.order);
  }

  get header(): LabelsHeader {
    return { format: LABELS_FORMAT, version: 1, run: this.tasks.run, taskSetId: this.tasks.taskSetId, annotator: this.annotator };
  }

  get size(): number {
    return this.labels.size;
  }

  get turnsToLabel(): number {
    return this.order.length;
  }

  /** Whether the task set has this turn to label. */
  has(conversationId: string, turnIndex: number): boolean {
    return this.known.has(turnLabelKey(conversationId, turnIndex));
  }

  /** Applies a label or a clearing; false when a newer label of the turn is already kept (nothing changes). */
  apply(update: LabelUpdate): boolean {
    const key = turnLabelKey(update.conversationId, update.turnIndex);
    const current = this.labels.get(key);
    if (current && Date.parse(current.labelledAt) > Date.parse(update.labelledAt)) return false;
    if (update.score === null) return this.labels.delete(key);
    this.labels.set(key, { conversationId: update.conversationId, turnIndex: update.turnIndex, score: update.score, labelledAt: update.labelledAt });
    return true;
  }

  /** The labels in task order. */
  list(): TurnLabel[] {
    return this.order.flatMap((key) => this.labels.get(key) ?? []);
  }

  /** The labels file: the header line, then one line per label. */
  toJsonl(): string {
    return `${[this.header, ...this.list()].map((line) => JSON.stringify(line)).join('\n')}\n`;
  }
}

/** A label with the line it came from. */
export interface LabelLine extends TurnLabel {
  readonly line: number;
}

function parseLine(text: string, path: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DatasetError({ file: path, line }, 'not JSON: a labels file has one JSON object per line');
  }
}

/**
 * Reads a labels file (JSON lines: a header naming the annotator, then one label per line).
 * Errors name the file and line. A turn labelled twice is an error: the file was edited by hand.
 */
export function parseLabelsFile(text: string, path: string): { header: LabelsHeader; labels: LabelLine[] } {
  const lines = text.split(/\r?\n/);
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first < 0) throw new DatasetError({ file: path }, 'is empty: pass a labels file that `pmiyc annotate serve` wrote', { fileIsSubject: true });
  const header = headerSchema.safeParse(parseLine(lines[first]!, path, first + 1));
  if (!header.success) {
    throw new DatasetError(
      { file: path, line: first + 1 },
      `not a pmiyc labels header (${header.error.issues[0]!.path.join('.') || 'line'}: ${header.error.issues[0]!.message}): pass a labels file that \`pmiyc annotate serve\` wrote`,
    );
  }
  const labels: LabelLine[] = [];
  const seen = new Map<string, number>();
  lines.forEach((content, position) => {
    if (position <= first || content.trim() === '') return;
    const line = position + 1;
    const parsed = labelSchema.safeParse(parseLine(content, path, line));
    if (!parsed.success)
      throw new DatasetError(
        { file: path, line },
        `not a label (${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}): each line needs conversationId, turnIndex, score 1-5 and labelledAt`,
      );
    const key = turnLabelKey(parsed.data.conversationId, parsed.data.turnIndex);
    const earlier = seen.get(key);
    if (earlier !== undefined)
      throw new DatasetError(
        { file: path, line },
        `conversation ${parsed.data.conversationId} turn ${parsed.data.turnIndex} is labelled again (first at line ${earlier}): keep one of the two lines`,
      );
    seen.set(key, line);
    if (!isAgreementScore(parsed.data.score)) throw new DatasetError({ file: path, line }, 'score must be 1-5');
    labels.push({ ...parsed.data, score: parsed.data.score, line });
  });
  return { header: header.data as LabelsHeader, labels };
}
