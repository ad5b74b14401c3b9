import { randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflateRawLevelOne } from './raw-deflate.js';

describe('deflateRawLevelOne', () => {
  const texts = [
    '',
    'a',
    'The persuadee said: '.repeat(13),
    JSON.stringify({ turns: Array.from({ length: 40 }, (_, index) => ({ message: `Reply ${index} to the claim`, score: index % 5 })) }),
    'Überzeugung, 説得, убеждение: '.repeat(50),
    // Incompressible and larger than one output piece: the output comes in several pieces.
    randomBytes(70_000).toString('base64'),
    randomBytes(40_000).toString('latin1'),
  ];

  it('gives the bytes deflateRawSync gives at level 1, text after text (the stream is reset between them)', () => {
    for (const round of [1, 2]) {
      for (const text of round === 1 ? texts : [...texts].reverse()) {
        const deflated = deflateRawLevelOne(text);
        expect(deflated.equals(deflateRawSync(text, { level: 1 }))).toBe(true);
        expect(inflateRawSync(deflated).toString('utf8')).toBe(text);
      }
    }
  });

  it('takes bytes as well as text', () => {
    const bytes = randomBytes(5_000);
    expect(deflateRawLevelOne(bytes).equals(deflateRawSync(bytes, { level: 1 }))).toBe(true);
  });
});
