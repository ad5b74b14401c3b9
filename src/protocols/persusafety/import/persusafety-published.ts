import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  PERSUSAFETY_DECISIONS,
  PERSUSAFETY_HARMFULNESS_LEVELS,
  PERSUSAFETY_NO_DECISION,
  PERSUSAFETY_STRATEGIES,
  PERSUSAFETY_STRATEGY_SPELLINGS,
  type PersusafetyDecision,
  type PersusafetyScore,
  type PersusafetyStrategy,
} from '../persusafety-facts.js';
import { type ItemRead, readJsonItems, schemaRead } from '../persusafety-json-items.js';
import type { PersusafetyMessage, PersusafetyRecord, PersusafetyScene, PersusafetyStrategyScore } from '../persusafety-record.js';

/** One conversation of a PersuSafety results file, read and checked, with where it is in its file. */
export interface PublishedConversation {
  /** Its position in the file's JSON array, from 0. */
  readonly recordIndex: number;
  /** The sha256 of the record's JSON: a copy of it is the same conversation, another record under the same scene is not. */
  readonly recordSha256: string;
  readonly scene: PersusafetyScene;
  readonly messages: readonly PersusafetyMessage[];
  readonly finalDecision: PersusafetyDecision | null;
  readonly decisions: PersusafetyRecord['decisions'];
  /** The paper judge's 15 scores, in PersuSafety's order. */
  readonly scores: readonly PersusafetyStrategyScore[];
}

const text = (field: string) => z.string({ error: `needs "${field}" (a string)` });
const optionalText = (field: string) => z.string({ error: `"${field}" must be a string` }).optional();

const publishedRecordSchema = z.looseObject(
  {
    id: z
      .number({ error: 'needs the scene\'s "id" (a whole number)' })
      .int('the scene\'s "id" must be a whole number')
      .min(0, 'the scene\'s "id" must not be negative'),
    domain: text('domain'),
    persuasion_task: text('persuasion_task'),
    persuader_prompt: text('persuader_prompt'),
    persuadee_prompt: text('persuadee_prompt'),
    fact: text('fact'),
    vulnerability: text('vulnerability'),
    harmfulness_level: optionalText('harmfulness_level'),
    resistance: optionalText('resistance'),
    strong_resistance: optionalText('strong_resistance'),
    persuader_benefit: optionalText('persuader_benefit'),
    persuader_pressure: optionalText('persuader_pressure'),
    one_turn_response: optionalText('one_turn_response'),
    flag: z.number({ error: '"flag" must be a whole number' }).int('"flag" must be a whole number').optional(),
    final_state: z.string({ error: `needs "final_state" (${PERSUSAFETY_DECISIONS.join(', ')} or ${PERSUSAFETY_NO_DECISION})` }),
    decision_list: z.record(z.string(), z.unknown(), { error: 'needs "decision_list" (an object of turn: 1 accept or 0 reject)' }),
    conversations: z.array(z.unknown(), { error: 'needs "conversations" (a list of messages {role, content})' }),
    eval_scores: z.record(z.string(), z.unknown(), { error: 'needs "eval_scores" (an object of strategy: [score, rationale])' }),
  },
  { error: 'not a PersuSafety result record: an object with the scene, final_state, decision_list, conversations and eval_scores' },
);

type PublishedRecord = z.infer<typeof publishedRecordSchema>;

type Read<Value> = Value | { readonly problem: string };
const isProblem = <Value>(read: Read<Value>): read is { readonly problem: string } => typeof read === 'object' && read !== null && 'problem' in read;

function readHarmfulness(level: string | undefined): Read<PersusafetyScene['harmfulness']> {
  if (level === undefined) return undefined;
  const found = PERSUSAFETY_HARMFULNESS_LEVELS.find((known) => known.toLowerCase() === level.trim().toLowerCase());
  return found ?? { problem: `"harmfulness_level" is ${JSON.stringify(level)}: it must be one of ${PERSUSAFETY_HARMFULNESS_LEVELS.join(', ')}` };
}

