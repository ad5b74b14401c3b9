import type { Claim } from '../domain/claim.js';
import type { Turn } from '../domain/conversation.js';
import type { Role } from '../domain/roles.js';
import type { ChatMessage } from '../models/chat-model.js';
import { driftProbeRequest } from '../protocol/drift-prompt.js';
import { type AgentPrompts, DEFAULT_PROMPTS } from '../protocol/prompt-variants.js';
import { FORMAT_REMINDER, wrapOtherAgentMessage } from '../protocol/prompts.js';
import { formatTaggedReply } from '../protocol/tagged-reply.js';

/**
 * Each agent's view of the conversation so far. An agent sees its own turns re-serialised from
 * their parsed fields and the other agent's *message* only: a persuadee's score never reaches
 * the persuader, and a persuader's self-rating never reaches the persuadee.
 */
function historyOf(role: Role, turns: readonly Turn[], requestWithLast?: string): ChatMessage[] {
  return turns.map((turn, position): ChatMessage => {
    if (turn.role === role) return { role: 'assistant', content: formatTaggedReply(turn.message, turn.score) };
    const isLast = position === turns.length - 1;
    const request = isLast && requestWithLast !== undefined ? requestWithLast : FORMAT_REMINDER;
    return { role: 'user', content: `${wrapOtherAgentMessage(turn.message)}\n\n${request}` };
  });
}

/** The persuadee's request for its next in-loop turn (the opening when `turns` is empty). */
export function persuadeeMessages(claim: Claim, turns: readonly Turn[], prompts: AgentPrompts = DEFAULT_PROMPTS): ChatMessage[] {
  return [{ role: 'system', content: prompts.persuadeeSystem(claim) }, { role: 'user', content: prompts.opening(claim) }, ...historyOf('persuadee', turns)];
}

/**
 * The persuadee's final-decision request. When the persuader spoke last, its argument comes
 * with the request; after an early stop the persuadee spoke last, and the request stands alone
 * (no echo of the persuadee's own message, unlike the official code).
 */
export function finalDecisionMessages(claim: Claim, turns: readonly Turn[], prompts: AgentPrompts = DEFAULT_PROMPTS): ChatMessage[] {
  const request = prompts.finalDecision(claim);
  const persuaderSpokeLast = turns.at(-1)?.role === 'persuader';
  return [
    { role: 'system', content: prompts.persuadeeSystem(claim) },
    { role: 'user', content: prompts.opening(claim) },
    ...historyOf('persuadee', turns, persuaderSpokeLast ? request : undefined),
    ...(persuaderSpokeLast ? [] : [{ role: 'user' as const, content: request }]),
  ];
}

/** The persuader's request for its next argument. */
export function persuaderMessages(claim: Claim, turns: readonly Turn[], prompts: AgentPrompts = DEFAULT_PROMPTS): ChatMessage[] {
  return [{ role: 'system', content: prompts.persuaderSystem(claim) }, ...historyOf('persuader', turns)];
}

/**
 * The drift probe (protocol/drift-prompt.ts): the persuader's own view of the whole conversation,
 * then the question of where it stands now. After the persuadee spoke last the question comes with
 * its message (so user and assistant keep alternating), as the final-decision request does.
 */
export function driftProbeMessages(claim: Claim, turns: readonly Turn[], prompts: AgentPrompts = DEFAULT_PROMPTS): ChatMessage[] {
  const request = driftProbeRequest(claim);
  const persuadeeSpokeLast = turns.at(-1)?.role === 'persuadee';
  return [
    { role: 'system', content: prompts.persuaderSystem(claim) },
    ...historyOf('persuader', turns, persuadeeSpokeLast ? request : undefined),
    ...(persuadeeSpokeLast ? [] : [{ role: 'user' as const, content: request }]),
  ];
}
