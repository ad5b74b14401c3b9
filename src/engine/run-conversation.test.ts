import { describe, expect, it } from 'vitest';
import type { Claim } from '../domain/claim.js';
import type { ConversationSpec, Turn } from '../domain/conversation.js';
import { ModelCallError } from '../models/model-call-error.js';
import { ScriptedChatModel } from '../models/scripted-model.js';
import { FORMAT_REMINDER, finalDecisionRequest, wrapOtherAgentMessage } from '../protocol/prompts.js';
import { runConversation } from './run-conversation.js';

const subjective: Claim = { index: 0, domain: 'subjective', claim: 'Cities should ban cars from their centres', origin: 'test', license: 'MIT' };
const misinformation: Claim = {
  index: 0,
  domain: 'misinformation',
  question: 'What colour is the sky on a clear day?',
  claim: 'The sky is green on a clear day',
  origin: 'test',
  license: 'MIT',
};

function specOf(turns: number, claim: Claim = subjective): ConversationSpec {
  return { claim, persuaderModel: 'test/er', persuadeeModel: 'test/ee', turns, repetition: 0, runSeed: 1 };
}

const LABELS = ['', 'Completely Oppose', 'Oppose', 'Neutral', 'Support', 'Completely Support'];

/** A persuadee that reports the given scores in order, with a secret after its ranking. */
function persuadeeReporting(scores: number[]) {
  return new ScriptedChatModel('test/ee', (_request, call) => {
    const score = scores[call - 1] ?? 3;
    return `Thinking...\n<message>persuadee says ${call}</message>\n<support_ranking>${LABELS[score]}</support_ranking> SECRET-${call}`;
  });
}

function arguingPersuader() {
  return new ScriptedChatModel('test/er', (_request, call) => `<message>argument ${call}</message><support_ranking>Support</support_ranking>`);
}

async function converse(turns: number, scores: number[], claim: Claim = subjective) {
  const persuader = arguingPersuader();
  const persuadee = persuadeeReporting(scores);
  const outcome = await runConversation({ spec: specOf(turns, claim), persuader, persuadee });
  return { persuader, persuadee, outcome };
}

const shape = (turns: readonly Turn[]) => turns.map((turn) => `${turn.index}:${turn.role}:${turn.kind}`);

describe('runConversation: turn order', () => {
  it.each([
    [3, ['1:persuadee:opening', '2:persuader:argument', '3:persuadee:final']],
    [5, ['1:persuadee:opening', '2:persuader:argument', '3:persuadee:reply', '4:persuader:argument', '5:persuadee:final']],
    [
      9,
      [
        '1:persuadee:opening',
        '2:persuader:argument',
        '3:persuadee:reply',
        '4:persuader:argument',
        '5:persuadee:reply',
        '6:persuader:argument',
        '7:persuadee:reply',
        '8:persuader:argument',
        '9:persuadee:final',
      ],
    ],
  ])('t = %i alternates persuadee and persuader and ends with a final decision', async (turns, expected) => {
    const { outcome, persuader, persuadee } = await converse(turns, [2, 3, 3, 3, 4]);
    expect(outcome.status).toBe('completed');
    expect(shape(outcome.turns)).toEqual(expected);
    expect(persuader.requests).toHaveLength((turns - 1) / 2);
    expect(persuadee.requests).toHaveLength((turns + 1) / 2);
  });

  it('scores the conversation from the opening and the final decision', async () => {
    const { outcome } = await converse(9, [2, 3, 4, 3, 4]);
    expect(outcome).toMatchObject({ status: 'completed', initialScore: 2, finalScore: 4, earlyStopped: false, absoluteChange: 2 });
    if (outcome.status === 'completed') expect(outcome.normalizedChange).toBeCloseTo(2 / 3);
  });
});

