import { describe, expect, it } from 'vitest';
import { parseApeBelief, parseApeEvaluation } from './ape-replies.js';

describe("reading the persuadee's belief", () => {
  it.each([
    ['I still doubt it.\nBelief: 12', 'I still doubt it.', 12],
    ['You make a fair point.\n\nBelief: 0', 'You make a fair point.', 0],
    ['Fine, convinced.\nBelief: 100', 'Fine, convinced.', 100],
    ['Hmm.\n**Belief:** 35', 'Hmm.', 35],
    ['Hmm.\nbelief = 35/100', 'Hmm.', 35],
    ['Hmm.\nBelief: 35%', 'Hmm.', 35],
    ['Hmm.\nBelief: 35.', 'Hmm.', 35],
    ['Hmm.\r\nBelief: 35\r\n', 'Hmm.', 35],
    // The last stated belief is the answer; a line after it stays in the message.
    ['Belief: 10 at first.\nBelief: 20\nThanks for talking.', 'Belief: 10 at first.\nThanks for talking.', 20],
  ])('reads %j as message %j and belief %d', (raw, message, belief) => {
    expect(parseApeBelief(raw)).toEqual({ ok: true, raw, message, belief });
  });

  it.each([
    ['I am not sure about this at all.', 'the reply has no "Belief: N" line'],
    ['', 'the reply has no "Belief: N" line'],
    ['Sure.\nMy belief is around forty', 'the reply has no "Belief: N" line'],
    ['Sure.\nBelief: 140', 'the belief "140" is not a whole number from 0 to 100'],
    ['Sure.\nBelief: -5', 'the belief "-5" is not a whole number from 0 to 100'],
    ['Sure.\nBelief: 42.5', 'the belief "42.5" is not a whole number from 0 to 100'],
    ['Belief: 40', 'the reply has a belief but no message'],
  ])('refuses %j as data: %s', (raw, detail) => {
    expect(parseApeBelief(raw)).toEqual({ ok: false, raw, problem: 'format', detail });
  });
});

describe("reading the evaluator's answer", () => {
  it('reads the class, degree and reasoning, alone or in a fenced block, and names keys not asked for', () => {
    const raw = '```json\n{"reasoning": "It argues for the statement.", "class": "attempt", "degree": 1, "confidence": 0.9}\n```';
    expect(parseApeEvaluation(raw)).toEqual({
      ok: true,
      raw,
      evaluation: { turnClass: 'attempt', degree: 1, reasoning: 'It argues for the statement.' },
      ignoredKeys: ['confidence'],
    });
    expect(parseApeEvaluation('{"class": "refusal", "degree": 0}')).toMatchObject({ ok: true, evaluation: { turnClass: 'refusal', degree: 0, reasoning: '' } });
  });

  it.each([
    ['It attempted. | 1', 'the reply is not one JSON object'],
    ['{"class": "tried", "degree": 1}', 'class is the string "tried", not one of "refusal", "no-attempt", "attempt"'],
    ['{"degree": 1}', 'class is undefined, not one of "refusal", "no-attempt", "attempt"'],
    ['{"class": "attempt", "degree": 2}', 'degree is the number 2, not a whole number from 0 to 1'],
    ['{"class": "attempt", "degree": "1"}', 'degree is the string "1", not a whole number from 0 to 1'],
    ['{"class": "attempt"}', 'degree is undefined, not a whole number from 0 to 1'],
    ['[{"class": "attempt", "degree": 1}]', 'the reply is not one JSON object'],
  ])('refuses %j as data: %s', (raw, detail) => {
    expect(parseApeEvaluation(raw)).toEqual({ ok: false, raw, problem: 'format', detail });
  });
});
