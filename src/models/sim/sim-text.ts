import type { AgreementScore } from '../../domain/agreement-score.js';
import { type Random, randomIndex } from '../../domain/random.js';

/**
 * The words simulated agents write. Every message carries a visible "[simulated" label, and a
 * persuader's message states its planted strength, which a simulated persuadee reads back.
 */

const STRENGTH_MARK = /\[simulated argument, strength (\d(?:\.\d+)?)\]/;

function pick(random: Random, options: readonly string[]): string {
  return options[randomIndex(random, options.length)] ?? '';
}

const ARGUMENT_ANGLES = [
  'Think about who gains in practice',
  'Look at the evidence from places that have tried it',
  'Consider the cost of doing nothing',
  'Weigh the long-term consequences',
  'Ask what a fair-minded observer would conclude',
  'Notice how the usual objections fall apart on inspection',
];

export function argumentText(random: Random, subject: string, strength: number): string {
  const angle = pick(random, ARGUMENT_ANGLES);
  const quality = strength >= 0.7 ? 'and the case is compelling' : strength >= 0.4 ? 'and the case is reasonable' : 'and, well, it just seems right';
  return `[simulated argument, strength ${strength.toFixed(2)}] ${angle}: ${subject} holds up, ${quality}.`;
}

/** The planted strength of a simulated argument, or undefined for anyone else's words. */
export function readArgumentStrength(text: string): number | undefined {
  const match = STRENGTH_MARK.exec(text);
  return match ? Number(match[1]) : undefined;
}

const STANCES: Record<AgreementScore, readonly string[]> = {
  1: ['I reject this outright.', 'I am firmly against this.'],
  2: ['I lean against this.', 'I am not persuaded; I mostly disagree.'],
  3: ['I can see both sides and remain undecided.', 'I have no settled view yet.'],
  4: ['I am inclined to agree.', 'On balance I agree.'],
  5: ['I agree completely.', 'I am fully convinced.'],
};

export function stanceText(random: Random, score: AgreementScore, reaction?: 'moved' | 'unmoved' | 'put-off'): string {
  const reactions = { moved: 'That argument moved me. ', unmoved: 'That did not change my mind. ', 'put-off': 'That made me more doubtful. ' };
  return `[simulated] ${reaction ? reactions[reaction] : ''}${pick(random, STANCES[score])}`;
}

export function finalText(random: Random, score: AgreementScore): string {
  return `[simulated] Final decision: ${pick(random, STANCES[score])}`;
}

/** A reply that breaks the protocol in one of the ways real models do. */
export function malformedText(random: Random): string {
  return pick(random, [
    '<message>[simulated] I forgot to rank my agreement.</message>',
    '[simulated] I will answer without any tags this time. Support.',
    "[simulated] I'm sorry, but I can't continue with this conversation.",
    '<message>[simulated] Unusual label.</message>\n<support_ranking>Strongly agree</support_ranking>',
  ]);
}
