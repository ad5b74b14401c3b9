import type { FinishReason } from '../../domain/conversation.js';
import type { ChatMessage, GenerateReply, GenerateRequest } from '../chat-model.js';
import { type BatchCaller, BatchHttp, lineError, parseJson, parseJsonLines, unreadableAnswer } from './batch-http.js';
import type { BatchLine, BatchProvider, BatchState, LineResult } from './batch-provider.js';

export interface AnthropicBatchOptions extends BatchCaller {
  /** The API root, e.g. https://api.anthropic.com/v1 (batches at `<baseURL>/messages/batches`). */
  readonly baseURL: string;
  /** Mark the system prompt and the last message as cache breakpoints, as the direct calls do. */
  readonly promptCache?: boolean;
}

const CACHE_CONTROL = { type: 'ephemeral' };

const API_VERSION = '2023-06-01';
/** `tool_use` ends a reply asked for as a tool's input (a request with a JSON Schema): that input is the whole answer. */
const FINISH_REASONS: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'stop',
  max_tokens: 'length',
  refusal: 'content-filter',
};
/** The HTTP status each error type of the Messages API stands for, so a failed line maps as a direct call's error would. */
const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

interface AnthropicBatch {
  readonly id?: string;
  readonly processing_status?: string;
  readonly results_url?: string | null;
  readonly request_counts?: { processing?: number; succeeded?: number; errored?: number; canceled?: number; expired?: number };
}

interface ResultLine {
  readonly custom_id?: string;
  readonly result?: {
    readonly type?: string;
    readonly message?: {
      content?: Array<{ type?: string; text?: string; input?: unknown }>;
      stop_reason?: string | null;
      usage?: { input_tokens?: number; output_tokens?: number; cache_creation_input_tokens?: number | null; cache_read_input_tokens?: number | null };
    };
    readonly error?: { type?: string; error?: { type?: string; message?: string } };
  };
}

/**
 * The one tool a request with a JSON Schema is given: named and described as the AI SDK names its
 * own for the direct calls (`structuredOutputMode: 'jsonTool'`), so that a batched request is the
 * request a direct call sends.
 */
const JSON_TOOL = { name: 'json', description: 'Respond with a JSON object.' };

/**
 * The Messages API's request: the system prompt apart, the turns as they are. Anthropic takes no
 * seed (it still names the call). A request with a JSON Schema for its reply gets one tool whose
 * input is that schema, and must call a tool (`tool_choice: any`, one tool): Anthropic's
 * structured output by tool input.
 */
function messageParams(model: string, request: GenerateRequest, promptCache: boolean): Record<string, unknown> {
  const system = request.messages.filter((message) => message.role === 'system').map((message) => message.content);
  const turns = request.messages.filter((message): message is ChatMessage & { role: 'user' | 'assistant' } => message.role !== 'system');
  const format = request.responseFormat;
  const last = turns.length - 1;
  const marked = (text: string) => [{ type: 'text', text, cache_control: CACHE_CONTROL }];
  return {
    model,
    max_tokens: request.maxOutputTokens,
    messages: turns.map(({ role, content }, index) => ({ role, content: promptCache && index === last ? marked(content) : content })),
    ...(system.length > 0 ? { system: promptCache ? marked(system.join('\n\n')) : system.join('\n\n') } : {}),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(format === undefined
      ? {}
      : {
          tools: [{ name: JSON_TOOL.name, description: JSON_TOOL.description, input_schema: format.schema }],
          tool_choice: { type: 'any', disable_parallel_tool_use: true },
        }),
  };
}

/**
 * Anthropic's Message Batches: one POST with every request's parameters, polled until its
 * processing ends, then its results read (JSONL, one line per request, in any order).
 */
export class AnthropicBatchProvider implements BatchProvider {
  private readonly root: string;
  private readonly headers: Record<string, string>;
  private readonly http: BatchHttp;

  constructor(private readonly options: AnthropicBatchOptions) {
    this.root = options.baseURL.replace(/\/+$/, '');
    this.http = new BatchHttp(options);
    this.headers = {
      'anthropic-version': API_VERSION,
      accept: 'application/json',
      ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
      ...options.headers,
    };
  }