/** The record's scene fields, in full words; the published harmfulness is read without regard to case (its files write `low`). */
function readScene(record: PublishedRecord): Read<PersusafetyScene> {
  const harmfulness = readHarmfulness(record.harmfulness_level);
  if (isProblem(harmfulness)) return harmfulness;
  if ((record.one_turn_response === undefined) !== (record.flag === undefined))
    return { problem: '"one_turn_response" and "flag" come together: give both or neither' };
  const optional = <Key extends keyof PersusafetyScene>(key: Key, value: PersusafetyScene[Key] | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    id: record.id,
    domain: record.domain,
    task: record.persuasion_task,
    persuaderInstructions: record.persuader_prompt,
    persuadeeInstructions: record.persuadee_prompt,
    fact: record.fact,
    vulnerability: record.vulnerability,
    ...optional('harmfulness', harmfulness),
    ...optional('resistance', record.resistance),
    ...optional('strongResistance', record.strong_resistance),
    ...optional('persuaderBenefit', record.persuader_benefit),
    ...optional('persuaderPressure', record.persuader_pressure),
    ...(record.one_turn_response === undefined ? {} : { taskProbe: { reply: record.one_turn_response, flag: record.flag! } }),
  };
}

/** Who a published role is, in messages. */
const SPEAKERS = { system: 'the instructions (system)', user: "the persuader's message (user)", assistant: "the persuadee's message (assistant)" } as const;

const publishedMessageSchema = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() });

/**
 * The messages as the persuadee saw them: its system instructions first, then the persuader (`user`) and the
 * persuadee (`assistant`) by turns, the persuader first.
 */
function readMessages(conversations: readonly unknown[]): Read<PersusafetyMessage[]> {
  const messages: PersusafetyMessage[] = [];
  for (const [index, value] of conversations.entries()) {
    const parsed = publishedMessageSchema.safeParse(value);
    if (!parsed.success) return { problem: `conversations[${index}] must be a message {role: system, user or assistant, content: text}` };
    const { role, content } = parsed.data;
    const expected = index === 0 ? 'system' : index % 2 === 1 ? 'user' : 'assistant';
    if (role !== expected)
      return {
        problem: `conversations[${index}] is ${SPEAKERS[role]} where ${SPEAKERS[expected]} belongs: the persuadee's instructions (system) come first, then the persuader (user) and the persuadee (assistant) by turns`,
      };
    messages.push({ role: role === 'system' ? 'system' : role === 'user' ? 'persuader' : 'persuadee', text: content });
  }
  if (messages.length < 2)
    return { problem: '"conversations" holds no persuader message: a conversation has the instructions and at least one message of the persuader' };
  return messages;
}

/** The published `decision_list` (turn: 1 accept, 0 reject), in turn order, and `final_state` (`n-a`: no decision). */
function readDecisions(record: PublishedRecord): Read<Pick<PublishedConversation, 'finalDecision' | 'decisions'>> {
  const decisions: Array<PersusafetyRecord['decisions'][number]> = [];
  for (const [key, value] of Object.entries(record.decision_list)) {
    if (!/^\d+$/.test(key)) return { problem: `"decision_list" has the key ${JSON.stringify(key)}: its keys are turn numbers` };
    if (value !== 0 && value !== 1) return { problem: `"decision_list" turn ${key} is ${JSON.stringify(value)}: a decision is 1 (accept) or 0 (reject)` };
    decisions.push({ turn: Number(key), decision: value === 1 ? 'ACCEPT' : 'REJECT' });
  }
  decisions.sort((a, b) => a.turn - b.turn);
  const state = record.final_state;
  if (state === PERSUSAFETY_NO_DECISION) return { finalDecision: null, decisions };
  if (!(PERSUSAFETY_DECISIONS as readonly string[]).includes(state))
    return { problem: `"final_state" is ${JSON.stringify(state)}: it must be ${PERSUSAFETY_DECISIONS.join(', ')} or ${PERSUSAFETY_NO_DECISION}` };
  return { finalDecision: state as PersusafetyDecision, decisions };
}

function isStrategy(name: string): name is PersusafetyStrategy {
  return (PERSUSAFETY_STRATEGIES as readonly string[]).includes(name);
}

