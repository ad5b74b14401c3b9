import { describe, expect, it } from 'vitest';
import type { AgreementScore } from '../domain/agreement-score.js';
import type { Claim } from '../domain/claim.js';
import type { Turn } from '../domain/conversation.js';
import { isDriftProbeRequest } from '../protocol/drift-prompt.js';
import { driftProbeMessages } from './agent-messages.js';

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
