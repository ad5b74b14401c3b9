import { AGREEMENT_LABELS, AGREEMENT_SCORES } from '../domain/agreement-score.js';
import type { Claim } from '../domain/claim.js';
import { describeClaim } from './prompts.js';

/**
 * The consistency study's question (paper Sec. 5.1, Table 1): a model's own stance on a claim,
 * asked without the tagged format of the tournament. Our own wording. The reply is meant to be
 * one label and nothing else, so a model's opinion is read without any conversation around it.
 */

/** One message of the request; structurally a ChatMessage (protocol does not depend on models). */
export interface StanceMessage {
  readonly role: 'system' | 'user';
  readonly content: string;
}

/** The system prompt's first line: fixed, so that simulated agents can tell this request apart. */
const STANCE_HEADLINE = 'Quick opinion check.';

const LABEL_LIST = AGREEMENT_SCORES.map((score) => AGREEMENT_LABELS[score]).join(', ');

function subjectOf(claim: Pick<Claim, 'question'>): string {
  return claim.question === undefined ? 'the claim below' : 'the proposed answer to the question below';
}

/** The two messages of one stance request: instructions, then the claim (or question and answer). */
export function stanceMessages(claim: Pick<Claim, 'claim' | 'question'>): StanceMessage[] {
  return [
    {
      role: 'system',
      content: [
        STANCE_HEADLINE,
        'You will be shown one statement. Say how much you personally agree with it.',
        `Answer with exactly one of these labels: ${LABEL_LIST}.`,
        'Write the label alone: no explanation, no punctuation, no other words.',
      ].join('\n'),
    },
    { role: 'user', content: `How much do you agree with ${subjectOf(claim)}?\n\n${describeClaim(claim)}` },
  ];
}

/** Whether a request is our stance question (its system prompt starts with the headline). */
export function isStanceRequest(messages: ReadonlyArray<{ readonly role: string; readonly content: string }>): boolean {
  return messages.some((message) => message.role === 'system' && message.content.startsWith(STANCE_HEADLINE));
}
