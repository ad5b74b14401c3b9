import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apeRoleOfSystemPrompt } from '../../src/protocols/ape/ape-prompts.js';
import { isApeRefusalCheckSystemPrompt } from '../../src/protocols/ape/ape-refusal-check.js';
import { type ApeStoredRecord, readApeRecord } from '../../src/protocols/ape/run/ape-record.js';
import { openStore } from '../../src/store/result-store.js';
import type { RecordedRequest } from './fake-provider-server.js';

/**
 * What the CLI tests of `pmiyc run --protocol ape` share: the 12 fixture topics given as a user's own topic
 * file, a loopback server's planted answers as persuader, persuadee, evaluator and refusal check, the models
 * file that points every model at that server, the run's arguments, and reading the stored records back.
 *
 * The planted persuaders: `willing` attempts on every turn; `careful` refuses on the two harmful categories,
 * attempts on turn 1 elsewhere and makes no attempt on the later turns there. The evaluator classes each
 * message by the marker the persuader put in it; the persuadee always answers a belief of 30.
 */

type Message = { role: string; content: string };

export const APE_TOPICS_SAMPLE = join(import.meta.dirname, '../fixtures/data/benchmarks/ape/src/topics/diverse_topics.sample.jsonl');
export const APE_HARMFUL = new Set(['NoncontroversiallyHarmful', 'UnderminingControl']);

/** The category of each fixture topic, by its statement. */
const categoryOf = new Map(
  readFileSync(APE_TOPICS_SAMPLE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { text: string; category: string })
    .map((topic) => [topic.text, topic.category]),
);

export const apeMessagesOf = (request: RecordedRequest) => request.body['messages'] as Message[];

function persuaderAnswer(model: string, messages: readonly Message[]): string {
  const statement = /The statement: "(.*)"/.exec(messages[0]!.content)?.[1] ?? '';
  const turn = messages.filter((message) => message.role === 'assistant').length + 1;
  if (model === 'willing-model') return `PLANTED-ATTEMPT You should believe it, turn ${turn}.`;
  if (APE_HARMFUL.has(categoryOf.get(statement) ?? '')) return 'PLANTED-REFUSAL I will not argue for that.';
  return turn === 1 ? 'PLANTED-ATTEMPT Here is why it holds.' : 'PLANTED-NONE Anyway, how is the weather where you are?';
}

function evaluatorAnswer(messages: readonly Message[]): string {
  const latest = messages[1]!.content.split("The AI's latest message, the one to judge:")[1] ?? '';
  const turnClass = latest.includes('PLANTED-REFUSAL') ? 'refusal' : latest.includes('PLANTED-ATTEMPT') ? 'attempt' : 'no-attempt';
  return JSON.stringify({ reasoning: 'as planted', class: turnClass, degree: turnClass === 'attempt' ? 1 : 0 });
}

function refusalCheckAnswer(messages: readonly Message[]): string {
  const answer = messages[1]!.content.split("The AI's answer, the one to grade:")[1] ?? '';
  return JSON.stringify({ reasoning: 'as planted', refused: answer.includes('PLANTED-REFUSAL'), convincing: 3, specific: 3 });
}

/** The planted answer to one request, by the role its system prompt names. */
export function apePlantedAnswer(request: RecordedRequest): string {
  const messages = apeMessagesOf(request);
  if (isApeRefusalCheckSystemPrompt(messages[0]?.content ?? '')) return refusalCheckAnswer(messages);
  const role = apeRoleOfSystemPrompt(messages[0]?.content ?? '');
  if (role === 'persuader') return persuaderAnswer(String(request.body['model']), messages);
  if (role === 'evaluator') return evaluatorAnswer(messages);
  return 'I am not so sure about that, but I hear you.\nBelief: 30';
}

/** A models file in `folder` whose models willing, careful, person and judge are all served by the loopback server. */
export function writeApeModelsConfig(folder: string, serverUrl: string): string {
  const config = join(folder, 'models.yaml');
  const model = (name: string) => `  ${name}: { provider: openai-compatible, model: ${name}-model, baseURL: "${serverUrl}/v1", maxRetries: 0 }\n`;
  writeFileSync(config, `models:\n${['willing', 'careful', 'person', 'judge'].map(model).join('')}`);
  return config;
}

/** `pmiyc run --protocol ape` of both planted persuaders on the fixture topics. */
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
  APE_TOPICS_SAMPLE,
  '--store',
  store,
  '--config',
  config,
  ...more,
];

/** A run's stored records, read by APE's schema, in item order. */
export function readApeRecords(store: string, runName: string): ApeStoredRecord[] {
  const opened = openStore(store, { access: 'read' });
  try {
    const run = opened.findRun(runName);
    return [...opened.protocolRecords.list(run.id)].map((stored) => readApeRecord(runName, stored));
  } finally {
    opened.close();
  }
}
