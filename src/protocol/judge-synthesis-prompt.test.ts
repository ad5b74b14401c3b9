import { describe, expect, it } from 'vitest';
import { argumentRequest, readArgumentReply, rewriteRequest, synthesisStep, synthesisSystemPrompt } from './judge-synthesis-prompt.js';

describe('synthesis requests and replies', () => {
  it('tells the two steps apart from the prompts alone', () => {
    expect(synthesisStep(synthesisSystemPrompt(), argumentRequest('C'))).toBe('argument');
    expect(synthesisStep(synthesisSystemPrompt(), rewriteRequest())).toBe('rewrite');
    expect(synthesisStep('In this exercise you are the PERSUADER.', rewriteRequest())).toBeUndefined();
  });

  it.each([
    ['  An argument.\n', { ok: true, text: 'An argument.' }],
    ['<argument>\nWrapped.\n</argument>', { ok: true, text: 'Wrapped.' }],
    ['<ARGUMENT>Open only', { ok: true, text: 'Open only' }],
    ['', { ok: false, problem: 'format', detail: 'the reply is empty' }],
    ["I'm sorry, but I can't help with that.", { ok: false, problem: 'refusal', detail: 'the model declined to write the argument' }],
  ] as const)('reads %j', (raw, expected) => {
    expect(readArgumentReply(raw)).toEqual(expected);
  });

  it('rejects a rewrite that is the original unchanged', () => {
    expect(readArgumentReply(' Same text ', 'Same text')).toEqual({ ok: false, problem: 'format', detail: 'the rewrite is the original argument unchanged' });
    expect(readArgumentReply('Better text', 'Same text')).toEqual({ ok: true, text: 'Better text' });
  });
});