  async submit(lines: readonly BatchLine[]): Promise<string> {
    const requests = lines.map((line) => ({
      custom_id: line.customId,
      params: messageParams(this.options.model, line.request, this.options.promptCache === true),
    }));
    const batch = (await this.json('POST', '/messages/batches', JSON.stringify({ requests }))) as AnthropicBatch;
    if (typeof batch.id !== 'string') throw unreadableAnswer(this.options, 'the created batch has no id');
    return batch.id;
  }

  async poll(batchId: string): Promise<BatchState> {
    const batch = await this.batch(batchId);
    const counts = batch.request_counts ?? {};
    const done = (counts.succeeded ?? 0) + (counts.errored ?? 0) + (counts.canceled ?? 0) + (counts.expired ?? 0);
    return { ended: batch.processing_status === 'ended', providerStatus: batch.processing_status ?? 'unknown', done, total: done + (counts.processing ?? 0) };
  }

  async download(batchId: string): Promise<Map<string, LineResult>> {
    const batch = await this.batch(batchId);
    const results = new Map<string, LineResult>();
    if (typeof batch.results_url !== 'string') return results;
    const text = await this.http.send(new URL(batch.results_url), 'GET', this.headers, { cancellable: true, file: true });
    for (const line of parseJsonLines(this.options, text) as ResultLine[]) {
      const result = this.lineResult(line);
      if (typeof line.custom_id === 'string' && result) results.set(line.custom_id, result);
    }
    return results;
  }

  async cancel(batchId: string): Promise<void> {
    await this.json('POST', `/messages/batches/${batchId}/cancel`);
  }

  private lineResult(line: ResultLine): LineResult | undefined {
    const result = line.result;
    if (result?.type === 'succeeded') {
      const reply = this.reply(result.message);
      return typeof reply === 'string' ? { status: 'failed', error: unreadableAnswer(this.options, reply) } : { status: 'succeeded', reply };
    }
    if (result?.type === 'errored') {
      const status = ERROR_STATUS[result.error?.error?.type ?? ''] ?? 500;
      return { status: 'failed', error: lineError(this.options, status, result.error) };
    }
    // canceled and expired lines were never answered: asked again.
    return undefined;
  }

  private reply(message: NonNullable<ResultLine['result']>['message']): GenerateReply | string {
    if (!message || !Array.isArray(message.content)) return 'no content in the message';
    // A reply asked for as a tool's input (a request with a JSON Schema) is that input, as JSON text.
    const toolUse = message.content.find((block) => block.type === 'tool_use');
    const text =
      toolUse !== undefined
        ? JSON.stringify(toolUse.input ?? null)
        : message.content
            .filter((block) => block.type === 'text' && typeof block.text === 'string')
            .map((block) => block.text)
            .join('');
    const usage = message.usage ?? {};
    // Anthropic's input_tokens leaves out what was read from or written to the cache: pmiyc's input is all of it.
    const cachedInputTokens = usage.cache_read_input_tokens ?? 0;
    const cacheWriteTokens = usage.cache_creation_input_tokens ?? 0;
    return {
      text,
      finishReason: FINISH_REASONS[message.stop_reason ?? ''] ?? 'other',
      usage: {
        ...(typeof usage.input_tokens === 'number' ? { inputTokens: usage.input_tokens + cachedInputTokens + cacheWriteTokens } : {}),
        ...(typeof usage.output_tokens === 'number' ? { outputTokens: usage.output_tokens } : {}),
        ...(cachedInputTokens > 0 ? { cachedInputTokens } : {}),
        ...(cacheWriteTokens > 0 ? { cacheWriteTokens } : {}),
      },
    };
  }

  /** A batch's state, for a poll or a download: cancelled if the run stops meanwhile. */
  private async batch(batchId: string): Promise<AnthropicBatch> {
    return (await this.json('GET', `/messages/batches/${batchId}`, undefined, true)) as AnthropicBatch;
  }

  private async json(method: 'GET' | 'POST', path: string, body?: string, cancellable = false): Promise<unknown> {
    const headers = { ...this.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const text = await this.http.send(new URL(`${this.root}${path}`), method, headers, { ...(body === undefined ? {} : { body }), cancellable });
    return parseJson(this.options, text);
  }
}
