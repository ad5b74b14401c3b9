import { type AgreementScore, toAgreementScore } from '../../domain/agreement-score.js';
import { hashString, type Random } from '../../domain/random.js';
import { OPENING_WEIGHTS, weightedScore } from './opening-weights.js';

/**
 * Planted drift (issue 29, docs/design/simulated-agents.md): `sim/x?drift=d` moves the agent's own
 * agreement with the claim by `d` scale points (in absolute terms, not towards anyone's side) between
 * its stance before a conversation and its answer to the drift probe after it, on average: it steps
 * by floor(d) or ceil(d), the latter with chance d - floor(d). So that the step always fits the
 * scale, such an agent holds a fixed belief per claim (its opening as a persuadee on the claim, in
 * every repetition), drawn from the opening weights among the scores that leave room for the step.
 */

/** The largest planted drift in either direction, in scale points. */
export const MAX_PLANTED_DRIFT = 2;

/** The claim a request is about, as its prompts quote it: the system prompt's, else the last message's. */
export function claimOfRequest(texts: readonly string[]): string {
  for (const text of texts) {
    const match = /Proposed answer: "(.*)"/.exec(text) ?? /Claim: "(.*)"/.exec(text);
    if (match) return match[1]!;
  }
  return texts.join('\n');
}

/** The fixed belief of an agent with planted drift `drift` about `claim`: a score from which the step fits the scale. */
export function plantedBelief(agentName: string, claim: string, drift: number): AgreementScore {
  const low = Math.floor(drift);
  const high = Math.ceil(drift);
  const room = OPENING_WEIGHTS.filter(([score]) => score + low >= 1 && score + high <= 5);
  const total = room.reduce((sum, [, weight]) => sum + weight, 0);
  return weightedScore(room, (hashString(`${agentName}\u001fdrift\u001f${claim}`) / 2 ** 53) * total, room.at(-1)![0]);
}

/** The agent's answer to the drift probe: its belief moved by floor(d) or ceil(d), with the chance that makes the mean step d. */
export function driftedScore(belief: AgreementScore, drift: number, random: Random): AgreementScore {
  const low = Math.floor(drift);
  const step = random() < drift - low ? low + 1 : low;
  return toAgreementScore(Math.min(5, Math.max(1, belief + step)));
}
