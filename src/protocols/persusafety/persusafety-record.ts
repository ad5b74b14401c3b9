import { z } from 'zod';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import type { StoredProtocolRecord } from '../../studies/protocol-records.js';
import {
  PERSUSAFETY_CONSTRAINTS,
  PERSUSAFETY_DECISIONS,
  PERSUSAFETY_HARMFULNESS_LEVELS,
  PERSUSAFETY_PERSUADEE_PROFILES,
  PERSUSAFETY_PROFILE_CONDITIONS,
  PERSUSAFETY_SCORES,
  PERSUSAFETY_STRATEGIES,
  type PersusafetyStrategy,
} from './persusafety-facts.js';

/**
 * What pmiyc stores of one PersuSafety conversation (`protocol_records`, one row per conversation; docs/design/
 * protocols.md, "PersuSafety"): the scene it was played on, who played it and under which condition, its messages,
 * the persuadee's decisions and the judge's 15 scores. An imported conversation keeps where it came from
 * (`source`) and the paper judge's scores as published (`judgement.published`); a conversation pmiyc ran keeps
 * what only a run has (`played`: the persuadee's model, the constraint, the repetition, why it stopped, every call's
 * attempts) and its own judge's scores (`published: false`), so every reader reads one shape whoever ran it.
 */

/** The scene a conversation was played on: the published record's fields in full words. */
const sceneSchema = z.object({
  /** The scene's id in its study (the published `id`): the unit intervals are over. */
  id: z.number().int().min(0),
  domain: z.string(),
  task: z.string(),
  persuaderInstructions: z.string(),
  persuadeeInstructions: z.string(),
  /** The true situation, hidden from the persuadee and shown to the judge. */
  fact: z.string(),
  vulnerability: z.string(),
  harmfulness: z.enum(PERSUSAFETY_HARMFULNESS_LEVELS).optional(),
  resistance: z.string().optional(),
  strongResistance: z.string().optional(),
  persuaderBenefit: z.string().optional(),
  persuaderPressure: z.string().optional(),
  /**
   * The benchmark's task-refusal probe, where the study ran it: the persuader's reply when first given the task,
   * and the flag the benchmark's code set on it (1 when the reply took the task, -1 or 0 otherwise), as published.
   * A run always asks it, and sets the flag the same way: 1 taken on, -1 declined (or withheld by the provider).
   */
  taskProbe: z.object({ reply: z.string(), flag: z.number().int() }).optional(),
});

export type PersusafetyScene = z.infer<typeof sceneSchema>;

/** One message: the persuadee's system instructions, then the persuader and the persuadee by turns. */
const messageSchema = z.object({ role: z.enum(['system', 'persuader', 'persuadee']), text: z.string() });

export type PersusafetyMessage = z.infer<typeof messageSchema>;

/** The persuadee's decision after one of its turns (the published `decision_list`: turn number to 1 accept, 0 reject). */
const turnDecisionSchema = z.object({ turn: z.number().int().min(0), decision: z.enum(PERSUSAFETY_DECISIONS) });

const strategyScoreSchema = z.object({
  strategy: z.enum(PERSUSAFETY_STRATEGIES as [PersusafetyStrategy, ...PersusafetyStrategy[]]),
  score: z.union(PERSUSAFETY_SCORES.map((score) => z.literal(score))),
  rationale: z.string(),
});

export type PersusafetyStrategyScore = z.infer<typeof strategyScoreSchema>;

/**
 * A judge's 15 scores of one conversation, in PersuSafety's order. A run's judge may leave none: its answer could
 * not be read after every attempt (`unread`, with the last problem: kept, never dropped), or it was not asked
 * (`not-asked`: the persuader declined the task, or its every message was withheld). An import's are always read.
 */
const judgementSchema = z
  .object({
    /** Who scored: the paper's judge for an import, a model's name for a run. */
    judge: z.string(),
    /** The scores as the benchmark published them (an import), rather than asked by pmiyc. */
    published: z.boolean(),
    /** Absent: read (every import). */
    status: z.enum(['read', 'unread', 'not-asked']).optional(),
    /** Why an unread answer could not be read. */
    problem: z.string().optional(),
    scores: z.array(strategyScoreSchema),
  })
  .superRefine((judgement, context) => {
    const read = judgement.status === undefined || judgement.status === 'read';
    if (read && judgement.scores.map((score) => score.strategy).join('|') !== PERSUSAFETY_STRATEGIES.join('|'))
      context.addIssue({ code: 'custom', path: ['scores'], message: "the judgement must score PersuSafety's 15 strategies, each once, in its order" });
    if (!read && judgement.scores.length > 0) context.addIssue({ code: 'custom', path: ['scores'], message: `an ${judgement.status} judgement has no scores` });
  });

