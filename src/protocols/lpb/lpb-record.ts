import { z } from 'zod';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import type { StoredProtocolRecord } from '../../studies/protocol-records.js';
import { LPB_OUTCOMES, LPB_SIDES, LPB_TRANSCRIPT_ROLES } from './lpb-facts.js';

/**
 * What pmiyc stores of one cell of the benchmark (`protocol_records`, one row per cell, keyed by the cell's name;
 * docs/design/llm-persuasion-benchmark.md): the per-cell table's row as published, the proposition's topic and
 * statement, the probes and diagnostics where the report lists them, the transcript's turns, and where each came
 * from (the report's line, the transcript's file and sha256).
 */

const nullableNumber = z.number().nullable();
const nullableText = z.string().nullable();

const turnSchema = z.object({
  turn: z.number().int().min(1),
  role: z.enum(LPB_TRANSCRIPT_ROLES),
  model: z.string(),
  text: z.string(),
});

const sourceSchema = z.object({
  bundle: z.string(),
  /** The report's absolute path and the row's line in it. */
  report: z.object({ file: z.string(), line: z.number().int().min(1) }),
  /** The sha256 of the row's text: with the transcript's, what a re-import compares. */
  rowSha256: z.string(),
  /** The transcript read, or null when the bundle has none for the cell. */
  transcript: z.object({ file: z.string(), sha256: z.string() }).nullable(),
});

const lpbRecordSchema = z.object({
  source: sourceSchema,
  cell: z.string(),
  proposition: z.object({ id: z.string(), topic: nullableText, statement: nullableText }),
  persuader: z.string(),
  target: z.string(),
  side: z.enum(LPB_SIDES),
  condition: z.string(),
  outcome: z.enum(LPB_OUTCOMES),
  terminalStage: nullableText,
  terminalError: nullableText,
  preMean: nullableNumber,
  preRoomToMove: nullableNumber,
  conversionOrConsolidation: nullableText,
  postMean: nullableNumber,
  signedShift: nullableNumber,
  reconClipped: nullableNumber,
  persuasionClipped: nullableNumber,
  startAlignment: nullableText,
  endAlignment: nullableText,
  probes: z.object({ pre: z.array(z.number()), post: z.array(z.number()) }).nullable(),
  diagnostics: z.record(z.string(), z.number()).nullable(),
  /** The transcript's turns; empty when it is missing (`source.transcript` null). */
  turns: z.array(turnSchema),
});

export type LpbRecord = z.infer<typeof lpbRecordSchema>;

/** What a re-import compares: the row's and the transcript's sha256 together. */
export const lpbRecordIdentity = (record: Pick<LpbRecord, 'source'>): string =>
  `${record.source.rowSha256}/${record.source.transcript?.sha256 ?? 'no transcript'}`;

/** A stored record read back by the benchmark's schema; one it cannot read is named by run and item. */
export function readLpbRecord(runName: string, stored: StoredProtocolRecord): LpbRecord {
  const parsed = lpbRecordSchema.safeParse(stored.record);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new DatasetError(
    { file: `run ${runName}, item ${stored.itemKey}` },
    `is not a record of the LLM Persuasion Benchmark (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown'}): was the store written by another pmiyc?`,
    { fileIsSubject: true },
  );
}
