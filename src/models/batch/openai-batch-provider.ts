import { randomUUID } from 'node:crypto';
import { chatCompletionBody, chatCompletionReply } from '../providers/openai-chat-model.js';
import { type BatchCaller, BatchHttp, lineError, parseJson, parseJsonLines, unreadableAnswer } from './batch-http.js';
import type { BatchLine, BatchProvider, BatchState, LineResult } from './batch-provider.js';

export interface OpenAiBatchOptions extends BatchCaller {
  /** The API root, e.g. https://api.openai.com/v1 (files at `<baseURL>/files`, batches at `<baseURL>/batches`). */
  readonly baseURL: string;
  readonly supportsSeed?: boolean;
}

/** The endpoint every line of our batches calls: the chat completions API, as the direct client does. */
const ENDPOINT = '/v1/chat/completions';
/** The provider's states after which a batch's files are final. */
const ENDED = new Set(['completed', 'expired', 'cancelled', 'failed']);
/** Lines the provider gave up on without asking the model: answered by nothing, so asked again. */
const UNANSWERED_CODES = new Set(['batch_expired', 'batch_cancelled']);

interface OpenAiBatch {
  readonly id?: string;
  readonly status?: string;
  readonly output_file_id?: string | null;
  readonly error_file_id?: string | null;
  readonly request_counts?: { readonly total?: number; readonly completed?: number; readonly failed?: number };
  readonly metadata?: Record<string, string> | null;
}

interface OutputLine {
  readonly custom_id?: string;
  readonly response?: { readonly status_code?: number; readonly body?: unknown } | null;
  readonly error?: { readonly code?: string; readonly message?: string } | null;
}

/**
 * OpenAI's Batch API: the lines uploaded as a JSONL file (`purpose=batch`), a batch created over it
 * for the chat completions endpoint with a 24 h window, polled, and its output and error files read.
 * Each line's body is what the direct client would POST, so a batched reply reads the same.
 */
export class OpenAiBatchProvider implements BatchProvider {
  private readonly root: string;
  private readonly headers: Record<string, string>;
  private readonly http: BatchHttp;

  constructor(private readonly options: OpenAiBatchOptions) {
    this.root = options.baseURL.replace(/\/+$/, '');
    this.http = new BatchHttp(options);
    this.headers = { ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}), ...options.headers };
  }

  async submit(lines: readonly BatchLine[], submissionKey: string): Promise<string> {
    const jsonl = lines
      .map((line) =>
        JSON.stringify({
          custom_id: line.customId,
          method: 'POST',
          url: ENDPOINT,
          body: chatCompletionBody(this.options.model, line.request, this.options.supportsSeed),
        }),
      )
      .join('\n');
    const [contentType, upload] = multipart(jsonl);
    const file = (await this.json('POST', '/files', { contentType, body: upload })) as { id?: unknown };
    if (typeof file.id !== 'string') throw unreadableAnswer(this.options, 'the uploaded file has no id');
    const created = { input_file_id: file.id, endpoint: ENDPOINT, completion_window: '24h', metadata: { pmiyc_submission: submissionKey } };
    const batch = (await this.json('POST', '/batches', { contentType: 'application/json', body: JSON.stringify(created) })) as OpenAiBatch;
    if (typeof batch.id !== 'string') throw unreadableAnswer(this.options, 'the created batch has no id');
    return batch.id;
  }

  async poll(batchId: string): Promise<BatchState> {
    const batch = await this.batch(batchId);
    const counts = batch.request_counts;
    return {
      ended: ENDED.has(batch.status ?? ''),
      providerStatus: batch.status ?? 'unknown',
      ...(counts ? { done: (counts.completed ?? 0) + (counts.failed ?? 0), total: counts.total ?? 0 } : {}),
    };
  }

  async download(batchId: string): Promise<Map<string, LineResult>> {
    const batch = await this.batch(batchId);
    const results = new Map<string, LineResult>();
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (typeof fileId !== 'string') continue;
      const text = await this.http.send(this.url(`/files/${fileId}/content`), 'GET', this.headers, { cancellable: true, file: true });
      for (const line of parseJsonLines(this.options, text) as OutputLine[]) {
        const result = this.lineResult(line);
        if (typeof line.custom_id === 'string' && result) results.set(line.custom_id, result);
      }
    }
    return results;
  }

  async cancel(batchId: string): Promise<void> {
    await this.json('POST', `/batches/${batchId}/cancel`, { contentType: 'application/json', body: '{}' });
  }

  /** The newest 100 batches are searched for our key: a batch created moments before a crash is among them. */
  async recover(submissionKey: string): Promise<string | undefined> {
    const page = (await this.json('GET', '/batches?limit=100')) as { data?: OpenAiBatch[] };
    return page.data?.find((batch) => batch.metadata?.['pmiyc_submission'] === submissionKey)?.id;
  }

  private lineResult(line: OutputLine): LineResult | undefined {
    const status = line.response?.status_code;
    if (typeof status === 'number' && status < 300) {
      const reply = chatCompletionReply(line.response?.body);
      return typeof reply === 'string' ? { status: 'failed', error: unreadableAnswer(this.options, reply) } : { status: 'succeeded', reply };
    }
    if (typeof status === 'number') return { status: 'failed', error: lineError(this.options, status, line.response?.body) };
    if (line.error?.code && UNANSWERED_CODES.has(line.error.code)) return undefined;
    return { status: 'failed', error: lineError(this.options, 400, { error: line.error ?? {} }) };
  }

  /** A batch's state, for a poll or a download: cancelled if the run stops meanwhile. */
  private async batch(batchId: string): Promise<OpenAiBatch> {
    return (await this.json('GET', `/batches/${batchId}`, { cancellable: true })) as OpenAiBatch;
  }

  private async json(
    method: 'GET' | 'POST',
    path: string,
    request: { contentType?: string; body?: string | Buffer; cancellable?: boolean } = {},
  ): Promise<unknown> {
    const { contentType, ...options } = request;
    const headers = { ...this.headers, accept: 'application/json', ...(contentType ? { 'content-type': contentType } : {}) };
    return parseJson(this.options, await this.http.send(this.url(path), method, headers, options));
  }

  private url(path: string): URL {
    return new URL(`${this.root}${path}`);
  }
}

/** A multipart/form-data body with `purpose=batch` and the JSONL as its file: the content type and the bytes. */
function multipart(jsonl: string): [string, Buffer] {
  const boundary = `pmiyc-${randomUUID()}`;
  const body = [
    `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="pmiyc-batch.jsonl"\r\nContent-Type: application/jsonl\r\n\r\n`,
    jsonl,
    `\r\n--${boundary}--\r\n`,
  ].join('');
  return [`multipart/form-data; boundary=${boundary}`, Buffer.from(body, 'utf8')];
}
