import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors/input-error.js';
import { decodeText } from './decode-text.js';

const utf8 = (text: string) => Array.from(new TextEncoder().encode(text));
const bytesOf = (...parts: Array<string | number[]>) => new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? utf8(part) : part)));

describe('decodeText', () => {
  it.each([
    ['plain ASCII', bytesOf('claim\nA\n'), 'claim\nA\n'],
    ['a byte order mark is dropped', bytesOf([0xef, 0xbb, 0xbf], '{"claim": "x"}\n'), '{"claim": "x"}\n'],
    ['only the leading mark is dropped', bytesOf([0xef, 0xbb, 0xbf], 'a\uFEFFb'), 'a\uFEFFb'],
    ['two-, three- and four-byte characters', bytesOf('é ☃ 😀 U+10FFFF: \u{10FFFF}'), 'é ☃ 😀 U+10FFFF: \u{10FFFF}'],
    ['an empty file', bytesOf(), ''],
    ['only a byte order mark', bytesOf([0xef, 0xbb, 0xbf]), ''],
  ])('decodes %s', (_, bytes, text) => {
    expect(decodeText('f.txt', bytes)).toBe(text);
  });

  it.each([
    ['a stray 0xff', bytesOf('claim\nab', [0xff], 'c\n'), 'claims.csv:2: not valid UTF-8 (byte 0xff at column 3): save the file as UTF-8'],
    ['a Latin-1 é after wide characters', bytesOf('x\ny\n☃é', [0xe9], '\n'), 'claims.csv:3: not valid UTF-8 (byte 0xe9 at column 3): save the file as UTF-8'],
    ['a lone continuation byte', bytesOf([0x80]), 'claims.csv:1: not valid UTF-8 (byte 0x80 at column 1): save the file as UTF-8'],
    ['an overlong slash', bytesOf('a', [0xc0, 0xaf]), 'claims.csv:1: not valid UTF-8 (byte 0xc0 at column 2): save the file as UTF-8'],
    ['an overlong three-byte form', bytesOf([0xe0, 0x80, 0xaf]), 'claims.csv:1: not valid UTF-8 (byte 0xe0 at column 1): save the file as UTF-8'],
    ['an encoded surrogate', bytesOf('ab', [0xed, 0xa0, 0x80]), 'claims.csv:1: not valid UTF-8 (byte 0xed at column 3): save the file as UTF-8'],
    ['a code point above U+10FFFF', bytesOf([0xf4, 0x90, 0x80, 0x80]), 'claims.csv:1: not valid UTF-8 (byte 0xf4 at column 1): save the file as UTF-8'],
    ['a sequence cut at the end', bytesOf('ok\n', [0xe2, 0x98]), 'claims.csv:2: not valid UTF-8 (byte 0xe2 at column 1): save the file as UTF-8'],
    ['a sequence cut by a new line', bytesOf([0xc3], '\n'), 'claims.csv:1: not valid UTF-8 (byte 0xc3 at column 1): save the file as UTF-8'],
    [
      'a bad byte after a byte order mark',
      bytesOf([0xef, 0xbb, 0xbf], 'a', [0xfe]),
      'claims.csv:1: not valid UTF-8 (byte 0xfe at column 2): save the file as UTF-8',
    ],
    ['CRLF line ends', bytesOf('a\r\nb\r\n', [0xff]), 'claims.csv:3: not valid UTF-8 (byte 0xff at column 1): save the file as UTF-8'],
    ['UTF-16 little-endian', bytesOf([0xff, 0xfe, 0x61, 0x00]), 'claims.csv:1: the file is UTF-16, not UTF-8: save it as UTF-8'],
    ['UTF-16 big-endian', bytesOf([0xfe, 0xff, 0x00, 0x61]), 'claims.csv:1: the file is UTF-16, not UTF-8: save it as UTF-8'],
  ])('refuses %s with file, line and column', (_, bytes, message) => {
    let thrown: unknown;
    try {
      decodeText('claims.csv', bytes);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InputError);
    expect((thrown as Error).message).toBe(message);
  });
});