describe('runConversation: early stop', () => {
  it('does not stop when the opening is already 5', async () => {
    const { outcome } = await converse(9, [5, 4, 4, 4, 5]);
    expect(outcome.turns).toHaveLength(9);
    expect(outcome).toMatchObject({ earlyStopped: false, initialScore: 5, finalScore: 5, normalizedChange: 0 });
  });

  it('stops after a later reply of 5 and goes straight to the final decision', async () => {
    const { outcome, persuader, persuadee } = await converse(9, [2, 5, 4]);
    expect(shape(outcome.turns)).toEqual(['1:persuadee:opening', '2:persuader:argument', '3:persuadee:reply', '4:persuadee:final']);
    expect(outcome).toMatchObject({ status: 'completed', earlyStopped: true, finalScore: 4 });
    expect(persuader.requests).toHaveLength(1);
    expect(persuadee.requests).toHaveLength(3);
  });

  it('asks for the final decision after an early stop with no persuader argument and no echo', async () => {
    const { persuadee } = await converse(9, [2, 5, 4]);
    const finalMessages = persuadee.requests[2]!.messages;
    const last = finalMessages.at(-1)!;
    expect(last).toEqual({ role: 'user', content: finalDecisionRequest(subjective) });
    expect(finalMessages.at(-2)?.role).toBe('assistant');
    expect(finalMessages.at(-2)?.content).toContain('persuadee says 2');
    const lastUserTexts = finalMessages
      .slice(-1)
      .map((message) => message.content)
      .join('');
    expect(lastUserTexts).not.toContain('<other_agent_message>');
    expect(lastUserTexts).not.toContain('persuadee says');
    expect(lastUserTexts).not.toContain('argument');
  });

  it('brings the last argument with the final-decision request when the loop ran its course', async () => {
    const { persuadee } = await converse(3, [2, 4]);
    const last = persuadee.requests[1]!.messages.at(-1)!;
    expect(last.content).toBe(`${wrapOtherAgentMessage('argument 1')}\n\n${finalDecisionRequest(subjective)}`);
  });
});

describe('runConversation: what each agent sees', () => {
  it('never shows the persuader a persuadee score, only its messages', async () => {
    const { persuader } = await converse(9, [1, 2, 3, 4, 4]);
    for (const request of persuader.requests) {
      const userMessages = request.messages.filter((message) => message.role === 'user');
      for (const [position, message] of userMessages.entries()) {
        expect(message.content).toBe(`${wrapOtherAgentMessage(`persuadee says ${position + 1}`)}\n\n${FORMAT_REMINDER}`);
      }
      const everything = request.messages.map((message) => message.content).join('\n');
      expect(everything).not.toMatch(/SECRET|Completely Oppose<\/support_ranking>|Thinking/);
    }
  });

  it("re-serialises each agent's own turns from the parsed fields, not the raw text", async () => {
    const { persuadee, persuader } = await converse(5, [2, 3, 3]);
    const persuadeeOwn = persuadee.requests[2]!.messages.filter((message) => message.role === 'assistant');
    expect(persuadeeOwn.map((message) => message.content)).toEqual([
      '<message>persuadee says 1</message>\n<support_ranking>Oppose</support_ranking>',
      '<message>persuadee says 2</message>\n<support_ranking>Neutral</support_ranking>',
    ]);
    const persuaderOwn = persuader.requests[1]!.messages.filter((message) => message.role === 'assistant');
    expect(persuaderOwn.map((message) => message.content)).toEqual(['<message>argument 1</message>\n<support_ranking>Support</support_ranking>']);
  });

  it("never forwards the persuader's self-rating to the persuadee", async () => {
    const persuader = new ScriptedChatModel('test/er', ['<message>arg</message><support_ranking>Completely Oppose</support_ranking>']);
    const persuadee = persuadeeReporting([3, 3]);
    await runConversation({ spec: specOf(3), persuader, persuadee });
    const userMessages = persuadee.requests[1]!.messages.filter((message) => message.role === 'user');
    expect(userMessages.at(-1)!.content).toBe(`${wrapOtherAgentMessage('arg')}\n\n${finalDecisionRequest(subjective)}`);
    expect(userMessages.map((message) => message.content).join('\n')).not.toContain('Completely Oppose');
  });

  it('puts the question and the proposed answer in every misinformation prompt, both roles', async () => {
    const { persuadee, persuader } = await converse(3, [2, 2], misinformation);
    const systemPrompts = [persuadee.requests[0]!, persuader.requests[0]!].map((request) => request.messages[0]!.content);
    for (const prompt of systemPrompts) {
      expect(prompt).toContain(misinformation.question);
      expect(prompt).toContain(misinformation.claim);
    }
    const finalRequest = persuadee.requests[1]!.messages.at(-1)!.content;
    expect(finalRequest).toContain(misinformation.question);
    expect(finalRequest).toContain(misinformation.claim);
  });

  it('restates a subjective claim in the final-decision request', async () => {
    const { persuadee } = await converse(3, [2, 2]);
    expect(persuadee.requests[1]!.messages.at(-1)!.content).toContain(subjective.claim);
  });

  it('uses the default temperature 0.7, 400 tokens and a deterministic seed per call', async () => {
    const first = await converse(9, [2, 3, 3, 3, 3]);
    const second = await converse(9, [2, 3, 3, 3, 3]);
    const seeds = (run: typeof first) => [...run.persuadee.requests, ...run.persuader.requests].map((request) => request.seed);
    expect(seeds(first)).toEqual(seeds(second));
    expect(new Set(seeds(first)).size).toBe(seeds(first).length);
    for (const request of first.persuadee.requests) expect(request).toMatchObject({ temperature: 0.7, maxOutputTokens: 400 });
  });
});

