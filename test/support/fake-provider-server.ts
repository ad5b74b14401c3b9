import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the server does with one request. */
export type FakeResponse =
  | { readonly status: number; readonly body: unknown; readonly headers?: Record<string, string>; readonly delayMs?: number }
  | { readonly raw: string; readonly status?: number; readonly headers?: Record<string, string> }
  | 'reset'
  | 'hang';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
  /** The body's bytes as they came, as text. */
  readonly rawBody: string;
  readonly receivedAtMs: number;
}

/**
 * A provider on 127.0.0.1 that answers from a script, replaying real response shapes and
 * injecting faults (status codes with headers, malformed JSON, connection resets, hangs).
 * Records every request. Close it in afterEach/afterAll: it destroys open sockets.
 */
export class FakeProviderServer {
  readonly requests: RecordedRequest[] = [];
  /**
   * True: `GET …/models` (what a run asks before it starts, to check that a model answers) gets an empty
   * list and is neither recorded nor scripted, so that the requests are the calls a run makes. False: it is
   * a request like any other.
   */
  listsModels = true;
  /** How many lists of models it gave (see `listsModels`). */
  modelListings = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private script: (request: RecordedRequest, index: number) => FakeResponse = () => ({ status: 500, body: { error: 'no script' } });

  private constructor() {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<FakeProviderServer> {
    const fake = new FakeProviderServer();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers request i (0-based) with responses[i], repeating the last one. */
  reply(...responses: FakeResponse[]): void {
    this.requests.length = 0;
    this.script = (_request, index) => responses[Math.min(index, responses.length - 1)]!;
  }

  answerWith(script: (request: RecordedRequest, index: number) => FakeResponse): void {
    this.requests.length = 0;
    this.script = script;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    if (this.listsModels && request.method === 'GET' && request.url?.endsWith('/models')) {
      this.modelListings += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [] }));
      return;
    }
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      rawBody: text,
      receivedAtMs: Date.now(),
    };
    this.requests.push(recorded);
    const answer = this.script(recorded, this.requests.length - 1);
    if (answer === 'reset') return void request.socket.destroy();
    if (answer === 'hang') return;
    const headers = { 'content-type': 'application/json', ...answer.headers };
    if ('raw' in answer) {
      response.writeHead(answer.status ?? 200, headers).end(answer.raw);
      return;
    }
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (response.destroyed) return;
    response.writeHead(answer.status, headers).end(JSON.stringify(answer.body));
  }
}

/** Real response shapes (trimmed to what clients read), as the providers document them. */
export const RESPONSE_SHAPES = {
  openaiChat: (text: string) => ({
    id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
    object: 'chat.completion',
    created: 1741570283,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: 1117,
      completion_tokens: 46,
      total_tokens: 1163,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_06737a9306',
  }),
  openaiChatWithoutUsage: (text: string) => ({
    id: 'cmpl-1',
    object: 'chat.completion',
    created: 1741570283,
    model: 'local-model',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
  }),
  openaiError: (message: string, type: string, code: string | null) => ({ error: { message, type, param: null, code } }),
  anthropicMessage: (text: string) => ({
    id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
    type: 'message',
    role: 'assistant',
    model: 'claude-3-5-haiku-20241022',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 2095, output_tokens: 503, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  }),
  /** A reply asked for as a tool's input (tool_choice forcing the tool): the answer is the tool_use block's input. */
  anthropicToolUse: (name: string, input: unknown) => ({
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    model: 'claude-3-5-haiku-20241022',
    content: [{ type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name, input }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 612, output_tokens: 41, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  }),
  anthropicError: (type: string, message: string) => ({ type: 'error', error: { type, message } }),
  geminiContent: (text: string) => ({
    candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', avgLogprobs: -0.12, index: 0 }],
    usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 30, totalTokenCount: 150, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 120 }] },
    modelVersion: 'gemini-2.0-flash',
    responseId: 'abc123',
  }),
  geminiSafety: () => ({
    candidates: [{ finishReason: 'SAFETY', index: 0, safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'HIGH', blocked: true }] }],
    usageMetadata: { promptTokenCount: 120, totalTokenCount: 120 },
    modelVersion: 'gemini-2.0-flash',
  }),
};
