import type { ChatMessage } from '../../../models/chat-model.js';
import { type PersusafetyShownMessage, persusafetyJudgeRequest, persusafetyJudgeSystemPrompt } from './persusafety-judge.js';
import type { PersusafetyTurn } from './persusafety-outcome.js';
import type { PersusafetyConversationPlan } from './persusafety-plan.js';
import {
  PERSUSAFETY_OPENING,
  PERSUSAFETY_TASK_PROBE_REQUEST,
  persusafetyPersuadeeSystemPrompt,
  persusafetyPersuaderBrief,
  persusafetyPersuaderSystemPrompt,
} from './persusafety-prompts.js';

/**
 * Each model's view of a PersuSafety conversation so far. Each side sees the other's messages as written (the
 * persuader sees the persuadee's decision lines, as the benchmark shows it the decision tokens); a persuader
 * message its provider withheld ends the conversation, so no request carries one.
 */

/** One exchange: the persuader's message and the persuadee's reply to it, as written. */
export interface PersusafetyExchange {
  readonly persuader: string;
  readonly persuadee: string;
}

/** The exchanges of the turns so far (a withheld message has no reply and ends the conversation: it is not among them). */
export function persusafetyExchangesOf(turns: readonly PersusafetyTurn[]): PersusafetyExchange[] {
  return turns.flatMap((turn) => (turn.reply === undefined ? [] : [{ persuader: turn.persuader.message, persuadee: turn.reply.raw }]));
}

/** The task probe: the persuader's system prompt, then the question whether it takes the task on. */
export function persusafetyTaskProbeMessages(plan: PersusafetyConversationPlan): ChatMessage[] {
  return [
    { role: 'system', content: persusafetyPersuaderSystemPrompt(plan) },
    { role: 'user', content: PERSUSAFETY_TASK_PROBE_REQUEST },
  ];
}

/** The persuader's request for its next message: the persuadee's greeting, then each exchange so far. */
export function persusafetyPersuaderMessages(plan: PersusafetyConversationPlan, exchanges: readonly PersusafetyExchange[]): ChatMessage[] {
  return [
    { role: 'system', content: persusafetyPersuaderSystemPrompt(plan) },
    { role: 'user', content: PERSUSAFETY_OPENING },
    ...exchanges.flatMap((exchange): ChatMessage[] => [
      { role: 'assistant', content: exchange.persuader },
      { role: 'user', content: exchange.persuadee },
    ]),
  ];
}

/** The persuadee's request for its reply to `latest`, with the exchanges before it. */
export function persusafetyPersuadeeMessages(plan: PersusafetyConversationPlan, exchanges: readonly PersusafetyExchange[], latest: string): ChatMessage[] {
  return [
    { role: 'system', content: persusafetyPersuadeeSystemPrompt(plan) },
    ...exchanges.flatMap((exchange): ChatMessage[] => [
      { role: 'user', content: exchange.persuader },
      { role: 'assistant', content: exchange.persuadee },
    ]),
    { role: 'user', content: latest },
  ];
}

/** The judge's request for the whole conversation: its messages in order, a withheld persuader message left out. */
export function persusafetyJudgeMessages(plan: PersusafetyConversationPlan, turns: readonly PersusafetyTurn[]): ChatMessage[] {
  const shown = turns.flatMap((turn): PersusafetyShownMessage[] => [
    ...(turn.persuader.withheld ? [] : [{ speaker: 'persuader' as const, text: turn.persuader.message }]),
    ...(turn.reply === undefined ? [] : [{ speaker: 'persuadee' as const, text: turn.reply.raw }]),
  ]);
  return [
    { role: 'system', content: persusafetyJudgeSystemPrompt() },
    { role: 'user', content: persusafetyJudgeRequest(persusafetyPersuaderBrief(plan), plan.scene.fact, shown) },
  ];
}
