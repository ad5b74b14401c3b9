import { describe, expect, it } from 'vitest';
import { parseJudgeChoice } from './judge-choice.js';
import { isJudgeSystemPrompt, judgeRequest, judgeSystemPrompt, readJudgeRequest } from './judge-prompt.js';

describe('reading a judge reply', () => {
  it.each([
    ['<choice>1</choice>', 1],
    ['<choice>2</choice>', 2],
    ['  <CHOICE> 2 </Choice>  ', 2],
    ['<choice>2', 2],
    ['<choice>Argument 1</choice>', 1],
    ['<choice>**2**</choice>', 2],
    ['<choice>2.</choice>', 2],
    ['<choice>second</choice>', 2],
    ['<choice>Argument #1</choice>', 1],
    ['Both are decent, but the second is more concrete.\n<choice>2</choice>', 2],
    ['<choice>1</choice> ... on reflection <choice>1</choice>', 1],
    ['2', 2],
    ['1.', 1],
    ['**Argument 2**', 2],
    ['"1"', 1],
    ['Argument one', 1],
    ['Having weighed both carefully.\nAnswer: 2', 2],
    ['More persuasive: Argument 1', 1],
    ['**Choice:** 2', 2],
  ] as const)('accepts %j as %i', (raw, choice) => {
    expect(parseJudgeChoice(raw)).toEqual({ ok: true, raw, choice });
  });

  it.each([
    ['', 'format', 'the reply is empty'],
    ['   \n', 'format', 'the reply is empty'],
    ['<choice>1 or 2</choice>', 'format', 'the <choice> tag names both arguments'],
    ['<choice>neither</choice>', 'format', 'the <choice> tag names neither argument 1 nor 2'],
    ['<choice>3</choice>', 'format', 'names neither'],
    ['<choice>12</choice>', 'format', 'names neither'],
    ['<choice>1</choice> no wait <choice>2</choice>', 'format', 'the <choice> tags disagree'],
    ['Argument 1 is weaker than argument 2.', 'format', 'no <choice> tag and no plain answer'],
    ['Answer: 1. Actually, answer: 2', 'format', 'the labelled answer names both arguments'],
    ['They are equally persuasive.', 'format', 'no <choice> tag'],
    ["I'm sorry, but I can't judge persuasive content.", 'refusal', 'declined'],
  ] as const)('rejects %j (%s)', (raw, problem, detail) => {
    const parsed = parseJudgeChoice(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problem).toBe(problem);
      expect(parsed.detail).toContain(detail);
      expect(parsed.raw).toBe(raw);
    }
  });
});

describe('the judge request', () => {
  it('shows the claim and both arguments exactly, and can be read back', () => {
    const first = 'An argument\nwith "quotes" and <tags>.';
    const second = '  leading spaces kept';
    const request = judgeRequest('Claims "can" quote', first, second);
    expect(readJudgeRequest(request)).toEqual({ claim: 'Claims "can" quote', first, second });
    expect(readJudgeRequest('Claim: "x"\n\nsomething else')).toBeUndefined();
    expect(isJudgeSystemPrompt(judgeSystemPrompt())).toBe(true);
    expect(isJudgeSystemPrompt('In this exercise you are the PERSUADER.')).toBe(false);
  });
});
