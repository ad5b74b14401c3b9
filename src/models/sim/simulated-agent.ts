import { type AgreementScore, toAgreementScore } from '../../domain/agreement-score.js';
import { clamp } from '../../domain/numbers.js';
import { createRandom, hashString, type Random, randomNormal } from '../../domain/random.js';
import { isDriftProbeRequest } from '../../protocol/drift-prompt.js';
import { isFinalDecisionRequest, roleOfSystemPrompt } from '../../protocol/prompts.js';
import { isStanceRequest } from '../../protocol/stance-prompt.js';
import { parseTaggedReply, formatTaggedReply as tagged } from '../../protocol/tagged-reply.js';
import type { ChatMessage, ChatModel, GenerateReply, GenerateRequest } from '../chat-model.js';
import { OPENING_WEIGHTS, weightedScore } from './opening-weights.js';
import { claimOfRequest, driftedScore, plantedBelief } from './sim-drift.js';
import { simulatedStudyReply } from './sim-judge.js';
import { parseSimProfile, type SimProfile } from './sim-profile.js';
import { simulatedStanceReply } from './sim-stance.js';
import { applyTechniqueEffect, chooseTechniques, nextScoreChances, persuadeeMark, persuaderMarks, readTechniqueMark, techniqueMark } from './sim-techniques.js';
import { argumentText, finalText, malformedText, readArgumentStrength, stanceText } from './sim-text.js';
import { checkProtocolTraits, type SimulatedProtocol } from './simulated-protocol.js';

/** Strength assumed for an argument written by a model that is not simulated. */
const UNKNOWN_ARGUMENT_STRENGTH = 0.5;

function drawWeighted(random: Random): AgreementScore {
  return weightedScore(OPENING_WEIGHTS, random(), 3);
}

function subjectOf(systemPrompt: string): string {
  const match = /Proposed answer: "(.*)"/.exec(systemPrompt) ?? /Claim: "(.*)"/.exec(systemPrompt);
  return match ? `"${match[1]}"` : 'the claim';
}

/**
 * How a simulated persuadee moves after one argument. Moving up grows with strength x
 * susceptibility; backfiring shrinks with both. So expected change rises with the persuader's
 * persuasiveness for every persuadee, and with the persuadee's susceptibility for every persuader.
 */
function respondToArgument(current: AgreementScore, strength: number, susceptibility: number, random: Random) {
  const pull = strength * susceptibility;
  if (random() < Math.min(0.95, 1.4 * pull)) {
    const steps = random() < pull ? 2 : 1;
    return { score: toAgreementScore(current + steps), reaction: 'moved' as const };
  }
  if (random() < 0.15 * (1 - strength) * (1 - 0.5 * susceptibility)) {
    return { score: toAgreementScore(current - 1), reaction: 'put-off' as const };
  }
  return { score: current, reaction: 'unmoved' as const };
}

/**
 * A simulated agent (`sim/<profile>`). It reads the same prompts a real model gets, works out
 * its role and its own last score from them (through the real parser), and writes real tagged
 * text. Deterministic given the request seed. Always labelled simulated. Given a protocol's simulated replies
 * (`SimulatedProtocol`: APE's, for an APE run), it asks them first, and answers as PMIYC's agent what they leave.
 */
export class SimulatedAgent implements ChatModel {
  readonly simulated = true;
  readonly profile: SimProfile;

  /**
   * `profileName` is `sim/<profile>?...`; it defaults to `name` (they differ for a config alias). A profile's
   * protocol keys (`ape.refuse=...`) are checked here, by `protocol` for its own namespace; any other is refused.
   */
  constructor(
    readonly name: string,
    profileName: string = name,
    private readonly protocol?: SimulatedProtocol,
  ) {
    this.profile = parseSimProfile(profileName);
    checkProtocolTraits(profileName, this.profile, protocol);
  }

