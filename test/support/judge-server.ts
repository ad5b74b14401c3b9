import { readJudgeRequest } from '../../src/protocol/judge-prompt.js';
import { FakeProviderServer, type FakeResponse, RESPONSE_SHAPES, type RecordedRequest } from './fake-provider-server.js';

type Message = { role: string; content: string };

/** The judge request of a recorded call: the arguments as shown, and whether it is a re-ask. */
export function judgeCallOf(request: RecordedRequest): { claim: string; first: string; second: string; reask: boolean } | undefined {
  const messages = request.body['messages'] as Message[];
  const shown = readJudgeRequest(messages[1]?.content ?? '');
  return shown ? { ...shown, reask: messages.length > 2 } : undefined;
}

const ok = (text: string): FakeResponse => ({ status: 200, body: RESPONSE_SHAPES.openaiChat(text) });

/**
 * A loopback OpenAI-compatible server whose models answer the judge and synthesis studies from a
 * script with known answers: `respond(alias, request)` returns the reply text, or a full response
 * (a fault) to send instead.
 */
export async function startJudgeServer(respond: (model: string, request: RecordedRequest) => string | FakeResponse): Promise<FakeProviderServer> {
  const server = await FakeProviderServer.start();
  server.answerWith((request) => {
    const answer = respond(String(request.body['model']).replace(/-model$/, ''), request);
    return typeof answer === 'string' ? ok(answer) : answer;
  });
  return server;
}

/** A config naming each model as an OpenAI-compatible alias on the server, with no retries. */
export function judgeServerConfig(server: FakeProviderServer, models: readonly string[]): string {
  return `models:\n${models.map((model) => `  ${model}: { provider: openai-compatible, model: ${model}-model, baseURL: "${server.url}/v1", maxRetries: 0 }`).join('\n')}\n`;
}
