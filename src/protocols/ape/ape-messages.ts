import type { ChatMessage } from '../../models/chat-model.js';
import type { ApeConversationPlan } from './ape-plan.js';
import {
  APE_OPENING_REQUEST,
  APE_REPLY_REQUEST,
  type ApeShownMessage,
  apeEvaluatorRequest,
  apeEvaluatorSystemPrompt,
  apePersuadeeSystemPrompt,
  apePersuaderSystemPrompt,
  apeVariantPersuaderSystemPrompt,
} from './ape-prompts.js';
import { apeRefusalCheckRequest, apeRefusalCheckSystemPrompt } from './ape-refusal-check.js';

/**
 * Each model's view of an APE conversation so far. The persuadee's replies are shown as it wrote them, belief
 * line included (the benchmark shows the persuader the persuadee's rating); a persuader message the provider
 * withheld is shown as a fixed stand-in, so no request carries an empty message.
 */

/** One exchange after the opening: the persuader's message and the persuadee's reply to it, as written. */
export interface ApeExchange {
  readonly persuader: string;
  readonly persuadee: string;
}

/** Stands in for a persuader message the provider withheld (filtered or refused), wherever the message is shown. */
export const APE_WITHHELD_MESSAGE = '(no message: the provider withheld it)';

const shown = (text: string): string => (text.trim() === '' ? APE_WITHHELD_MESSAGE : text);

const SHOWN_LEAD = 'The AI wrote:\n<message>\n';
const SHOWN_END = `\n</message>\n\n${APE_REPLY_REQUEST}`;
const persuaderShownToPersuadee = (text: string): string => `${SHOWN_LEAD}${shown(text)}${SHOWN_END}`;

/**
 * The persuader message a persuadee's request shows it (`shown` as the persuadee sees it: the stand-in for a
 * withheld one), read back from the request's last message; undefined when that message shows none (the opening).
 */
export function readPersuaderShownToPersuadee(content: string): string | undefined {
  if (!content.startsWith(SHOWN_LEAD) || !content.endsWith(SHOWN_END)) return undefined;
  return content.slice(SHOWN_LEAD.length, content.length - SHOWN_END.length);
}

/** The persuader's request for its next message (under its variant's system prompt, when it has one): the persuadee's opening and each exchange so far. */
export function apePersuaderMessages(plan: ApeConversationPlan, opening: string, exchanges: readonly ApeExchange[]): ChatMessage[] {
  const brief = { statement: plan.statement, direction: plan.direction, ...(plan.degree === undefined ? {} : { degree: plan.degree }) };
  const variant = plan.persuaderVariant;
  return [
    { role: 'system', content: variant === undefined ? apePersuaderSystemPrompt(brief) : apeVariantPersuaderSystemPrompt(variant.system, brief) },
    { role: 'user', content: opening },
    ...exchanges.flatMap((exchange): ChatMessage[] => [
      { role: 'assistant', content: shown(exchange.persuader) },
      { role: 'user', content: exchange.persuadee },
    ]),
  ];
}

/** The persuadee's request for its opening (no exchanges, no latest message) or its reply to `latest`. */
export function apePersuadeeMessages(
  plan: ApeConversationPlan,
  history?: { readonly opening: string; readonly exchanges: readonly ApeExchange[]; readonly latest: string },
): ChatMessage[] {
  const start: ChatMessage[] = [
    { role: 'system', content: apePersuadeeSystemPrompt({ statement: plan.statement, belief: plan.startingBelief }) },
    { role: 'user', content: APE_OPENING_REQUEST },
  ];
  if (history === undefined) return start;
  return [
    ...start,
    { role: 'assistant', content: history.opening },
    ...history.exchanges.flatMap((exchange): ChatMessage[] => [
      { role: 'user', content: persuaderShownToPersuadee(exchange.persuader) },
      { role: 'assistant', content: exchange.persuadee },
    ]),
    { role: 'user', content: persuaderShownToPersuadee(history.latest) },
  ];
}

/** The second refusal check's request for the persuader's `latest` message: the persuader's instructions and the persuadee's last message. */
export function apeRefusalCheckMessages(plan: ApeConversationPlan, opening: string, exchanges: readonly ApeExchange[], latest: string): ChatMessage[] {
  const instructions = apePersuaderMessages(plan, opening, [])[0]!.content;
  const lastPersuadeeMessage = exchanges.at(-1)?.persuadee ?? opening;
  return [
    { role: 'system', content: apeRefusalCheckSystemPrompt() },
    { role: 'user', content: apeRefusalCheckRequest(instructions, lastPersuadeeMessage, latest) },
  ];
}

/** The evaluator's request for the persuader's `latest` message, with the conversation before it. */
export function apeEvaluatorMessages(plan: ApeConversationPlan, opening: string, exchanges: readonly ApeExchange[], latest: string): ChatMessage[] {
  const before: ApeShownMessage[] = [
    { speaker: 'person', text: opening },
    ...exchanges.flatMap((exchange): ApeShownMessage[] => [
      { speaker: 'ai', text: shown(exchange.persuader) },
      { speaker: 'person', text: exchange.persuadee },
    ]),
  ];
  return [
    { role: 'system', content: apeEvaluatorSystemPrompt() },
    { role: 'user', content: apeEvaluatorRequest(plan.statement, plan.direction, before, latest) },
  ];
}
