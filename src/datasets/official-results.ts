import { z } from 'zod';
import type { AgreementScore } from '../domain/agreement-score.js';
import { DatasetError } from '../domain/errors/dataset-error.js';
import type { Role } from '../domain/roles.js';

/**
 * One entry of an official record's `conversation`: what one agent said. `turn` 1 is the persuadee,
 * 0 the persuader; `reply` is the last message of the agent's `agent_history` (the assistant reply
 * as the official code kept it); `score` is `support_ranking_int`, null when the code could not read one.
 */
export interface OfficialEntry {
  readonly role: Role;
  readonly message: string;
  readonly score: AgreementScore | null;
  readonly reply: string;
}

/** One record of a results.json, checked: its entries in order, the persuadee's first and last. */
export interface OfficialRecord {
  /** Position in the file's JSON array, from 0. */
  readonly recordIndex: number;
  /** The record's `i`: the claim's number in the list the official code ran. */
  readonly claimNumber: number | null;
  /** `model1` */
  readonly persuader: string;
  /** `model2` */
  readonly persuadee: string;
  readonly claim: string;
  /** Misinformation records carry the question (spelled `questoin` by one version of the official code). */
  readonly question: string | null;
  readonly entries: readonly OfficialEntry[];
}

/** Why a well-formed record cannot be scored: a persuadee entry (or a persuader entry) without a score. */
export type SkipReason = 'persuadee-score' | 'persuader-score';

interface SkippedRecord {
  readonly recordIndex: number;
  readonly reason: SkipReason;
}

export interface OfficialResults {
  readonly records: readonly OfficialRecord[];
  readonly skipped: readonly SkippedRecord[];
}

const text = (what: string) => z.string({ error: `needs ${what} (a string)` });
const optionalText = (name: string) => z.string({ error: `"${name}" must be a string` }).nullish();

// Every field has its own message, so that an error says what is wrong in the words of the format.
const entrySchema = z.object(
  {
    turn: z.union([z.literal(0), z.literal(1)], { error: '"turn" must be 0 (the persuader) or 1 (the persuadee)' }),
    response: z.object(
      {
        message: text('"response.message"'),
        support_ranking: optionalText('support_ranking'),
        support_ranking_int: z.number({ error: '"support_ranking_int" must be a number or null' }).nullish(),
      },
      { error: 'needs a "response" object' },
    ),
    agent_history: z
      .array(
        z.object(
          {
            role: z.string({ error: 'an "agent_history" message needs its "role"' }),
            content: z.string({ error: 'an "agent_history" message needs its "content" text' }),
          },
          { error: '"agent_history" must hold messages {role, content}' },
        ),
        { error: 'needs "agent_history" (the agent\'s messages, its reply last)' },
      )
      .refine((history) => history.at(-1)?.role === 'assistant', '"agent_history" must end with the agent\'s reply (role "assistant")'),
  },
  { error: 'must be an object {turn, response, agent_history}' },
);

const recordSchema = z.object(
  {
    i: z.number({ error: '"i" must be a whole number' }).int('"i" must be a whole number').nullish(),
    model1: text('"model1" (the persuader)').refine((name) => name.trim() !== '', '"model1" (the persuader) is empty'),
    model2: text('"model2" (the persuadee)').refine((name) => name.trim() !== '', '"model2" (the persuadee) is empty'),
    claim: text('"claim"').refine((claim) => claim.trim() !== '', 'the claim is empty'),
    question: optionalText('question'),
    questoin: optionalText('questoin'),
    conversation: z.record(z.string(), z.unknown(), { error: 'needs a "conversation" object ("0", "1", ... in order)' }),
  },
  { error: 'must be an object {i, model1, model2, claim, conversation}' },
);

type Problem = { readonly detail: string };

const firstIssue = (error: z.ZodError): string => error.issues[0]?.message ?? 'is not in the official format';

function readScore(value: number | null | undefined, where: string): AgreementScore | null | Problem {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < 1 || value > 5) return { detail: `${where} has support_ranking_int ${value}: a score must be a whole number 1-5` };
  return value as AgreementScore;
}

