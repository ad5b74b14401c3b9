import type { FinishReason, Usage } from '../domain/conversation.js';

/**
 * The model port: the one interface every provider adapter implements and every wrapper
 * (retry, cache, rate limit) decorates. Nothing above this line knows which provider it talks to.
 */

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface GenerateRequest {
  readonly messages: readonly ChatMessage[];
  /** Sampling temperature; 0.7 unless configured (the paper's code). Absent: the provider's default. */
  readonly temperature?: number;
  /** Upper bound on output tokens; 400 unless configured (the paper's code). */
  readonly maxOutputTokens: number;
  /** Deterministic per call, derived from the run seed and what the call asks (never the clock): engine/call-seed.ts. */
  readonly seed: number;
  /**
   * The shape the reply must have, as a JSON Schema: adapters whose provider has structured output
   * ask for it (OpenAI `response_format: json_schema`, Anthropic a tool's input, a GGUF grammar);
   * the others send the request as it is. The reply is always read strictly by the caller either way.
   */
  readonly responseFormat?: ResponseFormat;
  readonly abortSignal?: AbortSignal;
}

/** A JSON Schema for the reply and a short name for it (`turn_labels`: letters, digits, `_`, `-`). */
export interface ResponseFormat {
  readonly name: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

export interface GenerateReply {
  readonly text: string;
  readonly finishReason: FinishReason;
  /** Token counts; absent or partial when the provider does not report them. */
  readonly usage?: Usage;
  /** Cost from the configured prices, when both prices and usage are known. */
  readonly costUsd?: number;
  /** The request hash under which the call store keeps this reply. */
  readonly callHash?: string;
  /** True when the reply was replayed from the call store (or shared with an identical call in flight) instead of asking the model. */
  readonly cached?: boolean;
  /** The earlier run whose stored call was replayed; absent for calls of this run (made, shared or resumed). */
  readonly replayedFrom?: string;
}

export interface ChatModel {
  /** The name the user wrote, e.g. `openai/gpt-4o-mini` or `sim/eloquent`. */
  readonly name: string;
  /** True for simulated agents: every output that shows their work says so. */
  readonly simulated: boolean;
  generate(request: GenerateRequest): Promise<GenerateReply>;
}

/** Generation defaults of the paper's code. */
export const DEFAULT_TEMPERATURE = 0.7;
export const DEFAULT_MAX_OUTPUT_TOKENS = 400;