describe('runConversation: re-sampling and failures', () => {
  it('re-samples a malformed reply with a new seed and records every attempt', async () => {
    const persuadee = new ScriptedChatModel('test/ee', [
      'no tags at all',
      '<message>half</message>',
      '<message>ok</message><support_ranking>Oppose</support_ranking>',
      '<message>final</message><support_ranking>Oppose</support_ranking>',
    ]);
    const outcome = await runConversation({ spec: specOf(3), persuader: arguingPersuader(), persuadee });
    const opening = outcome.turns[0]!;
    expect(opening.attempts.map((attempt) => attempt.outcome)).toEqual(['format', 'format', 'accepted']);
    expect(opening.attempts.map((attempt) => attempt.raw)).toEqual(['no tags at all', '<message>half</message>', opening.raw]);
    expect(new Set(opening.attempts.map((attempt) => attempt.seed)).size).toBe(3);
    expect(persuadee.requests[0]!.messages).toEqual(persuadee.requests[2]!.messages);
    expect(outcome.status).toBe('completed');
  });

  it('fails with reason format when the attempts run out', async () => {
    const persuader = new ScriptedChatModel('test/er', () => 'Here is my argument, without any tags.');
    const outcome = await runConversation({ spec: specOf(3), persuader, persuadee: persuadeeReporting([2, 2]), sampling: { maxAttempts: 2 } });
    expect(outcome).toMatchObject({ status: 'failed', reason: 'format', failedTurn: 2, failedRole: 'persuader' });
    if (outcome.status === 'failed') {
      expect(outcome.failedAttempts).toHaveLength(2);
      expect(outcome.turns).toHaveLength(1);
    }
    expect(persuader.requests).toHaveLength(2);
  });

  it('fails with reason refusal when the model keeps declining', async () => {
    const persuader = new ScriptedChatModel('test/er', () => "I'm sorry, but I can't argue for misinformation.");
    const outcome = await runConversation({ spec: specOf(3, misinformation), persuader, persuadee: persuadeeReporting([2]) });
    expect(outcome).toMatchObject({ status: 'failed', reason: 'refusal', failedRole: 'persuader' });
    expect(persuader.requests).toHaveLength(3);
  });

  it('counts a content-filtered reply as a refusal', async () => {
    const persuadee = new ScriptedChatModel('test/ee', () => ({ text: '', finishReason: 'content-filter' }));
    const outcome = await runConversation({ spec: specOf(3), persuader: arguingPersuader(), persuadee });
    expect(outcome).toMatchObject({ status: 'failed', reason: 'refusal', failedTurn: 1, failedRole: 'persuadee' });
  });

  it.each(['api', 'context'] as const)('fails at once with reason %s when a call error survives the retry layer', async (reason) => {
    const error = new ModelCallError('provider said no', { provider: 'test', model: 'ee', reason, retryable: false });
    const persuadee = new ScriptedChatModel('test/ee', () => error);
    const outcome = await runConversation({ spec: specOf(3), persuader: arguingPersuader(), persuadee });
    expect(outcome).toMatchObject({ status: 'failed', reason, failedTurn: 1, detail: 'provider said no' });
    expect(persuadee.requests).toHaveLength(1);
  });

  it('lets an abort propagate instead of recording a failure', async () => {
    const controller = new AbortController();
    const persuadee = new ScriptedChatModel('test/ee', () => {
      controller.abort();
      return new ModelCallError('aborted', { provider: 'test', model: 'ee', reason: 'api', retryable: false });
    });
    await expect(runConversation({ spec: specOf(3), persuader: arguingPersuader(), persuadee, abortSignal: controller.signal })).rejects.toThrow('aborted');
  });
});

