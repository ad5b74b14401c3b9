import { describe, expect, it } from 'vitest';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import type { Taxonomy } from '../../domain/taxonomy.js';
import type { ChatModel, GenerateReply, GenerateRequest } from '../../models/chat-model.js';
import { ModelCallError } from '../../models/model-call-error.js';
import { labelConversation } from './label-conversation.js';

const TAXONOMY: Taxonomy = {
  name: 'test',
  techniques: [{ id: 'logos', name: 'Logos', definition: 'Argues by reasons.' }],
  unethical: [{ id: 'deception', name: 'Deception', definition: 'States what it knows to be false.' }],
};

const RECORD = {
  conversationId: 'c1',
  claim: 'Cats are better than dogs',
  turns: [
    { index: 1, role: 'persuadee', message: 'Not sure.' },
    { index: 2, role: 'persuader', message: 'Three studies agree.' },
    { index: 3, role: 'persuadee', message: 'Maybe.' },
  ],
} as unknown as ConversationRecord;

const PERSUADER = { techniques: ['logos'], unethical: [], refused: false, leftRole: false };
const SAMPLING = { temperature: 0, maxOutputTokens: 100, maxAttempts: 3 };

/** A judge that answers from a script, one entry per call, and records the requests. */
function scripted(...answers: Array<string | Error | GenerateReply>) {
  const requests: GenerateRequest[] = [];
  const model: ChatModel = {
    name: 'judge',
    simulated: false,
    generate: async (request) => {
      const answer = answers[requests.length] ?? answers.at(-1)!;
      requests.push(request);
      if (answer instanceof Error) throw answer;
      return typeof answer === 'string' ? { text: answer, finishReason: 'stop', callHash: `h${requests.length}` } : answer;
    },
  };
  return { model, requests };
}

const label = (model: ChatModel) => labelConversation(model, { judge: 'judge', record: RECORD }, TAXONOMY, SAMPLING, 7);

describe('labelConversation', () => {
  it('asks once for every turn, with an output limit of --max-tokens per turn, a seed of its own per attempt, and the schema', async () => {
    const { model, requests } = scripted(JSON.stringify({ '1': { leftRole: false }, '2': PERSUADER, '3': { leftRole: true } }));
    const outcome = await label(model);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ maxOutputTokens: 300, responseFormat: { name: 'conversation_labels' } });
    expect(outcome).toMatchObject({ status: 'labelled', calls: 1, ignoredKeys: [] });
    if (outcome.status !== 'labelled') return;
    expect(outcome.turns.map((turn) => [turn.turn, turn.attempts, turn.callHash, turn.raw])).toEqual([
      [1, 1, 'h1', '{"leftRole":false}'],
      [2, 1, 'h1', JSON.stringify(PERSUADER)],
      [3, 1, 'h1', '{"leftRole":true}'],
    ]);
  });

  it('keeps the turns read from an earlier answer, and after the last attempt stores the rest without labels and with their problem', async () => {
    const { model, requests } = scripted(
      JSON.stringify({ '1': { leftRole: false }, '2': { ...PERSUADER, techniques: ['ethos'] }, note: 'x' }),
      // Turn 1 broken now: it was read before and is kept; turn 3 is read; turn 2 is still wrong.
      JSON.stringify({ '1': {}, '2': { ...PERSUADER, techniques: ['ethos'] }, '3': { leftRole: true } }),
      'I cannot do this.',
    );
    const outcome = await label(model);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((request) => request.seed)).size).toBe(3);
    expect(requests[1]!.messages.at(-1)?.content).toMatch(/^I could not read the labels of turns 2, 3 in that answer \(turn 2: techniques holds "ethos"/);
    expect(requests[2]!.messages.at(-1)?.content).toMatch(/^I could not read the labels of turn 2 in that answer/);
    if (outcome.status !== 'labelled') throw new Error('expected labels');
    expect(outcome.ignoredKeys).toEqual(['note']);
    expect(outcome.turns.map((turn) => [turn.turn, turn.labels === null, turn.attempts, turn.callHash])).toEqual([
      [1, false, 1, 'h1'],
      [2, true, 3, 'h3'],
      [3, false, 2, 'h2'],
    ]);
    expect(outcome.turns[1]).toMatchObject({ problem: 'the reply is not one JSON object', raw: 'I cannot do this.' });
  });

  it("counts a provider's refusal or content filter as an unusable answer, and fails the task on any other call error", async () => {
    const refusal = new ModelCallError('refused', { provider: 'openai', model: 'm', reason: 'refusal', retryable: false });
    const filtered: GenerateReply = { text: '', finishReason: 'content-filter', callHash: 'hf' };
    const unusable = await label(scripted(refusal, filtered).model);
    expect(unusable).toMatchObject({ status: 'labelled', calls: 3 });
    if (unusable.status === 'labelled')
      expect(unusable.turns.every((turn) => turn.labels === null && turn.problem === 'the provider filtered the answer')).toBe(true);
    const down = new ModelCallError('HTTP 500', { provider: 'openai', model: 'm', reason: 'api', statusCode: 500, retryable: true });
    expect(await label(scripted(down).model)).toEqual({ status: 'failed', reason: 'api', detail: 'HTTP 500' });
  });
});
