import { describe, expect, it } from 'vitest';
import { redactSecrets, secretsOf } from './model-secrets.js';

const KEY = 'sk-proj-Abc123def456ghi789';

describe('secretsOf', () => {
  it('names the key by its variable and each header value by its header, with the credential of a scheme on its own', () => {
    const secrets = secretsOf({ apiKey: KEY, apiKeyEnv: 'OPENAI_API_KEY', headers: { Authorization: 'Bearer gw-token-98765', 'x-api-key': 'xk-1234567890' } });
    expect(secrets).toEqual([
      { name: 'OPENAI_API_KEY', value: KEY },
      { name: 'header Authorization', value: 'Bearer gw-token-98765' },
      { name: 'header Authorization', value: 'gw-token-98765' },
      { name: 'header x-api-key', value: 'xk-1234567890' },
    ]);
  });

  it('leaves out values shorter than 8 characters (placeholder keys such as EMPTY), which would mangle words', () => {
    expect(secretsOf({ apiKey: 'EMPTY', apiKeyEnv: 'VLLM_API_KEY', headers: { 'x-team': 'Bearer abc' } })).toEqual([
      { name: 'header x-team', value: 'Bearer abc' },
    ]);
    expect(redactSecrets('EMPTY response from the EMPTY model', secretsOf({ apiKey: 'EMPTY' }))).toBe('EMPTY response from the EMPTY model');
  });
});

describe('redactSecrets', () => {
  const secrets = secretsOf({ apiKey: KEY, apiKeyEnv: 'OPENAI_API_KEY', headers: { Authorization: 'Bearer gw-token-98765' } });

  it.each([
    ['as sent', `upstream failed for Bearer ${KEY}`, 'upstream failed for Bearer [redacted: OPENAI_API_KEY]'],
    ['every time it appears', `${KEY} and ${KEY}`, '[redacted: OPENAI_API_KEY] and [redacted: OPENAI_API_KEY]'],
    ['a whole header value before its credential', 'saw "Bearer gw-token-98765"', 'saw "[redacted: header Authorization]"'],
    ['the credential alone', 'token gw-token-98765 expired', 'token [redacted: header Authorization] expired'],
  ])('replaces a secret %s', (_how, text, redacted) => {
    expect(redactSecrets(text, secrets)).toBe(redacted);
  });

  it('replaces a secret percent-encoded in a URL', () => {
    const urlKey = secretsOf({ apiKey: 'a+b/c=d&e-long', apiKeyEnv: 'KEY_VAR' });
    expect(redactSecrets(`GET /v1?key=${encodeURIComponent('a+b/c=d&e-long')}`, urlKey)).toBe('GET /v1?key=[redacted: KEY_VAR]');
  });

  it('replaces a secret escaped inside a JSON string', () => {
    const quoted = secretsOf({ headers: { 'x-note': 'say "hi" \\ there' } });
    expect(redactSecrets(JSON.stringify({ echo: 'say "hi" \\ there' }), quoted)).toBe('{"echo":"[redacted: header x-note]"}');
  });

  it('leaves text without secrets, or with no secrets to look for, as it is', () => {
    expect(redactSecrets('HTTP 500: internal error', secrets)).toBe('HTTP 500: internal error');
    expect(redactSecrets(`Bearer ${KEY}`, [])).toBe(`Bearer ${KEY}`);
  });
});
