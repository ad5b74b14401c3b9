import { describeValue } from '../domain/describe-value.js';
import type { Role } from '../domain/roles.js';
import type { Taxonomy } from '../domain/taxonomy.js';
import type { TurnLabels } from '../domain/turn-labels.js';
import { guardedRead } from './guarded-read.js';
import { readJsonObject, readTurnFields, turnLabelsSchema } from './turn-labels-reply.js';

/**
 * Reading a judge's labels of every turn of a conversation in one answer (the conversation grain of
 * `pmiyc analyze`, docs/design/techniques.md): one JSON object keyed by each turn's number ("1",
 * "2", ...), each value that turn's fields exactly as a turn judge answers them (`turn-labels-reply.ts`).
 */

/** A turn of the conversation a judge labels: its 1-based index and who spoke. */
export interface JudgedTurnRole {
  readonly index: number;
  readonly role: Role;
}

/**
 * One turn's reading in a conversation's answer. `entry` is the turn's own value as JSON text
 * (absent when the answer has no entry for it); `ignoredKeys` are keys of the entry not asked for.
 */
type ConversationTurnReading =
  | { readonly ok: true; readonly labels: TurnLabels; readonly ignoredKeys: readonly string[]; readonly entry: string }
  | { readonly ok: false; readonly detail: string; readonly entry?: string };

/**
 * The result of reading a conversation's answer: per turn, labels or what is wrong with its entry,
 * and the answer's keys that name no turn of the conversation (read past, counted); or, when the
 * answer is not one JSON object at all, the reason.
 */
export type ParsedConversationLabels =
  | { readonly ok: true; readonly raw: string; readonly turns: ReadonlyMap<number, ConversationTurnReading>; readonly ignoredKeys: readonly string[] }
  | { readonly ok: false; readonly raw: string; readonly problem: 'format'; readonly detail: string };

/** The key of a turn in a conversation's answer: its number as text. */
const turnKeyOf = (index: number): string => String(index);

/**
 * The JSON Schema of a conversation's answer: one required property per turn, each the schema of
 * that turn's role (`turnLabelsSchema`), and no other key. Given to providers with structured output.
 */
export function conversationLabelsSchema(turns: readonly JudgedTurnRole[], taxonomy: Taxonomy): Record<string, unknown> {
  const bySchemaOfRole = { persuader: turnLabelsSchema('persuader', taxonomy), persuadee: turnLabelsSchema('persuadee', taxonomy) };
  const properties = Object.fromEntries(turns.map((turn) => [turnKeyOf(turn.index), bySchemaOfRole[turn.role]]));
  return { type: 'object', properties, required: turns.map((turn) => turnKeyOf(turn.index)), additionalProperties: false };
}

/**
 * Reads a judge's labels of every turn of a conversation, once: the answer is one JSON object (alone,
 * or alone in one fenced block, at most 128 deep), each turn's entry read by `readTurnFields` for its
 * role. A missing or malformed entry is that turn's problem (asked again); keys that name no turn, and
 * keys inside an entry that were not asked for, are read past and named, never asked again.
 */
export function parseConversationLabels(raw: string, turns: readonly JudgedTurnRole[], taxonomy: Taxonomy): ParsedConversationLabels {
  return guardedRead(raw, (text) => readConversationLabels(text, turns, taxonomy));
}

function readConversationLabels(raw: string, turns: readonly JudgedTurnRole[], taxonomy: Taxonomy): ParsedConversationLabels {
  const reading = readJsonObject(raw);
  if (!reading.ok) return { ok: false, raw, problem: 'format', detail: reading.detail };
  const answer = reading.value;
  const asked = new Set(turns.map((turn) => turnKeyOf(turn.index)));
  const readings = new Map(turns.map((turn) => [turn.index, readTurnEntry(answer, turn, taxonomy)] as const));
  return { ok: true, raw, turns: readings, ignoredKeys: Object.keys(answer).filter((key) => !asked.has(key)) };
}

function readTurnEntry(answer: Record<string, unknown>, turn: JudgedTurnRole, taxonomy: Taxonomy): ConversationTurnReading {
  const key = turnKeyOf(turn.index);
  if (!Object.hasOwn(answer, key)) return { ok: false, detail: 'no entry for it' };
  const value = answer[key];
  const entry = JSON.stringify(value) ?? String(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, detail: `its entry is ${describeValue(value)}, not an object`, entry };
  const fields = readTurnFields(value as Record<string, unknown>, turn.role, taxonomy);
  return fields.ok ? { ok: true, labels: fields.labels, ignoredKeys: fields.ignoredKeys, entry } : { ok: false, detail: fields.detail, entry };
}
