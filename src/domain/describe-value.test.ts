import { describe, expect, it } from 'vitest';
import { jsonDepthBeyond, nestsBeyond, parseBoundedJson } from './bounded-json.js';
import { describeValue, jsonPrefix } from './describe-value.js';

const deepList = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;

describe('describeValue', () => {
  it.each([
    ['no', 'the string "no"'],
    [3, 'the number 3'],
    [true, 'true'],
    [null, 'null'],
    [undefined, 'undefined'],
    [['a', 1], 'a list ["a",1]'],
    [{ key: [1, { b: null }] }, 'an object {"key":[1,{"b":null}]}'],
    ['x'.repeat(100), `the string "${'x'.repeat(39)}…`],
  ])('describes %j as %s', (value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });

  it('shows the start of a list nested 100,000 deep, of ten million items and of a huge object, without walking the rest', () => {
    expect(describeValue(deepList(100_000), 10)).toBe('a list [[[[[[[[[[…');
    expect(jsonPrefix(new Array(10_000_000).fill(7), 12)).toBe('[7,7,7,7,7,7…');
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`k${index}`, index]));
    expect(jsonPrefix(wide, 16)).toBe('{"k0":0,"k1":1,"…');
  });
});

describe('parseBoundedJson', () => {
  it('reads JSON within the depth, and refuses text that is not JSON or nests deeper, as data', () => {
    expect(parseBoundedJson('{"a": [1, "]]]["]}')).toEqual({ ok: true, value: { a: [1, ']]]['] } });
    expect(parseBoundedJson('[[1]]', 2)).toEqual({ ok: true, value: [[1]] });
    expect(parseBoundedJson('[[[1]]]', 2)).toMatchObject({ ok: false, problem: 'too-deep' });
    expect(parseBoundedJson(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toMatchObject({ ok: false, problem: 'too-deep' });
    expect(parseBoundedJson('{"a": ')).toMatchObject({ ok: false, problem: 'not-json' });
  });

  it('counts brackets only outside strings, escaped quotes included', () => {
    expect(jsonDepthBeyond('["\\"[[[[", {"b": "{{{"}]', 5)).toBe(2);
  });

  it('tells text nested too deep apart from text with many shallow lists or brackets in strings', () => {
    const shallow = `[${Array.from({ length: 300 }, (_, index) => `{"a": [${index}]}`).join(',')}]`;
    expect(nestsBeyond(shallow, 128)).toBe(false);
    expect(parseBoundedJson(shallow)).toMatchObject({ ok: true });
    expect(nestsBeyond(`["${'['.repeat(500)}"]`, 128)).toBe(false);
    expect(nestsBeyond(`${'{"a":'.repeat(129)}1${'}'.repeat(129)}`, 128)).toBe(true);
    expect(nestsBeyond('[[1]]', 2)).toBe(false);
    expect(nestsBeyond('[{"a": [1]}]', 2)).toBe(true);
  });
});
