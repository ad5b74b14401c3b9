import { z } from 'zod';
import type { Domain } from '../../domain/claim.js';
import type { TurnKind } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { hashString } from '../../domain/random.js';
import type { Role } from '../../domain/roles.js';
import { ANNOTATION_GUIDE } from './annotation-guide.js';
import type { TaskSelection } from './annotation-sample.js';

const TASKS_FORMAT = 'pmiyc-annotation-tasks';

/** One turn as annotators see it: the message only, never a score or the raw reply. */
export interface AnnotationTurn {
  readonly index: number;
  readonly role: Role;
  readonly kind: TurnKind;
  readonly message: string;
  /** True on persuadee turns: the ones to label. */
  readonly toLabel: boolean;
}

/** A conversation to label. Models are not named, so annotators judge the text alone. */
export interface AnnotationConversation {
  readonly conversationId: string;
  readonly domain: Domain;
  readonly claim: string;
  readonly question: string | null;
  readonly turns: readonly AnnotationTurn[];
}

/**
 * The task file (`pmiyc annotate export`): conversations of one run with their messages, blind to
 * every score (those stay in the store, which `pmiyc annotate import` reads). A turn to label is
 * identified by (conversationId, turn index).
 */
export interface AnnotationTaskFile {
  readonly format: typeof TASKS_FORMAT;
  readonly version: 1;
  /** A hash of the run and of the turns to label: labels files name the task set they belong to. */
  readonly taskSetId: string;
  readonly run: string;
  readonly createdAt: string;
  readonly selection: TaskSelection;
  readonly annotationGuide: string;
  readonly conversations: readonly AnnotationConversation[];
}

/** Strips a stored conversation down to what annotators may see. */
function toAnnotationConversation(record: ConversationRecord): AnnotationConversation {
  return {
    conversationId: record.conversationId,
    domain: record.domain,
    claim: record.claim,
    question: record.question,
    turns: record.turns.map((turn) => ({ index: turn.index, role: turn.role, kind: turn.kind, message: turn.message, toLabel: turn.role === 'persuadee' })),
  };
}

/** "c1#3": the key of a turn to label. */
export function turnLabelKey(conversationId: string, turnIndex: number): string {
  return `${conversationId}#${turnIndex}`;
}

/** The keys of the turns to label, in the order annotators meet them. */
export function turnsToLabel(conversations: readonly AnnotationConversation[]): string[] {
  return conversations.flatMap((conversation) =>
    conversation.turns.filter((turn) => turn.toLabel).map((turn) => turnLabelKey(conversation.conversationId, turn.index)),
  );
}

/**
 * Builds the task file from the selected records, in a seeded order that mixes pairs and claims
 * (annotators should not read one pair's conversations in a row).
 */
export function buildTaskFile(input: { run: string; createdAt: string; selection: TaskSelection; records: readonly ConversationRecord[] }): AnnotationTaskFile {
  const conversations = [...input.records]
    .sort(
      (a, b) =>
        hashString(a.conversationId, input.selection.seed) - hashString(b.conversationId, input.selection.seed) ||
        a.conversationId.localeCompare(b.conversationId),
    )
    .map(toAnnotationConversation);
  const identity = [input.run, ...turnsToLabel(conversations)].join('\n');
  return {
    format: TASKS_FORMAT,
    version: 1,
    taskSetId: `t${hashString(identity).toString(36).padStart(11, '0')}`,
    run: input.run,
    createdAt: input.createdAt,
    selection: input.selection,
    annotationGuide: ANNOTATION_GUIDE,
    conversations,
  };
}

const turnSchema = z.object({
  index: z.number().int().min(1),
  role: z.enum(['persuader', 'persuadee']),
  kind: z.enum(['opening', 'argument', 'reply', 'final']),
  message: z.string(),
  toLabel: z.boolean(),
});

const selectionSchema = z.object({
  setting: z.enum(['single', 'multi', 'both']),
  seed: z.number().int(),
  perPair: z.number().int().min(1).nullable(),
  claimsPerDomain: z.object({ subjective: z.number().int().min(0), misinformation: z.number().int().min(0) }).nullable(),
});

const taskFileSchema = z.object({
  format: z.literal(TASKS_FORMAT),
  version: z.literal(1),
  taskSetId: z.string().min(1),
  run: z.string().min(1),
  createdAt: z.string(),
  selection: selectionSchema,
  annotationGuide: z.string(),
  conversations: z.array(
    z.object({
      conversationId: z.string().min(1),
      domain: z.enum(['subjective', 'misinformation']),
      claim: z.string(),
      question: z.string().nullable(),
      turns: z.array(turnSchema),
    }),
  ),
});

/** Reads a task file (checked: a hand-edited file gets a message naming what is wrong). Unknown fields are dropped. */
export function parseTaskFile(text: string, path: string): AnnotationTaskFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DatasetError({ file: path }, `is not JSON (${(error as Error).message}): pass the file \`pmiyc annotate export\` wrote`, { fileIsSubject: true });
  }
  const parsed = taskFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DatasetError(
      { file: path },
      `is not a pmiyc annotation task file (${issue.path.join('.') || 'top level'}: ${issue.message}): pass the file \`pmiyc annotate export\` wrote`,
      { fileIsSubject: true },
    );
  }
  const file = parsed.data as AnnotationTaskFile;
  const ids = new Set<string>();
  for (const conversation of file.conversations) {
    if (ids.has(conversation.conversationId))
      throw new DatasetError({ file: path }, `lists conversation ${conversation.conversationId} twice: export the tasks again`, { fileIsSubject: true });
    ids.add(conversation.conversationId);
  }
  return file;
}