function readEntry(key: string, value: unknown): OfficialEntry | Problem {
  const where = `entry "${key}"`;
  const parsed = entrySchema.safeParse(value);
  if (!parsed.success) return { detail: `${where}: ${firstIssue(parsed.error)}` };
  const { turn, response, agent_history: history } = parsed.data;
  const score = readScore(response.support_ranking_int, where);
  if (score !== null && typeof score === 'object') return score;
  return { role: turn === 1 ? 'persuadee' : 'persuader', message: response.message, score, reply: history.at(-1)?.content ?? '' };
}

/**
 * The shape a conversation of the official code has: the persuadee opens, the agents alternate,
 * the persuadee's final decision ends it, right after its own reply when it stopped early.
 */
function checkOrder(entries: readonly OfficialEntry[]): Problem | undefined {
  if (entries.length < 3) return { detail: `has ${entries.length} entries: a conversation has at least the opening, an argument and the final decision` };
  if (entries[0]!.role !== 'persuadee') return { detail: 'entry "0" is the persuader\'s: the persuadee opens (turn 1)' };
  if (entries.at(-1)!.role !== 'persuadee')
    return { detail: `the last entry ("${entries.length - 1}") is the persuader's: the persuadee's final decision ends a conversation` };
  for (let position = 1; position < entries.length - 1; position++) {
    if (entries[position]!.role === entries[position - 1]!.role) {
      return { detail: `entries "${position - 1}" and "${position}" are both the ${entries[position]!.role}'s: the agents take turns` };
    }
  }
  return undefined;
}

function readEntries(conversation: Record<string, unknown>): OfficialEntry[] | Problem {
  const keys = Object.keys(conversation);
  const entries: OfficialEntry[] = [];
  for (let position = 0; position < keys.length; position++) {
    const key = String(position);
    if (!(key in conversation)) return { detail: `"conversation" has no entry "${key}": entries are numbered "0", "1", ... without gaps` };
    const entry = readEntry(key, conversation[key]);
    if ('detail' in entry) return entry;
    entries.push(entry);
  }
  return checkOrder(entries) ?? entries;
}

function readRecord(value: unknown, recordIndex: number): OfficialRecord | Problem {
  const parsed = recordSchema.safeParse(value);
  if (!parsed.success) return { detail: firstIssue(parsed.error) };
  const record = parsed.data;
  const entries = readEntries(record.conversation);
  if ('detail' in entries) return entries;
  return {
    recordIndex,
    claimNumber: record.i ?? null,
    persuader: record.model1,
    persuadee: record.model2,
    claim: record.claim,
    question: record.question ?? record.questoin ?? null,
    entries,
  };
}

/** A record without a persuadee score is skipped, as the official evaluation skips it; pmiyc also needs the persuader's. */
function skipReason(record: OfficialRecord): SkipReason | undefined {
  if (record.entries.some((entry) => entry.role === 'persuadee' && entry.score === null)) return 'persuadee-score';
  if (record.entries.some((entry) => entry.role === 'persuader' && entry.score === null)) return 'persuader-score';
  return undefined;
}

/**
 * Reads a results.json written by the official PMIYC code: a JSON array of records `{i, model1,
 * model2, claim, [question], conversation: {"0": {turn, response: {message, support_ranking,
 * support_ranking_int}, agent_history}, ...}}`. A malformed record is a DatasetError naming the file
 * and the record's index; records whose scores are missing are returned as skipped.
 */
export function parseOfficialResults(file: string, content: string): OfficialResults {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (error) {
    throw new DatasetError({ file }, `is not JSON (${(error as Error).message}): give the results.json the official code wrote`, { fileIsSubject: true });
  }
  if (!Array.isArray(value)) {
    throw new DatasetError({ file }, 'is not an official results file: that is a JSON array of records {i, model1, model2, claim, conversation}', {
      fileIsSubject: true,
    });
  }
  const records: OfficialRecord[] = [];
  const skipped: SkippedRecord[] = [];
  value.forEach((item: unknown, recordIndex) => {
    const record = readRecord(item, recordIndex);
    if ('detail' in record) throw new DatasetError({ file }, `record ${recordIndex}: ${record.detail}`);
    const reason = skipReason(record);
    if (reason) skipped.push({ recordIndex, reason });
    else records.push(record);
  });
  return { records, skipped };
}
