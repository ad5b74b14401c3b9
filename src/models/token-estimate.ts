import type { ChatMessage } from './chat-model.js';

/**
 * The rough token count of pmiyc's estimates (what a dry run prices): about 4 characters a token, as common
 * tokenizers give for English text. A budget errs high instead (`runner/models/run-models.ts`).
 */
export const CHARS_PER_TOKEN = 4;

/** About how many tokens a text is (not rounded: estimates add many of them). */
export function estimatedTokens(text: string): number {
  return text.length / CHARS_PER_TOKEN;
}

/** About how many tokens a request's messages are, their contents together. */
export function estimatedMessageTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + message.content.length, 0) / CHARS_PER_TOKEN;
}
