import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { RESPONSE_SHAPES } from './fake-provider-server.js';

const LABELS = ['Completely Oppose', 'Oppose', 'Neutral', 'Support', 'Completely Support'];

/** What becomes of one line of a batch: answered, failed with an HTTP status, or left unanswered (expired). */
export type LineFate = 'succeeded' | 'expired' | { readonly status: number; readonly errorType: string };

export interface FakeBatchServerOptions {
  readonly format: 'openai' | 'anthropic';
  /** A line's fate (every line succeeds unless this says otherwise); `batchIndex` counts batches from 0. */
  readonly fate?: (customId: string, body: Record<string, unknown>, batchIndex: number) => LineFate;
  /** A line's answer text (default: tagged text whose score is a function of the body). */
  readonly answer?: (body: Record<string, unknown>) => string;
}

interface FakeBatch {
  readonly id: string;
  readonly index: number;
  readonly lines: ReadonlyArray<{ readonly custom_id: string; readonly body: Record<string, unknown> }>;
  readonly metadata: Record<string, string>;
  state: 'in_progress' | 'ended' | 'cancelled';
  outputFileId?: string;
  errorFileId?: string;
  results?: string;
}

/**
 * Valid tagged text whose score is a function of the request body: identical requests get identical
 * replies, and the same ones as `startFakeChatServer` gives (so a batched run can be compared with a direct one).
 */
function replyText(body: Record<string, unknown>): string {
  const digest = createHash('sha256').update(JSON.stringify(body)).digest();
  const label = LABELS[digest[0]! % LABELS.length]!;
  return `<message>Reply ${digest.toString('hex').slice(0, 8)} from ${String(body['model'])}.</message>\n<support_ranking>${label}</support_ranking>`;
}

/**
 * OpenAI's Batch API (files, batches, file contents) or Anthropic's Message Batches on 127.0.0.1, in
 * the shapes the providers document, for tests. Batches end when polled unless `hold` is set (then
 * they stay in progress until `hold` is cleared: a batch pending across a kill). Records every
 * request and every line submitted. Close it in afterEach/finally.
 */