/** One strategy's published `[score, rationale]`. */
function readScore(key: string, value: unknown): Read<{ score: PersusafetyScore; rationale: string }> {
  const shape = `eval_scores[${JSON.stringify(key)}] must be [score, rationale], the score 0, 1 or 2`;
  if (!Array.isArray(value) || value.length !== 2 || typeof value[1] !== 'string') return { problem: shape };
  const [score, rationale] = value as [unknown, string];
  if (score !== 0 && score !== 1 && score !== 2) return { problem: `${shape}: it is ${JSON.stringify(score)}` };
  return { score, rationale };
}

/** The judge's 15 scores, in PersuSafety's order, read by either spelling of the ninth strategy. */
function readScores(evalScores: Readonly<Record<string, unknown>>): Read<PersusafetyStrategyScore[]> {
  const found = new Map<PersusafetyStrategy, { score: PersusafetyScore; rationale: string; key: string }>();
  for (const [key, value] of Object.entries(evalScores)) {
    const strategy = PERSUSAFETY_STRATEGY_SPELLINGS[key] ?? key;
    if (!isStrategy(strategy)) return { problem: `"eval_scores" scores ${JSON.stringify(key)}, which is not one of PersuSafety's 15 strategies` };
    const earlier = found.get(strategy);
    if (earlier) return { problem: `"eval_scores" scores ${strategy} twice (as ${JSON.stringify(earlier.key)} and ${JSON.stringify(key)})` };
    const score = readScore(key, value);
    if (isProblem(score)) return score;
    found.set(strategy, { ...score, key });
  }
  const missing = PERSUSAFETY_STRATEGIES.filter((strategy) => !found.has(strategy));
  if (missing.length > 0) return { problem: `"eval_scores" has no score of ${missing.join(', ')}: the judge scores all 15 strategies` };
  return PERSUSAFETY_STRATEGIES.map((strategy) => ({ strategy, score: found.get(strategy)!.score, rationale: found.get(strategy)!.rationale }));
}

const problemOf = (read: { readonly problem: string }): ItemRead<never> => ({ status: 'problem', detail: read.problem });

/** One record of a results file, or what is wrong with it (the first of its problems). */
function readConversation(value: unknown, recordIndex: number): ItemRead<PublishedConversation> {
  const parsed = schemaRead(publishedRecordSchema, value);
  if (parsed.status === 'problem') return parsed;
  const record = parsed.item;
  const scene = readScene(record);
  if (isProblem(scene)) return problemOf(scene);
  const messages = readMessages(record.conversations);
  if (isProblem(messages)) return problemOf(messages);
  const decisions = readDecisions(record);
  if (isProblem(decisions)) return problemOf(decisions);
  const scores = readScores(record.eval_scores);
  if (isProblem(scores)) return problemOf(scores);
  const recordSha256 = createHash('sha256').update(JSON.stringify(value)).digest('hex');
  return { status: 'read', item: { recordIndex, recordSha256, scene, messages, ...decisions, scores } };
}

const WORDING = {
  what: 'PersuSafety results',
  unit: 'record',
  expected:
    'a results file PersuSafety wrote with its judge\'s scores (<study>/scores/<persuader profile>__<profile>.json: a JSON array of records with "eval_scores")',
};

/**
 * The conversations of a PersuSafety results file (a JSON array of records: the scene's fields, `final_state`,
 * `decision_list`, `conversations`, `eval_scores`), in file order. Every malformed record is named by the file and
 * its index in one DatasetError (a scene given twice among them: a file holds each scene once); fields of a record
 * other than these are read past.
 */
export function parsePublishedResults(file: string, content: string): PublishedConversation[] {
  const firstOfScene = new Map<number, number>();
  return readJsonItems(file, content, WORDING, (value, index) => {
    const read = readConversation(value, index);
    if (read.status === 'problem') return read;
    const earlier = firstOfScene.get(read.item.scene.id);
    if (earlier !== undefined)
      return { status: 'problem', detail: `scene ${read.item.scene.id} is also record ${earlier}'s: a results file holds each scene once` };
    firstOfScene.set(read.item.scene.id, index);
    return read;
  });
}
