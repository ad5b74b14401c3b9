import { describe, expect, it } from 'vitest';
import { MemoryCallCache } from '../call-cache.js';
import type { GenerateRequest } from '../chat-model.js';
import { ModelCallError } from '../model-call-error.js';
import { ScriptedChatModel } from '../scripted-model.js';
import { withCallCache } from './with-call-cache.js';

const ask = (content: string): GenerateRequest => ({ messages: [{ role: 'user', content }], maxOutputTokens: 100, seed: 1 });
const fields = { provider: 'openai-compatible', model: 'm', reason: 'api' as const, retryable: false };

describe('a call whose reply was past the size limit', () => {
  it('is not asked again in the same session: the same request fails at once with the same error; others are asked', async () => {
    const tooLarge = new ModelCallError('big: the server sent a reply larger than 8 MiB', { ...fields, replyLimitBytes: 8 * 2 ** 20 });
    const server = new ScriptedChatModel('big', (request) => (request.messages[0]!.content === 'huge' ? tooLarge : 'fine'));
    const cache = new MemoryCallCache();
    const session = withCallCache(server, cache, { modelIdentity: 'openai-compatible/m', now: () => 0 });
    await expect(session.generate(ask('huge'))).rejects.toBe(tooLarge);
    await expect(session.generate(ask('huge'))).rejects.toBe(tooLarge);
    expect((await session.generate(ask('small'))).text).toBe('fine');
    expect(server.requests.map((request) => request.messages[0]!.content)).toEqual(['huge', 'small']);

    // A later session (a resume) asks it once more: the limit may have been raised.
    const resumed = withCallCache(server, cache, { modelIdentity: 'openai-compatible/m', now: () => 0 });
    await expect(resumed.generate(ask('huge'))).rejects.toBe(tooLarge);
    expect(server.requests).toHaveLength(3);
  });

  it('is the only failure remembered: a request that failed otherwise is asked again', async () => {
    const refused = new ModelCallError('big: HTTP 400: bad request', { ...fields, statusCode: 400 });
    const server = new ScriptedChatModel('big', [refused, 'fine']);
    const session = withCallCache(server, new MemoryCallCache(), { modelIdentity: 'openai-compatible/m', now: () => 0 });
    await expect(session.generate(ask('again'))).rejects.toBe(refused);
    expect((await session.generate(ask('again'))).text).toBe('fine');
  });
});