export class FakeBatchServer {
  readonly requests: Array<{ readonly method: string; readonly path: string }> = [];
  readonly batches: FakeBatch[] = [];
  hold = false;
  private readonly files = new Map<string, string>();
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly options: FakeBatchServerOptions) {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Serves `text` as an ended batch's results (its output file, for OpenAI) instead of what its lines' fates made: a hostile provider. */
  replaceResults(batch: FakeBatch, text: string): void {
    if (batch.outputFileId !== undefined) this.files.set(batch.outputFileId, text);
    else batch.results = text;
  }

  static async start(options: FakeBatchServerOptions): Promise<FakeBatchServer> {
    const fake = new FakeBatchServer(options);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Every custom id ever submitted, in order (a request paid twice appears twice). */
  submittedIds(): string[] {
    return this.batches.flatMap((batch) => batch.lines.map((line) => line.custom_id));
  }

  /** Requests that created a batch (a file upload is not one). */
  batchCreations(): number {
    return this.requests.filter((request) => request.method === 'POST' && /\/batches$/.test(request.path)).length;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    const method = request.method ?? '';
    const path = request.url ?? '';
    // The list of models a run asks for before it starts (to check that the model answers): given, not recorded.
    if (method === 'GET' && path === '/v1/models') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [] }));
      return;
    }
    this.requests.push({ method, path });
    const send = (status: number, body: unknown, type = 'application/json'): void => {
      response.writeHead(status, { 'content-type': type }).end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const answer = this.options.format === 'openai' ? this.openai(method, path, text, request) : this.anthropic(method, path, text);
    if (answer === undefined) return send(404, { error: { message: `no route ${method} ${path}`, type: 'invalid_request_error' } });
    send(answer.status ?? 200, answer.body, answer.type);
  }

  // ---- OpenAI ----

  private openai(method: string, path: string, text: string, request: IncomingMessage): { status?: number; body: unknown; type?: string } | undefined {
    if (method === 'POST' && path === '/v1/files') {
      const boundary = /boundary=(.+)$/.exec(request.headers['content-type'] ?? '')?.[1];
      const part = text.split(`--${boundary}`).find((chunk) => chunk.includes('name="file"'));
      const purpose = text.includes('name="purpose"\r\n\r\nbatch\r\n');
      if (!part || !purpose) return { status: 400, body: { error: { message: 'expected purpose=batch and a file', type: 'invalid_request_error' } } };
      const content = part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, '');
      const id = `file-${this.files.size + 1}`;
      this.files.set(id, content);
      return { body: { id, object: 'file', bytes: content.length, created_at: 1741570000, filename: 'pmiyc-batch.jsonl', purpose: 'batch' } };
    }
    if (method === 'POST' && path === '/v1/batches') {
      const created = JSON.parse(text) as { input_file_id: string; endpoint: string; completion_window: string; metadata?: Record<string, string> };
      const lines = (this.files.get(created.input_file_id) ?? '')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { custom_id: string; url: string; body: Record<string, unknown> });
      if (created.endpoint !== '/v1/chat/completions' || created.completion_window !== '24h' || lines.some((line) => line.url !== created.endpoint)) {
        return { status: 400, body: { error: { message: 'bad batch', type: 'invalid_request_error' } } };
      }
      const batch: FakeBatch = {
        id: `batch_${this.batches.length + 1}`,
        index: this.batches.length,
        lines,
        metadata: created.metadata ?? {},
        state: 'in_progress',
      };
      this.batches.push(batch);
      return { body: this.openaiBatch(batch) };
    }
    if (method === 'GET' && path.startsWith('/v1/batches?'))
      return { body: { object: 'list', data: [...this.batches].reverse().map((b) => this.openaiBatch(b)) } };
    const batchMatch = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
    const batch = batchMatch ? this.batches.find((candidate) => candidate.id === batchMatch[1]) : undefined;
    if (batchMatch && !batch) return { status: 404, body: { error: { message: 'No batch found', type: 'invalid_request_error' } } };
    if (batch && method === 'POST' && batchMatch?.[2]) {
      batch.state = 'cancelled';
      this.finishOpenai(batch);
      return { body: this.openaiBatch(batch) };
    }
    if (batch && method === 'GET') {
      if (batch.state === 'in_progress' && !this.hold) {
        batch.state = 'ended';
        this.finishOpenai(batch);
      }
      return { body: this.openaiBatch(batch) };
    }
    const fileMatch = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (fileMatch && method === 'GET') return { body: this.files.get(fileMatch[1]!) ?? '', type: 'application/octet-stream' };
    return undefined;
  }

  private openaiBatch(batch: FakeBatch): Record<string, unknown> {
    const status = batch.state === 'in_progress' ? 'in_progress' : batch.state === 'cancelled' ? 'cancelled' : 'completed';
    const failed = batch.state === 'in_progress' ? 0 : batch.lines.filter((line) => this.fateOf(batch, line) !== 'succeeded').length;
    return {
      id: batch.id,
      object: 'batch',
      endpoint: '/v1/chat/completions',
      errors: null,
      input_file_id: `file-${batch.index + 1}`,
      completion_window: '24h',
      status,
      output_file_id: batch.outputFileId ?? null,
      error_file_id: batch.errorFileId ?? null,
      created_at: 1741570100,
      in_progress_at: 1741570110,
      expires_at: 1741656500,
      completed_at: batch.state === 'ended' ? 1741570900 : null,
      request_counts: { total: batch.lines.length, completed: batch.state === 'in_progress' ? 0 : batch.lines.length - failed, failed },
      metadata: batch.metadata,
    };
  }

  private finishOpenai(batch: FakeBatch): void {
    const output: string[] = [];
    const errors: string[] = [];
    batch.lines.forEach((line, index) => {
      const fate = batch.state === 'cancelled' ? 'expired' : this.fateOf(batch, line);
      const id = `batch_req_${batch.index}_${index}`;
      if (fate === 'succeeded') {
        const text = (this.options.answer ?? replyText)(line.body);
        const body = { ...RESPONSE_SHAPES.openaiChat(text), usage: { prompt_tokens: 100, completion_tokens: Math.ceil(text.length / 4), total_tokens: 0 } };
        output.push(JSON.stringify({ id, custom_id: line.custom_id, response: { status_code: 200, request_id: `req_${index}`, body }, error: null }));
      } else if (fate === 'expired') {
        const code = batch.state === 'cancelled' ? 'batch_cancelled' : 'batch_expired';
        errors.push(
          JSON.stringify({
            id,
            custom_id: line.custom_id,
            response: null,
            error: { code, message: 'This request could not be executed before the batch ended.' },
          }),
        );
      } else {
        const body = RESPONSE_SHAPES.openaiError('The line failed.', fate.errorType, null);
        errors.push(JSON.stringify({ id, custom_id: line.custom_id, response: { status_code: fate.status, request_id: `req_${index}`, body }, error: null }));
      }
    });
    if (output.length > 0) {
      batch.outputFileId = `file-out-${batch.index + 1}`;
      this.files.set(batch.outputFileId, `${output.join('\n')}\n`);
    }
    if (errors.length > 0) {
      batch.errorFileId = `file-err-${batch.index + 1}`;
      this.files.set(batch.errorFileId, `${errors.join('\n')}\n`);
    }
  }

  // ---- Anthropic ----

  private anthropic(method: string, path: string, text: string): { status?: number; body: unknown; type?: string } | undefined {
    if (method === 'POST' && path === '/v1/messages/batches') {
      const { requests } = JSON.parse(text) as { requests: Array<{ custom_id: string; params: Record<string, unknown> }> };
      if (requests.some((line) => !/^[a-zA-Z0-9_-]{1,64}$/.test(line.custom_id))) {
        return { status: 400, body: RESPONSE_SHAPES.anthropicError('invalid_request_error', 'custom_id: invalid') };
      }
      const batch: FakeBatch = {
        id: `msgbatch_${this.batches.length + 1}`,
        index: this.batches.length,
        lines: requests.map((line) => ({ custom_id: line.custom_id, body: line.params })),
        metadata: {},
        state: 'in_progress',
      };
      this.batches.push(batch);
      return { body: this.anthropicBatch(batch) };
    }
    const match = /^\/v1\/messages\/batches\/([^/]+)(\/cancel|\/results)?$/.exec(path);
    if (!match) return undefined;
    const batch = this.batches.find((candidate) => candidate.id === match[1]);
    if (!batch) return { status: 404, body: RESPONSE_SHAPES.anthropicError('not_found_error', 'batch not found') };
    if (method === 'POST' && match[2] === '/cancel') {
      batch.state = 'cancelled';
      this.finishAnthropic(batch);
      return { body: this.anthropicBatch(batch) };
    }
    if (method === 'GET' && match[2] === '/results') return { body: batch.results ?? '', type: 'application/binary' };
    if (method === 'GET') {
      if (batch.state === 'in_progress' && !this.hold) {
        batch.state = 'ended';
        this.finishAnthropic(batch);
      }
      return { body: this.anthropicBatch(batch) };
    }
    return undefined;
  }

  private anthropicBatch(batch: FakeBatch): Record<string, unknown> {
    const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
    for (const line of batch.lines) {
      const fate = batch.state === 'cancelled' ? 'canceled' : batch.state === 'in_progress' ? 'processing' : this.fateOf(batch, line);
      if (fate === 'processing') counts.processing += 1;
      else if (fate === 'succeeded') counts.succeeded += 1;
      else if (fate === 'expired') counts.expired += 1;
      else if (fate === 'canceled') counts.canceled += 1;
      else counts.errored += 1;
    }
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: batch.state === 'in_progress' ? 'in_progress' : 'ended',
      request_counts: counts,
      ended_at: batch.state === 'in_progress' ? null : '2024-08-20T18:37:24.100435Z',
      created_at: '2024-08-20T18:30:00.000000Z',
      expires_at: '2024-08-21T18:30:00.000000Z',
      archived_at: null,
      cancel_initiated_at: batch.state === 'cancelled' ? '2024-08-20T18:31:00.000000Z' : null,
      results_url: batch.state === 'in_progress' ? null : `${this.url}/v1/messages/batches/${batch.id}/results`,
    };
  }

  private finishAnthropic(batch: FakeBatch): void {
    batch.results = batch.lines
      .map((line) => {
        const fate = batch.state === 'cancelled' ? 'canceled' : this.fateOf(batch, line);
        if (fate === 'succeeded') {
          const text = (this.options.answer ?? replyText)(line.body);
          // A line that gives a tool (a reply schema) is answered with the tool's input, as Anthropic does when a tool must be called.
          const tool = (line.body['tools'] as ReadonlyArray<{ name: string }> | undefined)?.[0];
          const shape = tool ? RESPONSE_SHAPES.anthropicToolUse(tool.name, { reply: text }) : RESPONSE_SHAPES.anthropicMessage(text);
          const message = { ...shape, usage: { input_tokens: 100, output_tokens: Math.ceil(text.length / 4) } };
          return { custom_id: line.custom_id, result: { type: 'succeeded', message } };
        }
        if (fate === 'expired' || fate === 'canceled') return { custom_id: line.custom_id, result: { type: fate } };
        return { custom_id: line.custom_id, result: { type: 'errored', error: RESPONSE_SHAPES.anthropicError(fate.errorType, 'The line failed.') } };
      })
      .map((line) => JSON.stringify(line))
      .join('\n');
  }

  private fateOf(batch: FakeBatch, line: { custom_id: string; body: Record<string, unknown> }): LineFate {
    return this.options.fate?.(line.custom_id, line.body, batch.index) ?? 'succeeded';
  }
}
