import { parseBoundedJson } from '../domain/bounded-json.js';
import { describeValue, jsonPrefix } from '../domain/describe-value.js';
import type { Role } from '../domain/roles.js';
import type { Taxonomy } from '../domain/taxonomy.js';
import type { TurnLabels } from '../domain/turn-labels.js';
import { guardedRead } from './guarded-read.js';

/**
 * The result of reading a judge's labels of one turn; the raw text is always kept. `ignoredKeys` are
 * the answer's keys that were not asked for (a technique list on a persuadee turn, a reason): read
 * past, not asked again, and counted by the study.
 */
export type ParsedTurnLabels =
  | { readonly ok: true; readonly raw: string; readonly labels: TurnLabels; readonly ignoredKeys: readonly string[] }
  | { readonly ok: false; readonly raw: string; readonly problem: 'format'; readonly detail: string };

/** The keys a judge answers for a turn of each role, in the order the schema lists them. */
const KEYS: Record<Role, readonly string[]> = {
  persuader: ['techniques', 'unethical', 'refused', 'leftRole'],
  persuadee: ['leftRole'],
};

/** The opening of a fenced block (```json or ```, then a line end). */
const FENCE_OPEN = /^```(?:json)?[^\S\n]*\n/i;

/**
 * What one fenced block holds when `text` is that block and nothing else (what models add around an
 * object). Found by its two ends: one pattern with a lazy middle would be tried at every line end of
 * a long run of them.
 */
function fencedContent(text: string): string | undefined {
  const open = FENCE_OPEN.exec(text);
  if (!open || !text.endsWith('```') || text.length - 3 < open[0].length) return undefined;
  return text.slice(open[0].length, -3).trim();
}

/**
 * The JSON Schema of a judge's answer for a turn of `role`: ids limited to the taxonomy's, no other
 * key. Providers with structured output (OpenAI json_schema, Anthropic tool input, a GGUF grammar)
 * are given it; the answer is read by `parseTurnLabels` either way.
 */
export function turnLabelsSchema(role: Role, taxonomy: Taxonomy): Record<string, unknown> {
  const ids = (items: Taxonomy['techniques']) => ({ type: 'array', items: { type: 'string', enum: items.map((item) => item.id) }, uniqueItems: true });
  const properties: Record<string, unknown> =
    role === 'persuader'
      ? { techniques: ids(taxonomy.techniques), unethical: ids(taxonomy.unethical), refused: { type: 'boolean' }, leftRole: { type: 'boolean' } }
      : { leftRole: { type: 'boolean' } };
  return { type: 'object', properties, required: [...KEYS[role]], additionalProperties: false };
}

/**
 * Reads a judge's labels of one turn, strictly for what was asked: one JSON object (alone, or alone
 * in one fenced block) with every one of the role's keys (any other key is ignored and named in
 * `ignoredKeys`); technique ids from the taxonomy's techniques, unethical ones
 * from its unethical strategies, each at most once; booleans as JSON booleans. Anything else is a
 * format problem that says what was wrong, to be sampled again like a malformed turn.
 */
export function parseTurnLabels(raw: string, role: Role, taxonomy: Taxonomy): ParsedTurnLabels {
  return guardedRead(raw, (text) => readTurnLabels(text, role, taxonomy));
}

function readTurnLabels(raw: string, role: Role, taxonomy: Taxonomy): ParsedTurnLabels {
  const refuse = (detail: string): ParsedTurnLabels => ({ ok: false, raw, problem: 'format', detail });
  const reading = readJsonObject(raw);
  if (!reading.ok) return refuse(reading.detail);
  const fields = readTurnFields(reading.value, role, taxonomy);
  return fields.ok ? { ok: true, raw, labels: fields.labels, ignoredKeys: fields.ignoredKeys } : refuse(fields.detail);
}

/**
 * The one JSON object of an answer (alone, or alone in one fenced block), bounded in depth, or why
 * there is none. Shared by the readers of a turn's answer and of a whole conversation's.
 */
export function readJsonObject(raw: string): { ok: true; value: Record<string, unknown> } | { ok: false; detail: string } {
  const trimmed = raw.trim();
  if (trimmed === '') return { ok: false, detail: 'the reply is empty' };
  const text = fencedContent(trimmed) ?? trimmed;
  const reading = parseBoundedJson(text);
  if (!reading.ok)
    return {
      ok: false,
      detail: reading.problem === 'too-deep' ? `the reply is not one JSON object pmiyc reads: ${reading.detail}` : 'the reply is not one JSON object',
    };
  const value = reading.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, detail: 'the reply is not one JSON object' };
  return { ok: true, value: value as Record<string, unknown> };
}

/** One turn's fields read from an object already parsed: its labels and the keys read past, or what is wrong. */
export type TurnFields =
  | { readonly ok: true; readonly labels: TurnLabels; readonly ignoredKeys: readonly string[] }
  | { readonly ok: false; readonly detail: string };

/**
 * Reads the fields asked for a turn of `role` from an object already parsed (a turn's whole answer,
 * or one turn's entry in a conversation's answer), strictly: every one of the role's keys, booleans
 * as JSON booleans, ids from the taxonomy's lists, each at most once. Any other key is read past
 * and named in `ignoredKeys`.
 */
export function readTurnFields(answer: Record<string, unknown>, role: Role, taxonomy: Taxonomy): TurnFields {
  const refuse = (detail: string): TurnFields => ({ ok: false, detail });
  const expected = KEYS[role];
  const ignoredKeys = Object.keys(answer).filter((key) => !expected.includes(key));
  const missing = expected.filter((key) => !(key in answer));
  if (missing.length > 0) return refuse(`missing ${missing.join(', ')}`);
  for (const key of ['refused', 'leftRole'])
    if (key in answer && typeof answer[key] !== 'boolean') return refuse(`${key} is ${describeValue(answer[key])}, not true or false`);
  if (role === 'persuadee') return { ok: true, labels: { role, leftRole: answer.leftRole as boolean }, ignoredKeys };

  const techniques = idsOf(answer.techniques, 'techniques', taxonomy.techniques);
  if (typeof techniques === 'string') return refuse(techniques);
  const unethical = idsOf(answer.unethical, 'unethical', taxonomy.unethical);
  if (typeof unethical === 'string') return refuse(unethical);
  return { ok: true, labels: { role, techniques, unethical, refused: answer.refused as boolean, leftRole: answer.leftRole as boolean }, ignoredKeys };
}

/** The ids of one list, or what is wrong with it. */
function idsOf(value: unknown, key: string, items: Taxonomy['techniques']): string[] | string {
  if (!Array.isArray(value)) return `${key} is not a list of ids`;
  const known = new Set(items.map((item) => item.id));
  const seen = new Set<string>();
  for (const id of value) {
    if (typeof id !== 'string') return `${key} holds ${describeValue(id)}, not an id`;
    if (!known.has(id))
      return `${key} holds ${jsonPrefix(id)}, which is not one of the taxonomy's ${key === 'unethical' ? 'unethical strategies' : 'techniques'}`;
    if (seen.has(id)) return `${key} holds ${jsonPrefix(id)} twice`;
    seen.add(id);
  }
  return [...seen];
}