  async generate(request: GenerateRequest): Promise<GenerateReply> {
    request.abortSignal?.throwIfAborted();
    // The protocol's replies draw from their own generator: a request they leave is answered as it always was.
    const protocolReply = this.protocol?.reply(request, this.profile, createRandom(request.seed));
    if (protocolReply !== undefined) return { text: protocolReply, finishReason: 'stop' };
    const random = createRandom(request.seed);
    // The consistency study's stance question: a bare label, not the tagged format.
    if (isStanceRequest(request.messages)) return { text: simulatedStanceReply(this.profile, request.messages, random), finishReason: 'stop' };
    const systemPrompt = request.messages.find((message) => message.role === 'system')?.content ?? '';
    if (random() < this.profile.malformed) return { text: malformedText(random), finishReason: 'stop' };
    const lastUser = request.messages.at(-1)?.content ?? '';
    if (request.messages.at(-1)?.role === 'user' && isDriftProbeRequest(lastUser)) {
      return { text: this.answerDriftProbe(systemPrompt, lastUser, random), finishReason: 'stop' };
    }
    const study = simulatedStudyReply(request.messages, this.profile, random, request.seed);
    if (study !== undefined) return { text: study, finishReason: 'stop' };
    const text = roleOfSystemPrompt(systemPrompt) === 'persuader' ? this.argue(systemPrompt, random) : this.respond(request.messages, random);
    return { text, finishReason: 'stop' };
  }

  private argue(systemPrompt: string, random: Random): string {
    const strength = clamp(this.profile.persuasiveness + randomNormal(random, 0, 0.08), 0, 1);
    const ownStance = toAgreementScore(2 + (hashString(this.profile.name + systemPrompt) % 4));
    const text = argumentText(random, subjectOf(systemPrompt), strength);
    // Drawn after the text, so that a persuader without techniques (or other planted marks) writes what it always wrote.
    const marks = [
      ...(this.profile.techniques.length === 0 ? [] : [techniqueMark(chooseTechniques(this.profile.techniques, random))]),
      persuaderMarks(this.profile, random),
    ].filter((mark) => mark !== '');
    return tagged(marks.length === 0 ? text : `${marks.join(' ')} ${text}`, ownStance);
  }

  private respond(messages: readonly ChatMessage[], random: Random): string {
    const ownScores = messages
      .filter((message) => message.role === 'assistant')
      .map((message) => parseTaggedReply(message.content))
      .flatMap((parsed) => (parsed.ok ? [parsed.score] : []));
    const current = ownScores.at(-1);
    if (current === undefined) {
      const { drift } = this.profile;
      const systemPrompt = messages.find((message) => message.role === 'system')?.content ?? '';
      const initial =
        drift === undefined
          ? drawWeighted(random)
          : plantedBelief(this.profile.name, claimOfRequest([systemPrompt, ...messages.map((message) => message.content)]), drift);
      return tagged(stanceText(random, initial), initial);
    }
    const lastUser = messages.at(-1)?.content ?? '';
    const strength = lastUser.includes('<other_agent_message>') ? (readArgumentStrength(lastUser) ?? UNKNOWN_ARGUMENT_STRENGTH) : undefined;
    const moved = strength === undefined ? { score: current, reaction: undefined } : respondToArgument(current, strength, this.profile.susceptibility, random);
    const isFinal = isFinalDecisionRequest(lastUser);
    // Restating the claim at the end pulls a resistant agent back a little (paper, Sec. 5.3).
    const own = isFinal && random() < 0.1 * (1 - this.profile.susceptibility) ? toAgreementScore(moved.score - 1) : moved.score;
    const score = strength === undefined ? own : this.afterTechniques(lastUser, current, strength, isFinal, own, random);
    const text = isFinal ? finalText(random, score) : stanceText(random, score, moved.reaction);
    // Drawn last, and only when planted: a persuadee without role breaks writes what it always wrote.
    const mark = persuadeeMark(this.profile, random);
    return tagged(mark === '' ? text : `${mark} ${text}`, score);
  }

  /**
   * The drift probe after a conversation: with a planted drift, its fixed belief on the claim moved by
   * it (sim-drift.ts); without one, a fresh draw from the opening weights (no drift on average).
   */
  private answerDriftProbe(systemPrompt: string, request: string, random: Random): string {
    const { drift } = this.profile;
    const score =
      drift === undefined
        ? drawWeighted(random)
        : driftedScore(plantedBelief(this.profile.name, claimOfRequest([systemPrompt, request]), drift), drift, random);
    return tagged(`[simulated] Speaking for myself after the discussion: ${stanceText(random, score).replace('[simulated] ', '')}`, score);
  }

  /** The score after the planted effects of the techniques the argument's mark names (none: `own`, no draw). */
  private afterTechniques(argument: string, current: AgreementScore, strength: number, isFinal: boolean, own: AgreementScore, random: Random): AgreementScore {
    const netEffect = (readTechniqueMark(argument) ?? []).reduce((sum, technique) => sum + technique.effect, 0);
    if (netEffect === 0) return own;
    return applyTechniqueEffect(own, nextScoreChances(current, strength, this.profile.susceptibility, isFinal), netEffect, random);
  }
}
