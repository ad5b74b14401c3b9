import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { APE_HARMFUL_CATEGORIES } from '../../src/protocols/ape/ape-facts.js';
import { apeRoleOfSystemPrompt } from '../../src/protocols/ape/ape-prompts.js';
import { isApeRefusalCheckSystemPrompt } from '../../src/protocols/ape/ape-refusal-check.js';
import { type ApeStoredRecord, readApeRecord } from '../../src/protocols/ape/run/ape-record.js';
import { openStore } from '../../src/store/result-store.js';
import type { RecordedRequest } from './fake-provider-server.js';

/**
 * An APE run against a loopback OpenAI-compatible server (`FakeProviderServer`) that answers as persuader,
 * persuadee, evaluator and refusal check, over the 12 fixture topics given as a user's own topic file: the
 * planted answers, the models' config, the run's arguments, and its records read back.
 */

type Message = { role: string; content: string };

/** The 12 fixture topics (two per category), as a topic file a user gives with --topics. */
export const APE_FIXTURE_TOPICS = join(import.meta.dirname, '../fixtures/data/benchmarks/ape/src/topics/diverse_topics.sample.jsonl');

const HARMFUL: ReadonlySet<string> = new Set(APE_HARMFUL_CATEGORIES);

/** The category of each fixture topic, by its statement. */
const categoryOf = new Map(
  readFileSync(APE_FIXTURE_TOPICS, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { text: string; category: string })
    .map((topic) => [topic.text, topic.category]),
);

export const apeMessagesOf = (request: Pick<RecordedRequest, 'body'>) => request.body['messages'] as Message[];

/**
 * The planted persuaders: `willing` attempts on every turn; `careful` refuses on the two harmful categories,
 * attempts on turn 1 elsewhere, and makes no attempt on the later turns there.
 */
function persuaderAnswer(model: string, messages: readonly Message[]): string {
  const statement = /The statement: "(.*)"/.exec(messages[0]!.content)?.[1] ?? '';
  const turn = messages.filter((message) => message.role === 'assistant').length + 1;
  if (model === 'willing-model') return `PLANTED-ATTEMPT You should believe it, turn ${turn}.`;
  if (HARMFUL.has(categoryOf.get(statement) ?? '')) return 'PLANTED-REFUSAL I will not argue for that.';
  return turn === 1 ? 'PLANTED-ATTEMPT Here is why it holds.' : 'PLANTED-NONE Anyway, how is the weather where you are?';
}

/** The evaluator classes the latest persuader message by the marker the planted persuader put in it. */
function evaluatorAnswer(messages: readonly Message[]): string {
  const latest = messages[1]!.content.split("The AI's latest message, the one to judge:")[1] ?? '';
  const turnClass = latest.includes('PLANTED-REFUSAL') ? 'refusal' : latest.includes('PLANTED-ATTEMPT') ? 'attempt' : 'no-attempt';
  return JSON.stringify({ reasoning: 'as planted', class: turnClass, degree: turnClass === 'attempt' ? 1 : 0 });
}

/** The refusal check says an answer refused when the planted persuader marked it so. */
function refusalCheckAnswer(messages: readonly Message[]): string {
  const answer = messages[1]!.content.split("The AI's answer, the one to grade:")[1] ?? '';
  return JSON.stringify({ reasoning: 'as planted', refused: answer.includes('PLANTED-REFUSAL'), convincing: 3, specific: 3 });
}

/**
 * The planted answer to one request (its OpenAI-shaped body: a chat server's request, or a batch line's), by the
 * role its system prompt names; the persuadee always answers belief 30.
 */
export function apeLoopbackAnswer(request: Pick<RecordedRequest, 'body'>): string {
  const messages = apeMessagesOf(request);
  if (isApeRefusalCheckSystemPrompt(messages[0]?.content ?? '')) return refusalCheckAnswer(messages);
  const role = apeRoleOfSystemPrompt(messages[0]?.content ?? '');
  if (role === 'persuader') return persuaderAnswer(String(request.body['model']), messages);
  if (role === 'evaluator') return evaluatorAnswer(messages);
  return 'I am not so sure about that, but I hear you.\nBelief: 30';
}

/** Writes `models.yaml` in `folder` naming the loopback's models `willing`, `careful`, `person` and `judge`; returns its path. */
export function writeApeModelsConfig(folder: string, serverUrl: string): string {
  const config = join(folder, 'models.yaml');
  const model = (name: string) => `  ${name}: { provider: openai-compatible, model: ${name}-model, baseURL: "${serverUrl}/v1", maxRetries: 0 }\n`;
  writeFileSync(config, `models:\n${['willing', 'careful', 'person', 'judge'].map(model).join('')}`);
  return config;
}

/** `pmiyc run --protocol ape` of both planted persuaders on the fixture topics, `person` persuaded and `judge` evaluating. */
export const apeRunArgs = (store: string, config: string, ...more: string[]) => [
  'run',
  '--protocol',
  'ape',
  '--models',
  'willing,careful',
  '--persuadee',
  'person',
  '--evaluator',
  'judge',
  '--topics',
  APE_FIXTURE_TOPICS,
  '--store',
  store,
  '--config',
  config,
  ...more,
];

/** A run's stored records with their item keys, read back through APE's schema, in item-key order. */
export function readApeRecords(store: string, runName: string): Array<{ readonly itemKey: string; readonly record: ApeStoredRecord }> {
  const opened = openStore(store, { access: 'read' });
  try {
    const run = opened.findRun(runName);
    return [...opened.protocolRecords.list(run.id)].map((stored) => ({ itemKey: stored.itemKey, record: readApeRecord(runName, stored) }));
  } finally {
    opened.close();
  }
}
