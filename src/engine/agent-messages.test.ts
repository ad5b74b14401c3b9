import { describe, expect, it } from 'vitest';
import type { AgreementScore } from '../domain/agreement-score.js';
import type { Claim } from '../domain/claim.js';
import type { Turn } from '../domain/conversation.js';
import { isDriftProbeRequest } from '../protocol/drift-prompt.js';
import { driftProbeMessages, finalDecisionMessages, persuadeeMessages, persuaderMessages } from './agent-messages.js';

const claim: Claim = { domain: 'subjective', index: 3, claim: 'Cities should ban cars from their centres.', origin: 'examples', license: 'CC0-1.0' };

const turn = (index: number, role: Turn['role'], message: string, score: AgreementScore): Turn => ({
  index,
  role,
  kind: index === 1 ? 'opening' : role === 'persuader' ? 'argument' : 'reply',
  message,
  score,
  raw: message,
  attempts: [],
});

describe('the drift probe', () => {
  it("asks the persuader with its own view of the whole conversation: the persuadee's last message carries the question", () => {
    const turns = [turn(1, 'persuadee', 'I doubt it.', 2), turn(2, 'persuader', 'Streets get safer.', 5), turn(3, 'persuadee', 'Still no.', 2)];
    const messages = driftProbeMessages(claim, turns);
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const last = messages.at(-1)?.content ?? '';
    expect(last).toContain('Still no.');
    expect(isDriftProbeRequest(last)).toBe(true);
    expect(last).toContain(claim.claim);
  });

  it('asks on its own after a persuader turn, so user and assistant still alternate', () => {
    const messages = driftProbeMessages(claim, [turn(1, 'persuadee', 'I doubt it.', 2), turn(2, 'persuader', 'Streets get safer.', 5)]);
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(isDriftProbeRequest(messages.at(-1)?.content ?? '')).toBe(true);
    expect(isDriftProbeRequest(messages[1]?.content ?? '')).toBe(false);
  });
});

describe("an agent's requests over a conversation", () => {
  const turns = [
    turn(1, 'persuadee', 'I doubt it.', 2),
    turn(2, 'persuader', 'Streets get safer.', 5),
    turn(3, 'persuadee', 'Maybe.', 3),
    turn(4, 'persuader', 'Shops gain customers.', 5),
    turn(5, 'persuadee', 'Perhaps so.', 3),
    turn(6, 'persuader', 'Air gets cleaner.', 5),
  ];
  const isPrefix = (earlier: readonly unknown[], later: readonly unknown[]) => JSON.stringify(later.slice(0, earlier.length)) === JSON.stringify(earlier);

  it('each repeat the one before as their prefix, so a provider can serve all of it from its prompt cache', () => {
    // The persuadee is asked before turns 1, 3 and 5 and for the final decision; the persuader before 2, 4 and 6.
    const persuadee = [0, 2, 4].map((before) => persuadeeMessages(claim, turns.slice(0, before)));
    const persuader = [1, 3, 5].map((before) => persuaderMessages(claim, turns.slice(0, before)));
    for (const requests of [persuadee, persuader]) {
      for (let index = 1; index < requests.length; index++) expect(isPrefix(requests[index - 1]!, requests[index]!)).toBe(true);
    }
    // The final decision changes only its last message: everything the last in-loop request held is its prefix.
    const final = finalDecisionMessages(claim, turns);
    expect(isPrefix(persuadee.at(-1)!, final)).toBe(true);
  });
});
