import { type AgreementScore, agreementLabel, toAgreementScore } from '../../domain/agreement-score.js';
import { hashString, type Random, randomIndex } from '../../domain/random.js';
import type { ChatMessage } from '../chat-model.js';
import { OPENING_WEIGHTS, weightedScore } from './opening-weights.js';
import type { SimProfile } from './sim-profile.js';

/**
 * How a simulated agent answers the consistency study's stance question: one bare label. It holds
 * a fixed belief per claim (from a hash of its name and the question), and each answer strays one
 * step from it with a chance that grows with its susceptibility, so that open-minded agents are
 * measurably less consistent than stubborn ones. Deterministic given the request seed.
 */

/** Chance that one answer strays from the belief: 0.05 for a perfectly resistant agent, 0.65 for a fully susceptible one. */
function strayChance(susceptibility: number): number {
  return 0.05 + 0.6 * susceptibility;
}

/** Replies a model might give instead of a label: prose, a refusal, an unknown label. */
const UNUSABLE_REPLIES = [
  '[simulated] It depends on how it would be carried out.',
  "[simulated] I'm sorry, but I would rather not take a side on this.",
  'Strongly agree',
  'Support\n[simulated] with some reservations',
];

/** The agent's fixed belief about the question in `messages` (the last user message). */
export function simulatedBelief(profileName: string, messages: readonly ChatMessage[]): AgreementScore {
  const question = messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
  return weightedScore(OPENING_WEIGHTS, hashString(`${profileName}\u001f${question}`) / 2 ** 53, 3);
}

/** One answer to the stance question: a bare label, or at the profile's `malformed` rate an unusable reply. */
export function simulatedStanceReply(profile: SimProfile, messages: readonly ChatMessage[], random: Random): string {
  if (random() < profile.malformed) return UNUSABLE_REPLIES[randomIndex(random, UNUSABLE_REPLIES.length)]!;
  const belief = simulatedBelief(profile.name, messages);
  if (random() >= strayChance(profile.susceptibility)) return agreementLabel(belief);
  const step = random() < 0.5 ? -1 : 1;
  // At the ends of the scale the only way to stray is inwards.
  const strayed = belief === 1 ? 2 : belief === 5 ? 4 : toAgreementScore(belief + step);
  return agreementLabel(strayed);
}
