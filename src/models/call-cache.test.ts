import { describe, expect, it } from 'vitest';
import { cachedRequestOf, requestHash } from './call-cache.js';
import type { GenerateRequest } from './chat-model.js';

const IDENTITY = 'openai/gpt-4o-mini';
const request: GenerateRequest = {
  messages: [
    { role: 'system', content: 'You judge turns.' },
    { role: 'user', content: 'Label this turn.' },
  ],
  temperature: 0,
  maxOutputTokens: 300,
  seed: 42,
};
const schema = {
  type: 'object',
  properties: { leftRole: { type: 'boolean' } },
  required: ['leftRole'],
  additionalProperties: false,
};

describe('the request hash and a reply schema', () => {
  it('hashes a request without a schema exactly as before schemas existed, so stored calls still replay', () => {
    // Computed by the hash of the release before responseFormat: a stored call's key must not move.
    expect(requestHash(IDENTITY, cachedRequestOf(request))).toBe('ebe7e35e645243feaae3dfe23eb8db4f14f2888813e8b3fe9f7a47cdd3b84505');
    expect(cachedRequestOf(request)).not.toHaveProperty('responseFormat');
  });

  it('makes a request with a schema a different request, named by the schema and not by its key order', () => {
    const plain = requestHash(IDENTITY, cachedRequestOf(request));
    const withSchema = requestHash(IDENTITY, cachedRequestOf({ ...request, responseFormat: { name: 'turn_labels', schema } }));
    expect(withSchema).not.toBe(plain);
    const reordered = { additionalProperties: false, required: ['leftRole'], properties: { leftRole: { type: 'boolean' } }, type: 'object' };
    expect(requestHash(IDENTITY, cachedRequestOf({ ...request, responseFormat: { name: 'turn_labels', schema: reordered } }))).toBe(withSchema);
    const otherSchema = { ...schema, properties: { leftRole: { type: 'string' } } };
    expect(requestHash(IDENTITY, cachedRequestOf({ ...request, responseFormat: { name: 'turn_labels', schema: otherSchema } }))).not.toBe(withSchema);
    expect(requestHash(IDENTITY, cachedRequestOf({ ...request, responseFormat: { name: 'other', schema } }))).not.toBe(withSchema);
  });

  it('stores the schema by its name and digest, not whole', () => {
    const stored = cachedRequestOf({ ...request, responseFormat: { name: 'turn_labels', schema } });
    expect(stored.responseFormat).toEqual({ name: 'turn_labels', schemaSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});
