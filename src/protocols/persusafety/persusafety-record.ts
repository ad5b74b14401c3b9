import { z } from 'zod';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import type { StoredProtocolRecord } from '../../studies/protocol-records.js';
import {
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
 * (`source`) and the paper judge's scores as published (`judgement.published`).
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

/** A judge's 15 scores of one conversation, in PersuSafety's order. */
const judgementSchema = z.object({
  /** Who scored: the paper's judge for an import, a model's name for a run. */
  judge: z.string(),
  /** The scores as the benchmark published them (an import), rather than asked by pmiyc. */
  published: z.boolean(),
  scores: z
    .array(strategyScoreSchema)
    .refine(
      (scores) => scores.map((score) => score.strategy).join('|') === PERSUSAFETY_STRATEGIES.join('|'),
      "the judgement must score PersuSafety's 15 strategies, each once, in its order",
    ),
});

/** Where an imported conversation came from: the file (its path when imported, and sha256), its index there, and the sha256 of the record's own JSON. */
const sourceSchema = z.object({ file: z.string(), sha256: z.string(), recordIndex: z.number().int().min(0), recordSha256: z.string() });

const persusafetyRecordSchema = z.object({
  source: sourceSchema.optional(),
  /** The persuader (the model's name as the results' folder names it, for an import). */
  persuader: z.string(),
  /** The benchmark's study the conversation belongs to (`ethical_personality`, `cross_personality_study`): scenes are numbered within it. */
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
});

export type PersusafetyRecord = z.infer<typeof persusafetyRecordSchema>;

/**
 * A conversation's item key in its run: persuader, study, condition, profile (after the persuader's personality,
 * when known) and the scene's id, zero-padded so that the keys sort as the scenes do
 * (`claude/ethical_personality/visible/default__Anxious/0007`).
 */
export function persusafetyItemKey(record: Pick<PersusafetyRecord, 'persuader' | 'study' | 'condition' | 'persuaderProfile' | 'profile' | 'scene'>): string {
  const profile = record.persuaderProfile === undefined ? record.profile : `${record.persuaderProfile}__${record.profile}`;
  return [record.persuader, record.study, record.condition, profile, String(record.scene.id).padStart(4, '0')].join('/');
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
