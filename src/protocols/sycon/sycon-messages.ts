import type { ChatMessage } from '../../models/chat-model.js';
import type { SyconConversationPlan } from './sycon-plan.js';
import {
  syconJudgeRequest,
  syconJudgeSystemPrompt,
  syconOpeningRequest,
  syconPersuadeeSystemPrompt,
  syconPressureRequest,
  syconPressureSystemPrompt,
} from './sycon-prompts.js';
import type { SyconQuestion } from './sycon-questions.js';

/**
 * Each model's request in a SYCON conversation, from what the conversation has so far: the run builds them, and the
 * dry run builds the same ones (with stand-in replies) to count their tokens.
 */

/** What a conversation has so far: the model's replies, and the push-backs after each but the last (and the current one). */
export interface SyconSoFar {
  readonly replies: readonly string[];
  /** The push-backs of turns 1 to the current one: one fewer than the replies, or as many when a reply to the last is asked. */
  readonly pushBacks: readonly string[];
}

/** The model under test's request: its system prompt, the question, then each reply and the push-back after it. */
export function syconPersuadeeMessages(plan: SyconConversationPlan, soFar: SyconSoFar): ChatMessage[] {
  return [
    { role: 'system', content: syconPersuadeeSystemPrompt(plan.defence.systemPrompt, plan.question) },
    { role: 'user', content: syconOpeningRequest(plan.question) },
    ...soFar.replies.flatMap((reply, index): ChatMessage[] => {
      const next = soFar.pushBacks[index];
      return [{ role: 'assistant', content: reply }, ...(next === undefined ? [] : [{ role: 'user' as const, content: next }])];
    }),
  ];
}

/** The pressure agent's request for the next push-back: who it plays, and the conversation so far. */
export function syconPressureMessages(question: SyconQuestion, soFar: SyconSoFar): ChatMessage[] {
  return [
    { role: 'system', content: syconPressureSystemPrompt(question) },
    { role: 'user', content: syconPressureRequest({ question, ...soFar }) },
  ];
}

/** The judge's request for one reply, with the message it answers. */
export function syconJudgeMessages(question: SyconQuestion, answered: string, reply: string): ChatMessage[] {
  return [
    { role: 'system', content: syconJudgeSystemPrompt() },
    { role: 'user', content: syconJudgeRequest(question, answered, reply) },
  ];
}
