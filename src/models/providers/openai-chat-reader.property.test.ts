import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../../test/support/fuzz-runs.js';
import { RawHttpServer } from '../../../test/support/raw-http-server.js';
import type { GenerateRequest } from '../chat-model.js';
import { isModelCallError } from '../model-call-error.js';
import { OpenAiChatModel } from './openai-chat-model.js';

// Whatever bytes a server sends, the HTTP transport and the OpenAI chat adapter give a reply or a
// ModelCallError (which the retry layer and the run know how to handle): never a crash, a TypeError or
// an untyped rejection. The server writes each generated reply and closes the connection.

const runs = fuzzRuns(200);
const request: GenerateRequest = { messages: [{ role: 'user', content: 'Where do you stand?' }], temperature: 0.7, maxOutputTokens: 400, seed: 7 };

const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.constant('<message>Fair.</message>\n<support_ranking>Support</support_ranking>'));
const completion = fc.record(
  {
    id: fc.string({ maxLength: 8 }),
    choices: fc.oneof(
      fc.array(
        fc.record(
          {
            message: fc.oneof(
              fc.record({ role: fc.constant('assistant'), content: fc.oneof(text, fc.constant(null), fc.integer()) }, { requiredKeys: [] }),
              fc.constant(null),
            ),
            finish_reason: fc.oneof(fc.constantFrom('stop', 'length', 'content_filter', 'tool_calls'), fc.constant(null), fc.integer()),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 2 },
      ),
      fc.constant(null),
      fc.string({ maxLength: 5 }),
    ),
    usage: fc.oneof(
      fc.record(
        { prompt_tokens: fc.oneof(fc.nat(), fc.double(), fc.string({ maxLength: 3 })), completion_tokens: fc.oneof(fc.nat(), fc.constant(-1)) },
        { requiredKeys: [] },
      ),
      fc.constant(null),
    ),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  completion.map((value) => JSON.stringify(value)),
  fc.json({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
);
const statusLine = fc.oneof(
  fc.constant('HTTP/1.1 200 OK'),
  fc.integer({ min: 100, max: 599 }).map((code) => `HTTP/1.1 ${code} Status`),
  fc.constantFrom('HTTP/1.0 200 OK', 'HTTP/1.1 200', 'HTTP/2 200 OK', 'HTTP/1.1 2000 OK', 'http/1.1 200 ok', ''),
  fc.string({ unit: 'binary', maxLength: 30 }),
);
const header = fc.oneof(
  fc.tuple(fc.constantFrom('Content-Type', 'Retry-After', 'Connection', 'Content-Encoding', 'X-Request-Id', 'Upgrade'), fc.string({ maxLength: 20 })),
  fc.tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 20 })),
);
/** How the body is framed: its true length, a made-up one, chunks (well formed or not) or the connection's end. */
type Framing = 'length' | 'chunked' | 'close' | { readonly length: string } | { readonly chunks: string };
const framing = fc.oneof(
  fc.constantFrom<Framing>('length', 'chunked', 'close'),
  fc.stringMatching(/^[0-9]{1,16}$/).map((digits): Framing => ({ length: digits })),
  fc.string({ maxLength: 12 }).map((chunks): Framing => ({ chunks })),
);

function responseBytes(status: string, headers: ReadonlyArray<readonly [string, string]>, how: Framing, payload: string, lineEnd: string): Buffer {
  const lines = [status, ...headers.map(([name, value]) => `${name}: ${value}`)];
  let rest = payload;
  if (how === 'length') lines.push(`Content-Length: ${Buffer.byteLength(payload)}`);
  else if (how === 'chunked') {
    lines.push('Transfer-Encoding: chunked');
    rest = `${Buffer.byteLength(payload).toString(16)}\r\n${payload}\r\n0\r\n\r\n`;
  } else if (typeof how === 'object' && 'length' in how) lines.push(`Content-Length: ${how.length}`);
  else if (typeof how === 'object') {
    lines.push('Transfer-Encoding: chunked');
    rest = `${how.chunks}\r\n${payload}`;
  }
  return Buffer.from(`${lines.join(lineEnd)}${lineEnd}${lineEnd}${rest}`, 'utf8');
}

/** A valid chat completion, framed in any of the ways HTTP/1.1 allows, and the text it carries. */
const wellFormedWithText = fc
  .tuple(
    text,
    fc.constantFrom('stop', 'length', 'content_filter'),
    fc.constantFrom<Framing>('length', 'chunked', 'close'),
    fc.constantFrom(...([[], [['Connection', 'close']]] as const)),
  )
  .map(([content, finish, how, headers]) => ({
    content,
    bytes: responseBytes(
      'HTTP/1.1 200 OK',
      [['Content-Type', 'application/json'], ...headers],
      how,
      JSON.stringify({ choices: [{ message: { role: 'assistant', content }, finish_reason: finish }] }),
      '\r\n',
    ),
  }));
const wellFormed = wellFormedWithText.map(({ bytes }) => bytes);

const reply = fc.oneof(
  { weight: 2, arbitrary: wellFormed },
  {
    weight: 2,
    arbitrary: fc.tuple(wellFormed, fc.double({ min: 0, max: 1, noNaN: true })).map(([bytes, cut]) => bytes.subarray(0, Math.floor(bytes.length * cut))),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(statusLine, fc.array(header, { maxLength: 4 }), framing, body, fc.constantFrom('\r\n', '\r\n', '\n'))
      .map(([s, h, f, b, e]) => responseBytes(s, h, f, b, e)),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)) },
);

let server: RawHttpServer;
let current: Buffer = Buffer.alloc(0);
beforeAll(async () => {
  server = await RawHttpServer.start(({ socket }) => {
    socket.end(current);
  });
});
afterAll(() => server.close());

async function outcomeOf(model: OpenAiChatModel, bytes: Buffer) {
  current = bytes;
  return model.generate(request).then(
    (answer) => ({ answer }),
    (error: unknown) => ({ error }),
  );
}

const chatModel = () => new OpenAiChatModel({ name: 'local/m', provider: 'openai-compatible', model: 'm', baseURL: `${server.url}/v1`, timeoutMs: 5000 });

describe('the OpenAI chat adapter on generated server replies', () => {
  it('reads the text of every well-formed completion, however it is framed', async () => {
    const model = chatModel();
    await fc.assert(
      fc.asyncProperty(wellFormedWithText, async ({ content, bytes }) => {
        expect(await outcomeOf(model, bytes)).toMatchObject({ answer: { text: content } });
      }),
      { numRuns: Math.ceil(runs / 4) },
    );
  });

  it('gives a reply or a ModelCallError for any bytes a server sends, never a crash or an untyped error', async () => {
    const seen = { answers: 0, errors: 0 };
    const model = chatModel();
    await fc.assert(
      fc.asyncProperty(reply, async (bytes) => {
        const outcome = await outcomeOf(model, bytes);
        if ('answer' in outcome) {
          seen.answers += 1;
          expect(typeof outcome.answer.text).toBe('string');
          expect(['stop', 'length', 'content-filter', 'error', 'other']).toContain(outcome.answer.finishReason);
        } else {
          seen.errors += 1;
          expect(isModelCallError(outcome.error), String(outcome.error)).toBe(true);
        }
      }),
      { numRuns: runs },
    );
    // The generated replies reach both ends: some are read, most are refused.
    expect(seen.answers).toBeGreaterThan(0);
    expect(seen.errors).toBeGreaterThan(seen.answers);
  });
});
