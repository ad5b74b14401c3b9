// Types only: node-llama-cpp itself is imported on first use (see llama-loader.ts).
import type { ChatHistoryItem, LlamaChatResponse } from 'node-llama-cpp';
import type { FinishReason } from '../../../domain/conversation.js';
import type { ChatMessage, ChatModel, GenerateReply, GenerateRequest } from '../../chat-model.js';
import type { ModelSettings } from '../../model-settings.js';
import { callFailure, defaultGpuSetting, type LoadedLlama, type LoadPlan, loadCached, messageOf } from './llama-loader.js';

export interface LlamaChatModelOptions {
  /**
   * Upper bound of the reply grammar's message text, in characters. Unless set, it follows each
   * request's output-token limit and the model's tokenizer, so that the closing tags always fit.
   */
  readonly maxMessageChars?: number;
}

/** A message bound that leaves room for the tags within `maxOutputTokens`, with a 10% margin. */
function messageCharsFor(maxOutputTokens: number, loaded: Pick<LoadedLlama, 'charsPerToken' | 'formatTokens'>): number {
  return Math.max(1, Math.floor((maxOutputTokens - loaded.formatTokens) * loaded.charsPerToken * 0.9));
}

/** Our messages as node-llama-cpp's chat history, ending with the empty model turn to be generated. */
function toChatHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const items = messages.map((message): ChatHistoryItem => {
    if (message.role === 'system') return { type: 'system', text: message.content };
    if (message.role === 'user') return { type: 'user', text: message.content };
    return { type: 'model', response: [message.content] };
  });
  return [...items, { type: 'model', response: [] }];
}

function finishReasonOf(stopReason: LlamaChatResponse['metadata']['stopReason']): FinishReason {
  if (stopReason === 'eogToken' || stopReason === 'stopGenerationTrigger' || stopReason === 'customStopTrigger') return 'stop';
  return stopReason === 'maxTokens' ? 'length' : 'other';
}

/**
 * A GGUF model run in-process by llama.cpp through node-llama-cpp (`llama/<path.gguf>` or
 * `llama/hf:<user>/<repo>/<file>.gguf`). Every reply is sampled under a grammar that forces the
 * tagged wire format, or, for a request with a `responseFormat`, JSON in its schema
 * (node-llama-cpp's JSON-schema grammar), so even a model that follows no instructions answers parseably.
 *
 * - The model is loaded on the first call and cached per path and settings for the life of the
 *   process; instances with equal settings share it, and their calls run one at a time.
 * - Each call starts from an empty context sequence, so its reply depends only on its request
 *   (messages, temperature, output-token limit, seed).
 * - Threads default to 1 (more is far slower on small machines); `gpu` defaults to
 *   {@link defaultGpuSetting}; the context size to the model's training size, at most 4096 tokens.
 * - A prompt that does not fit the context with the output-token limit fails with reason
 *   `context` instead of being truncated; a missing file, a failed download or a failed load
 *   with reason `api`. None of these is retryable.
 */
export class LlamaChatModel implements ChatModel {
  readonly name: string;
  readonly simulated = false;
  private readonly plan: LoadPlan;

  /** @throws RangeError when `options.maxMessageChars` is not an integer >= 1. */
  constructor(
    settings: ModelSettings,
    private readonly options: LlamaChatModelOptions = {},
  ) {
    const bound = options.maxMessageChars;
    if (bound !== undefined && !(Number.isInteger(bound) && bound >= 1)) throw new RangeError(`maxMessageChars must be a whole number >= 1, got ${bound}`);
    this.name = settings.name;
    this.plan = { settings, gpu: settings.gpu ?? defaultGpuSetting(), threads: settings.threads ?? 1 };
  }

  async generate(request: GenerateRequest): Promise<GenerateReply> {
    request.abortSignal?.throwIfAborted();
    const loaded = await loadCached(this.plan);
    return loaded.queue.run(() => this.generateNow(loaded, request));
  }

  private async generateNow(loaded: LoadedLlama, request: GenerateRequest): Promise<GenerateReply> {
    request.abortSignal?.throwIfAborted(); // it may have been aborted while queued
    const history = toChatHistory(request.messages);
    const inputTokens = this.countFittingPrompt(loaded, history, request.maxOutputTokens);
    await loaded.sequence.clearHistory();
    const meterBefore = loaded.sequence.tokenMeter.getState();
    const response = await this.sample(loaded, history, request);
    const { usedOutputTokens } = loaded.sequence.tokenMeter.diff(meterBefore);
    return {
      // A JSON reply's grammar ends it with blank lines, which say nothing: the JSON alone is the reply.
      text: request.responseFormat ? response.response.trim() : response.response,
      finishReason: finishReasonOf(response.metadata.stopReason),
      usage: { inputTokens, outputTokens: usedOutputTokens },
    };
  }

  /**
   * The prompt's length in tokens, rendered with the model's chat template. Left alone,
   * node-llama-cpp would drop early turns to make a long prompt fit: a different request than the
   * one asked, so we refuse instead.
   */
  private countFittingPrompt(loaded: LoadedLlama, history: ChatHistoryItem[], maxOutputTokens: number): number {
    const { contextText } = loaded.chat.chatWrapper.generateContextState({ chatHistory: history });
    const inputTokens = contextText.tokenize(loaded.model.tokenizer).length;
    const contextSize = loaded.sequence.contextSize;
    if (inputTokens + maxOutputTokens >= contextSize) {
      const remedy = `raise contextSize for this model (its training size is ${loaded.model.trainContextSize}) or lower maxTokens`;
      throw callFailure(
        this.plan.settings,
        'context',
        `the prompt (${inputTokens} tokens) and up to ${maxOutputTokens} output tokens do not fit the context of ${contextSize} tokens: ${remedy}`,
      );
    }
    return inputTokens;
  }

  private async sample(loaded: LoadedLlama, history: ChatHistoryItem[], request: GenerateRequest): Promise<LlamaChatResponse> {
    try {
      const format = request.responseFormat;
      const grammar = format
        ? await loaded.jsonGrammarFor(format.schema)
        : await loaded.grammarFor(this.options.maxMessageChars ?? messageCharsFor(request.maxOutputTokens, loaded));
      return await loaded.chat.generateResponse(history, {
        grammar,
        maxTokens: request.maxOutputTokens,
        seed: request.seed,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.abortSignal ? { signal: request.abortSignal } : {}),
      });
    } catch (error) {
      if (request.abortSignal?.aborted) throw error;
      throw callFailure(this.plan.settings, 'api', `llama.cpp failed while generating (${messageOf(error)})`, error);
    }
  }
}
