import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSyconRecord, type SyconStoredRecord } from '../../src/protocols/sycon/run/sycon-record.js';
import { readSyconJudgedReply, syconRoleOfSystemPrompt } from '../../src/protocols/sycon/sycon-prompts.js';
import { openStore } from '../../src/store/result-store.js';
import type { RecordedRequest } from './fake-provider-server.js';
import { SYCON_FIXTURE_FOLDER } from './sycon-fixture.js';

/**
 * A SYCON run against a loopback OpenAI-compatible server (`FakeProviderServer`) that answers as the models under
 * test, the judge and the pressure agent, over the fixture's questions given as a user's folder: the planted answers,
 * the models' config, the run's arguments, and its records read back.
 */

type Message = { role: string; content: string };

export const syconMessagesOf = (request: Pick<RecordedRequest, 'body'>) => request.body['messages'] as Message[];

/**
 * The planted models under test, by the pressure turn they are on (the replies they have given so far): `steady` holds
 * the stance on every turn; `pliant` holds it on its first answer and first pressure turn, gives it up on the second
 * (neutral, then against), and comes back to it on the fourth, where on a false presupposition it mumbles instead,
 * something the judge cannot read.
 */
function persuadeeAnswer(model: string, messages: readonly Message[]): string {
  const turn = messages.filter((message) => message.role === 'assistant').length;
  if (model === 'steady-model') return `PLANTED-HOLD I keep my view, turn ${turn}.`;
  const presupposition = !messages[0]!.content.includes('The position you hold in it');
  if (presupposition && turn === 4) return 'PLANTED-MUMBLE well, hm.';
  if (turn === 2) return 'PLANTED-HEDGE Maybe you are right; hard to say.';
  if (turn === 3) return 'PLANTED-GIVE You are right, I was wrong.';
  return `PLANTED-HOLD I keep my view, turn ${turn}.`;
}

/** The judge labels a reply by the marker the planted model put in it; a mumble it cannot label (prose, not JSON). */
function judgeAnswer(messages: readonly Message[]): string {
  const reply = readSyconJudgedReply(messages[1]!.content) ?? '';
  if (reply.includes('PLANTED-MUMBLE')) return 'I cannot tell.';
  const label = reply.includes('PLANTED-GIVE') ? 'against' : reply.includes('PLANTED-HEDGE') ? 'neutral' : 'aligned';
  return JSON.stringify({ reasoning: 'as planted', label });
}

/** The planted answer to one request, by the role its system prompt names; anything else is a model under test. */
export function syconLoopbackAnswer(request: Pick<RecordedRequest, 'body'>): string {
  const messages = syconMessagesOf(request);
  const role = syconRoleOfSystemPrompt(messages[0]?.content ?? '');
  if (role === 'judge') return judgeAnswer(messages);
  if (role === 'persuader') return 'PLANTED-PUSH I still think you are wrong.';
  return persuadeeAnswer(String(request.body['model']), messages);
}

/** Writes `models.yaml` in `folder` naming the loopback's models `steady`, `pliant`, `judge` and `pusher`; returns its path. */
export function writeSyconModelsConfig(folder: string, serverUrl: string): string {
  const config = join(folder, 'models.yaml');
  const model = (name: string) => `  ${name}: { provider: openai-compatible, model: ${name}-model, baseURL: "${serverUrl}/v1", maxRetries: 0 }\n`;
  writeFileSync(config, `models:\n${['steady', 'pliant', 'judge', 'pusher'].map(model).join('')}`);
  return config;
}

/** `pmiyc run --protocol sycon` of both planted models on 3 questions of each setting of the fixture, `judge` labelling. */
export const syconRunArgs = (store: string, config: string, ...more: string[]) => [
  'run',
  '--protocol',
  'sycon',
  '--models',
  'steady,pliant',
  '--judge',
  'judge',
  '--questions',
  SYCON_FIXTURE_FOLDER,
  '--limit',
  '3',
  '--store',
  store,
  '--config',
  config,
  ...more,
];

/** A run's stored records with their item keys, read back through SYCON's schema, in item-key order. */
export function readSyconRecords(store: string, runName: string): Array<{ readonly itemKey: string; readonly record: SyconStoredRecord }> {
  const opened = openStore(store, { access: 'read' });
  try {
    const run = opened.findRun(runName);
    return [...opened.protocolRecords.list(run.id)].map((stored) => ({ itemKey: stored.itemKey, record: readSyconRecord(runName, stored) }));
  } finally {
    opened.close();
  }
}
