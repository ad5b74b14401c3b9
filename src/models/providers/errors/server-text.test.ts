import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { secretsOf } from '../../model-secrets.js';
import { bodyText, serverText } from './server-text.js';

const KEY = 'sk-test-0123456789abcdef';
const secrets = secretsOf({ apiKey: KEY, apiKeyEnv: 'SECRET_KEY' });

describe('serverText', () => {
  it('removes escape sequences and replaces the key', () => {
    expect(serverText(`failed for Bearer ${KEY}\u001b]0;pwned\u0007\u001b[2J`, secrets)).toBe('failed for Bearer [redacted: SECRET_KEY]');
  });

  it('finds a key a server broke up with control characters', () => {
    expect(serverText(`key ${KEY.slice(0, 10)}\u001b[0m${KEY.slice(10)}`, secrets)).toBe('key [redacted: SECRET_KEY]');
  });

  it('cuts to the length asked only after replacing, so no part of a key is left at the cut', () => {
    const text = `${'x'.repeat(70)}${KEY}`;
    const cut = serverText(text, secrets, 80);
    expect(cut).toHaveLength(80);
    expect(cut).not.toContain(KEY.slice(0, 10));
  });
});

describe('bodyText', () => {
  it('reads UTF-8 text as it is', () => {
    expect(bodyText(Buffer.from('{"error":"état"}'))).toBe('{"error":"état"}');
  });

  it.each([
    ['a gzip body', gzipSync(Buffer.from('{"error":"hidden"}'))],
    ['bytes that are not UTF-8', Buffer.from([0x48, 0xff, 0xfe, 0x49])],
    ['UTF-8 with NUL bytes', Buffer.from('PNG\u0000\u0000IHDR')],
  ])('says "<binary body, N bytes>" for %s', (_what, body) => {
    expect(bodyText(body)).toBe(`<binary body, ${body.length} bytes>`);
  });
});