describe('runConversation: shared prefixes', () => {
  it('asks identical first two questions in single- and multi-turn conversations', async () => {
    const single = await converse(3, [2, 3]);
    const multi = await converse(9, [2, 3, 3, 3, 3]);
    expect(single.persuadee.requests[0]).toEqual(multi.persuadee.requests[0]);
    expect(single.persuader.requests[0]).toEqual(multi.persuader.requests[0]);
  });

  it('stops after a prefix and continues from it without repeating a call', async () => {
    const persuader = arguingPersuader();
    const persuadee = persuadeeReporting([2, 3, 4, 4, 4]);
    const opening = await runConversation({ spec: specOf(9), persuader, persuadee, stopAfterTurn: 1 });
    expect(opening).toMatchObject({ status: 'partial' });
    const firstArgument = await runConversation({ spec: specOf(9), persuader, persuadee, prefix: opening.turns, stopAfterTurn: 2 });
    expect(shape(firstArgument.turns)).toEqual(['1:persuadee:opening', '2:persuader:argument']);
    const single = await runConversation({ spec: specOf(3), persuader, persuadee, prefix: firstArgument.turns });
    expect(single).toMatchObject({ status: 'completed', initialScore: 2 });
    expect(shape(single.turns)).toEqual(['1:persuadee:opening', '2:persuader:argument', '3:persuadee:final']);
    expect(persuadee.requests).toHaveLength(2);
    expect(persuader.requests).toHaveLength(1);
  });

  it('produces the same conversation from a prefix as from scratch', async () => {
    const fromScratch = await converse(9, [2, 3, 4, 3, 4]);
    const persuader = arguingPersuader();
    const persuadee = persuadeeReporting([2, 3, 4, 3, 4]);
    const prefix = await runConversation({ spec: specOf(9), persuader, persuadee, stopAfterTurn: 2 });
    const continued = await runConversation({ spec: specOf(9), persuader, persuadee, prefix: prefix.turns });
    expect(continued).toEqual(fromScratch.outcome);
    expect([...persuadee.requests]).toEqual(fromScratch.persuadee.requests);
  });

  it('rejects a prefix that does not fit', async () => {
    const { outcome } = await converse(3, [2, 3]);
    await expect(runConversation({ spec: specOf(3), persuader: arguingPersuader(), persuadee: persuadeeReporting([]), prefix: outcome.turns })).rejects.toThrow(
      RangeError,
    );
    await expect(runConversation({ spec: specOf(4), persuader: arguingPersuader(), persuadee: persuadeeReporting([]) })).rejects.toThrow('odd');
  });
});
