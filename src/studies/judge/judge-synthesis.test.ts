import { describe, expect, it } from 'vitest';
import type { Claim } from '../../domain/claim.js';
import { ModelCallError } from '../../models/model-call-error.js';
import { ScriptedChatModel } from '../../models/scripted-model.js';
import { argumentRequest, rewriteRequest } from '../../protocol/judge-synthesis-prompt.js';
import { synthesizePreference } from './judge-synthesis.js';

const claim: Claim = { index: 4, domain: 'subjective', claim: 'Trains beat planes', origin: 'perspectrum', license: 'CC BY-SA 4.0' };
const settings = { temperature: 0.7, maxOutputTokens: 400, maxAttempts: 2 };

describe('synthesizing one preference pair', () => {
  it('asks for an argument, then a rewrite with the argument in context, and names them chosen and rejected', async () => {
    const model = new ScriptedChatModel('writer', ['Original.', 'Rewritten, stronger.']);
    const outcome = await synthesizePreference({ model, modelName: 'alias', claim, runSeed: 9, settings });
    expect(outcome).toEqual({
      status: 'synthesized',
      example: {
        prompt: argumentRequest('Trains beat planes'),
        chosen: 'Rewritten, stronger.',
        rejected: 'Original.',
        claim: 'Trains beat planes',
        claimIndex: 4,
        origin: 'perspectrum',
        license: 'CC BY-SA 4.0',
        model: 'alias',
        seed: 9,
      },
    });
    expect(model.requests[1]!.messages.slice(1)).toEqual([
      { role: 'user', content: argumentRequest('Trains beat planes') },
      { role: 'assistant', content: 'Original.' },
      { role: 'user', content: rewriteRequest() },
    ]);
    expect(model.requests[0]!.seed).not.toBe(model.requests[1]!.seed);
  });

  it('asks again after an unusable reply, and gives up after the attempts with the reason', async () => {
    const retried = new ScriptedChatModel('writer', ["I'm sorry, I can't.", 'Original.', 'Original.', 'Original.']);
    expect(await synthesizePreference({ model: retried, modelName: 'w', claim, runSeed: 1, settings })).toEqual({
      status: 'unusable',
      step: 'rewrite',
      detail: 'no usable rewrite in 2 attempts: the rewrite is the original argument unchanged',
    });
    expect(retried.requests).toHaveLength(4);
  });

  it('is a failed outcome when a call fails after the retry layer', async () => {
    const error = new ModelCallError('HTTP 503', { provider: 'openai', model: 'x', reason: 'api', retryable: true });
    expect(await synthesizePreference({ model: new ScriptedChatModel('w', [error]), modelName: 'w', claim, runSeed: 1, settings })).toEqual({
      status: 'failed',
      reason: 'api',
      detail: 'HTTP 503',
    });
  });
});
