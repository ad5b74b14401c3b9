import { describe, expect, it } from 'vitest';
import { markMatches, parseSearchText, snippetOf } from './search-words.js';

const marked = (text: string, query: string) => markMatches(text, parseSearchText(query)).map(([from, to]) => text.slice(from, to));

describe('parseSearchText', () => {
  it.each<[string, Array<{ tokens: string[]; prefix: boolean }>]>([
    [
      'Moon  cheese',
      [
        { tokens: ['moon'], prefix: false },
        { tokens: ['cheese'], prefix: false },
      ],
    ],
    [
      '"made of" Café',
      [
        { tokens: ['made', 'of'], prefix: false },
        { tokens: ['cafe'], prefix: false },
      ],
    ],
    ['persuad*', [{ tokens: ['persuad'], prefix: true }]],
    [
      'AND( x',
      [
        { tokens: ['and'], prefix: false },
        { tokens: ['x'], prefix: false },
      ],
    ],
    [
      '"unpaired quote',
      [
        { tokens: ['unpaired'], prefix: false },
        { tokens: ['quote'], prefix: false },
      ],
    ],
    ['col:word', [{ tokens: ['col', 'word'], prefix: false }]],
    ['"a*"', [{ tokens: ['a'], prefix: false }]],
  ])('reads %s', (text, terms) => {
    expect(parseSearchText(text)).toEqual(terms);
  });

  it.each([
    ['"', 'has no word to search for'],
    ['  ', 'has no word to search for'],
    ['-- ^ *', 'has no word to search for'],
    ['x'.repeat(501), 'at most 500'],
    [Array.from({ length: 17 }, (_, index) => `w${index}`).join(' '), 'at most 16'],
  ])('refuses %s, saying why', (text, reason) => {
    expect(() => parseSearchText(text)).toThrow(reason);
  });
});

describe('markMatches', () => {
  it('marks whole words in any case and with diacritics, phrases in order, and prefixes', () => {
    expect(marked('The moon, the MOON and moonlight.', 'moon')).toEqual(['moon', 'MOON']);
    expect(marked('A café, a Cafe.', 'cafe')).toEqual(['café', 'Cafe']);
    expect(marked('made of cheese, of made cheese', '"made of cheese"')).toEqual(['made of cheese']);
    expect(marked('persuaders persuade', 'persuad*')).toEqual(['persuaders', 'persuade']);
    expect(marked('<script>alert(1)</script>', 'script')).toEqual(['script', 'script']);
    expect(marked('nothing here', 'moon')).toEqual([]);
  });

  it('gives offsets in UTF-16 code units, so that the page can slice the same string', () => {
    const text = '😀 emoji then 𝔐oon and moon';
    const marks = markMatches(text, parseSearchText('moon'));
    expect(marks.map(([from, to]) => text.slice(from, to))).toEqual(['moon']);
  });
});

describe('snippetOf', () => {
  it('keeps a short text whole', () => {
    expect(snippetOf('a short text', [[2, 7]])).toEqual({ text: 'a short text', start: 0, cut: false, marks: [[2, 7]] });
  });

  it('cuts a long text around its first mark at spaces, with the marks moved into the piece', () => {
    const text = `${'lorem '.repeat(100)}TARGET ${'ipsum '.repeat(100)}`;
    const at = text.indexOf('TARGET');
    const snippet = snippetOf(text, [[at, at + 6]], 120);
    expect(snippet.start).toBeGreaterThan(0);
    expect(snippet.cut).toBe(true);
    expect(snippet.text.length).toBeLessThanOrEqual(120);
    expect(snippet.text.startsWith('lorem')).toBe(true);
    expect(snippet.marks).toHaveLength(1);
    const [from, to] = snippet.marks[0]!;
    expect(snippet.text.slice(from, to)).toBe('TARGET');
    expect(text.slice(snippet.start + from, snippet.start + to)).toBe('TARGET');
  });
});
