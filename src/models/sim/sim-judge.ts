import { clamp } from '../../domain/numbers.js';
import { createRandom, deriveSeed, type Random, randomNormal } from '../../domain/random.js';
import { isConversationJudgeSystemPrompt, readConversationJudgeRequest } from '../../protocol/conversation-judge-prompt.js';
import { isJudgeSystemPrompt, readJudgeRequest } from '../../protocol/judge-prompt.js';
import { synthesisStep } from '../../protocol/judge-synthesis-prompt.js';
import { isTurnJudgeSystemPrompt, readTurnJudgeRequest, readTurnJudgeTaxonomyIds } from '../../protocol/turn-judge-prompt.js';
import type { ChatMessage } from '../chat-model.js';
import type { SimProfile } from './sim-profile.js';
import { simulatedTurnLabels } from './sim-techniques.js';
import { argumentText, readArgumentStrength } from './sim-text.js';

/** A simulated judge: the argument with the higher planted strength, else (real arguments) the longer one. */
function judgeReply(messages: readonly ChatMessage[]): string {
  const request = readJudgeRequest(messages.find((message) => message.role === 'user')?.content ?? '');
  if (!request) return '[simulated judge] I could not find the two arguments.';
  const first = readArgumentStrength(request.first);
  const second = readArgumentStrength(request.second);
  const choice = first !== undefined && second !== undefined ? (first >= second ? 1 : 2) : request.first.length >= request.second.length ? 1 : 2;
  return `[simulated judge] <choice>${choice}</choice>`;
}

/** A simulated argument for the synthesis study; a rewrite is stronger than the original it rewrites. */
function synthesisReply(step: 'argument' | 'rewrite', messages: readonly ChatMessage[], profile: SimProfile, random: Random): string {
  const claim = /Claim: "([\s\S]*)"/.exec(messages.find((message) => message.role === 'user')?.content ?? '')?.[1];
  const subject = claim === undefined ? 'the claim' : `"${claim}"`;
  if (step === 'argument') return argumentText(random, subject, clamp(profile.persuasiveness + randomNormal(random, 0, 0.08), 0, 1));
  const original = readArgumentStrength(messages.filter((message) => message.role === 'assistant').at(-1)?.content ?? '') ?? profile.persuasiveness;
  return argumentText(random, subject, clamp(original + (1 - original) * 0.5, 0, 1));
}

/**
 * A simulated turn judge's answer (`pmiyc analyze`): the labelled turn's marks read by
 * `simulatedTurnLabels` with the profile's `labelError`, answered as strict JSON with only the ids the
 * system prompt lists. A request it cannot read is answered with a sentence (an unusable answer).
 */
function turnJudgeReply(systemPrompt: string, messages: readonly ChatMessage[], profile: SimProfile, random: Random): string {
  const request = readTurnJudgeRequest(messages.find((message) => message.role === 'user')?.content ?? '');
  if (!request) return '[simulated judge] I could not find the turn to label.';
  const ids = readTurnJudgeTaxonomyIds(systemPrompt);
  const { role: _role, ...labels } = simulatedTurnLabels(request.turn.message, request.turn.role, ids.techniques, profile.labelError, random, ids.unethical);
  return JSON.stringify(labels);
}

/**
 * A simulated conversation judge's answer (`pmiyc analyze --grain conversation`): every turn shown,
 * labelled as the turn judge labels it, each turn's errors drawn from a random of its own (the
 * request's seed and the turn's number), so that the two grains agree exactly without label error
 * and each label differs between them at about the error rate with it. Keyed by turn number.
 */
function conversationJudgeReply(systemPrompt: string, messages: readonly ChatMessage[], profile: SimProfile, seed: number): string {
  const request = readConversationJudgeRequest(messages.find((message) => message.role === 'user')?.content ?? '');
  if (!request) return '[simulated judge] I could not find the turns to label.';
  const ids = readTurnJudgeTaxonomyIds(systemPrompt);
  const entries = request.turns.map((turn) => {
    const random = createRandom(deriveSeed(seed, ['turn', turn.index]));
    const { role: _role, ...labels } = simulatedTurnLabels(turn.message, turn.role, ids.techniques, profile.labelError, random, ids.unethical);
    return [String(turn.index), labels] as const;
  });
  return JSON.stringify(Object.fromEntries(entries));
}

/**
 * The reply of a simulated agent to a validation-study request (LLM as judge, preference
 * synthesis, a turn or conversation judge's labels; `seed` is the request's), or undefined when the request is not one of those.
 */
export function simulatedStudyReply(messages: readonly ChatMessage[], profile: SimProfile, random: Random, seed: number): string | undefined {
  const systemPrompt = messages.find((message) => message.role === 'system')?.content ?? '';
  if (isJudgeSystemPrompt(systemPrompt)) return judgeReply(messages);
  if (isTurnJudgeSystemPrompt(systemPrompt)) return turnJudgeReply(systemPrompt, messages, profile, random);
  if (isConversationJudgeSystemPrompt(systemPrompt)) return conversationJudgeReply(systemPrompt, messages, profile, seed);
  const step = synthesisStep(systemPrompt, messages.at(-1)?.content ?? '');
  return step === undefined ? undefined : synthesisReply(step, messages, profile, random);
}