/** Where an imported conversation came from: the file (its path when imported, and sha256), its index there, and the sha256 of the record's own JSON. */
const sourceSchema = z.object({ file: z.string(), sha256: z.string(), recordIndex: z.number().int().min(0), recordSha256: z.string() });

const count = z.number().int().min(0).optional();

/** One attempt of a call, as the engine keeps it (`Attempt`): its seed, its text, how it was taken, its tokens and cost. */
const attemptSchema = z.object({
  number: z.number().int(),
  seed: z.number().nullable(),
  raw: z.string(),
  outcome: z.string(),
  detail: z.string().optional(),
  finishReason: z.string().optional(),
  usage: z.object({ inputTokens: count, outputTokens: count, cachedInputTokens: count, cacheWriteTokens: count }).optional(),
  costUsd: z.number().optional(),
  callHash: z.string().optional(),
});

/** Every attempt of one call of a run's conversation. */
const callSchema = z.object({
  call: z.enum(['task-probe', 'persuader', 'persuadee', 'judge']),
  /** The turn, from 0; null for the task probe and the judge. */
  turn: z.number().int().min(0).nullable(),
  attempts: z.array(attemptSchema),
});

/** What only a conversation pmiyc ran has. */
const playedSchema = z.object({
  persuadee: z.string(),
  /** What more the persuader was told (a neutral scene's benefit, pressure, or both; `none` on a harmful task). */
  constraint: z.enum(PERSUSAFETY_CONSTRAINTS),
  repetition: z.number().int().min(0),
  /** The most persuader turns the conversation could take. */
  turns: z.number().int().min(1),
  /** Why it stopped (conversation/persusafety-outcome.ts). */
  stop: z.enum(['task-declined', 'accepted', 'rejected', 'turns', 'persuader-withheld']),
  /** The persuader's answer to the task probe: it took the task on, declined it, or its provider withheld the answer. */
  taskProbe: z.enum(['accepted', 'declined', 'withheld']),
  /** The persuader's system prompt as it was sent (the persuadee's is the first message). */
  persuaderPrompt: z.string(),
  calls: z.array(callSchema),
});

const persusafetyRecordSchema = z.object({
  source: sourceSchema.optional(),
  /** The persuader (the model's name as the results' folder names it, for an import). */
  persuader: z.string(),
  /**
   * The benchmark's study the conversation belongs to (`ethical_personality`, `cross_personality_study`) for an
   * import, the scene set (`harmful`, `neutral`) for a run: scenes are numbered within it.
   */
  study: z.string(),
  condition: z.enum(PERSUSAFETY_PROFILE_CONDITIONS),
  /** The persuader's personality as the results' file names it (`default`), when it does. */
  persuaderProfile: z.string().optional(),
  profile: z.enum(PERSUSAFETY_PERSUADEE_PROFILES),
  scene: sceneSchema,
  messages: z.array(messageSchema),
  /** The persuadee's last decision; null when the conversation reached none (the published `n-a`). */
  finalDecision: z.enum(PERSUSAFETY_DECISIONS).nullable(),
  decisions: z.array(turnDecisionSchema),
  judgement: judgementSchema,
  played: playedSchema.optional(),
});

export type PersusafetyRecord = z.infer<typeof persusafetyRecordSchema>;

/**
 * A conversation's item key in its run: persuader, study, condition, profile (after the persuader's personality,
 * when known) and the scene's id, zero-padded so that the keys sort as the scenes do
 * (`claude/ethical_personality/visible/default__Anxious/0007`). A conversation pmiyc ran adds its constraint after
 * the study and its repetition at the end (`alpha/harmful/none/visible/Anxious/0062/repetition-000`).
 */
export function persusafetyItemKey(
  record: Pick<PersusafetyRecord, 'persuader' | 'study' | 'condition' | 'persuaderProfile' | 'profile' | 'scene'> & {
    readonly played?: Pick<NonNullable<PersusafetyRecord['played']>, 'constraint' | 'repetition'> | undefined;
  },
): string {
  const profile = record.persuaderProfile === undefined ? record.profile : `${record.persuaderProfile}__${record.profile}`;
  const scene = String(record.scene.id).padStart(4, '0');
  const { played } = record;
  if (played === undefined) return [record.persuader, record.study, record.condition, profile, scene].join('/');
  return [record.persuader, record.study, played.constraint, record.condition, profile, scene, `repetition-${String(played.repetition).padStart(3, '0')}`].join(
    '/',
  );
}

/** A stored record read back by this schema; one it refuses is a DatasetError naming the run and the item. */
export function readPersusafetyRecord(runName: string, stored: StoredProtocolRecord): PersusafetyRecord {
  const parsed = persusafetyRecordSchema.safeParse(stored.record);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new DatasetError(
    { file: `run ${runName}, item ${stored.itemKey}` },
    `is not a PersuSafety record (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown'}): was the store written by another pmiyc?`,
    { fileIsSubject: true },
  );
}
