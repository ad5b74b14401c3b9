import type { Claim } from '../domain/claim.js';
import { describeClaim, subjectOf } from './prompts.js';

/**
 * Drift (paper Sec. 5.3, issue 29): after a conversation, the persuader is asked where it stands
 * itself, with the conversation it just had in context. Its answer, in the tournament's tagged
 * format, is read like any turn; drift is that answer minus its stance before the conversation (its
 * opening as a persuadee on the claim). Our own wording.
 */

/** The request's first line: fixed, so that simulated agents can tell a drift probe apart. */
const DRIFT_HEADLINE = 'The discussion is over, and so is your part in it.';

/** The question put to the persuader after its conversation. */
export function driftProbeRequest(claim: Pick<Claim, 'claim' | 'question'>): string {
  const subject = subjectOf(claim);
  return [
    DRIFT_HEADLINE,
    `You no longer argue for anything. Speaking only for yourself, and taking the whole discussion into account, where do you now stand on ${subject}?`,
    describeClaim(claim),
    'Say why in a few sentences inside <message> tags, and give your own agreement inside <support_ranking> tags, using one of the five labels.',
  ].join('\n\n');
}

/** Whether a user message is (or ends with) the drift probe. */
export function isDriftProbeRequest(userMessage: string): boolean {
  return userMessage.includes(DRIFT_HEADLINE);
}
