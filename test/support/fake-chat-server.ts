import { createHash } from 'node:crypto';
import { FakeProviderServer, type FakeResponse, RESPONSE_SHAPES, type RecordedRequest } from './fake-provider-server.js';

const LABELS = ['Completely Oppose', 'Oppose', 'Neutral', 'Support', 'Completely Support'];

/**
 * An OpenAI-compatible chat server on loopback that plays both roles of a tournament: every
 * reply is valid tagged text whose score is a deterministic function of the request, so that
 * identical requests get identical replies and a resumed run can equal an uninterrupted one.
 */
export async function startFakeChatServer(options: { delayMs?: number; respond?: (request: RecordedRequest, index: number) => FakeResponse | undefined } = {}) {
  const server = await FakeProviderServer.start();
  server.answerWith((request, index) => {
    const custom = options.respond?.(request, index);
    if (custom) return custom;
    const digest = createHash('sha256').update(JSON.stringify(request.body)).digest();
    const label = LABELS[digest[0]! % LABELS.length]!;
    const text = `<message>Reply ${digest.toString('hex').slice(0, 8)} from ${String(request.body['model'])}.</message>\n<support_ranking>${label}</support_ranking>`;
    // Usage as a real server reports it: about four characters per token.
    const promptChars = JSON.stringify(request.body['messages']).length;
    const body = {
      ...RESPONSE_SHAPES.openaiChat(text),
      usage: { prompt_tokens: Math.ceil(promptChars / 4), completion_tokens: Math.ceil(text.length / 4), total_tokens: 0 },
    };
    return { status: 200, body, ...(options.delayMs ? { delayMs: options.delayMs } : {}) };
  });
  return server;
}

/** Requests whose system prompt makes them an opening (the persuadee's first turn). */
export function isOpening(request: RecordedRequest): boolean {
  const messages = request.body['messages'] as Array<{ role: string; content: string }>;
  return messages.length === 2 && messages[0]!.content.includes('PERSUADEE');
}

export function isFirstArgument(request: RecordedRequest): boolean {
  const messages = request.body['messages'] as Array<{ role: string; content: string }>;
  return messages.length === 2 && messages[0]!.content.includes('PERSUADER');
}
