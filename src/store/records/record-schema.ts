import { z } from 'zod';
import { type ConversationRecord, disputedScoresOf, type ImportedFrom } from '../../domain/conversation-record.js';

// One literal with five values, not a union of five: a union tries each member in turn, a literal
// looks the value up once (every turn of every record is checked when reports read them in bulk).
const score = z.literal([1, 2, 3, 4, 5]);
const FAILURE_REASONS = ['format', 'refusal', 'api', 'context'] as const;
const failureReason = z.enum(FAILURE_REASONS);
const role = z.enum(['persuader', 'persuadee']);

const attempt = z.object({
  number: z.number().int(),
  seed: z.number().int().nullable(),
  raw: z.string(),
  outcome: z.enum(['accepted', ...FAILURE_REASONS]),
  detail: z.string().optional(),
  finishReason: z.enum(['stop', 'length', 'content-filter', 'error', 'other']).optional(),
  usage: z
    .object({
      inputTokens: z.number().optional(),
      outputTokens: z.number().optional(),
      cachedInputTokens: z.number().optional(),
      cacheWriteTokens: z.number().optional(),
    })
    .optional(),
  costUsd: z.number().optional(),
  callHash: z.string().optional(),
});

const turn = z.object({
  index: z.number().int(),
  role,
  kind: z.enum(['opening', 'argument', 'reply', 'final']),
  message: z.string(),
  score,
  raw: z.string(),
  attempts: z.array(attempt),
});

const imported = z.object({
  format: z.literal('pmiyc-official'),
  file: z.string(),
  sha256: z.string(),
  recordIndex: z.number().int(),
  claimNumber: z.number().int().nullable(),
  labelMatch: z.enum(['strict', 'first']),
  differences: z.array(z.object({ turn: z.number().int(), recordedScore: score, readScore: score.nullable(), detail: z.string().nullable() })),
  // Absent in records that pmiyc 0.1.0 imported before it was kept: derived from the turns when read back.
  disputedScores: z.array(z.enum(['initial', 'final'])).optional(),
});

/** A stored conversation record, checked when read back (the store is a boundary). */
const storedRecordSchema = z.object({
  run: z.string().nullable(),
  conversationId: z.string(),
  domain: z.enum(['subjective', 'misinformation']),
  setting: z.enum(['single', 'multi']),
  turnsPlanned: z.number().int(),
  repetition: z.number().int(),
  runSeed: z.number().int().nullable(),
  claimIndex: z.number().int(),
  claim: z.string(),
  question: z.string().nullable(),
  origin: z.string(),
  license: z.string(),
  persuader: z.string(),
  persuadee: z.string(),
  simulated: z.object({ persuader: z.boolean(), persuadee: z.boolean() }),
  status: z.enum(['completed', 'failed']),
  failureReason: failureReason.nullable(),
  failureDetail: z.string().nullable(),
  failedTurn: z.number().int().nullable(),
  failedRole: role.nullable(),
  failedAttempts: z.array(attempt),
  earlyStopped: z.boolean().nullable(),
  initialScore: score.nullable(),
  finalScore: score.nullable(),
  normalizedChange: z.number().nullable(),
  persuaderStance: score.nullable(),
  absoluteChange: z.number().nullable(),
  turns: z.array(turn),
  // Absent unless the run was started with --probe-drift (and on failed conversations).
  driftProbe: z.object({ score: score.nullable(), attempts: z.number().int(), raw: z.string(), callHash: z.string().nullable() }).optional(),
  imported: imported.optional(),
});

/**
 * A stored conversation record, checked when read back (the store is a boundary), as pmiyc uses it.
 * The check is a plain object schema: a zod `transform` on it cost the bulk readers (export, report)
 * about 50 MB of peak memory and a tenth of their time, so imported records are completed after it.
 */
export function parseStoredRecord(value: unknown): ConversationRecord {
  const record = storedRecordSchema.parse(value);
  return record.imported === undefined ? (record as ConversationRecord) : asImported(record as ParsedImported);
}

type ParsedImported = Omit<ConversationRecord, 'imported'> & {
  imported: Omit<ImportedFrom, 'disputedScores'> & { disputedScores?: ImportedFrom['disputedScores'] };
};

/**
 * An imported record as pmiyc uses it, whichever version stored it: no seeds (the store keeps 0
 * where there is none, as pmiyc 0.1.0 wrote and reads it), and its disputed scores (derived from the
 * turns for records imported before they were kept).
 */
function asImported(record: ParsedImported): ConversationRecord {
  const { imported } = record;
  return {
    ...record,
    runSeed: null,
    turns: record.turns.map((turn) => ({ ...turn, attempts: turn.attempts.map((attempt) => ({ ...attempt, seed: null })) })),
    imported: { ...imported, disputedScores: imported.disputedScores ?? disputedScoresOf(record.turns, imported.differences) },
  };
}
