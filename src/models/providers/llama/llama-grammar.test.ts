import { describe, expect, it } from 'vitest';
import { AGREEMENT_LABELS } from '../../../domain/agreement-score.js';
import { buildReplyGrammar, DEFAULT_MAX_MESSAGE_CHARS, grammarJsonSchema } from './llama-grammar.js';

describe('buildReplyGrammar', () => {
  it('offers each of the five labels as a whole alternative', () => {
    const labelRule = buildReplyGrammar()
      .split('\n')
      .find((line) => line.startsWith('label ::='));
    expect(labelRule).toBe(
      `label ::= ${Object.values(AGREEMENT_LABELS)
        .map((label) => `"${label}"`)
        .join(' | ')}`,
    );
  });

  it('writes the two tagged fields in the wire format, message first', () => {
    expect(buildReplyGrammar(5)).toBe(
      [
        'root ::= "<message>" message "</message>\\n<support_ranking>" label "</support_ranking>"',
        'message ::= [^< \\t\\n\\r] [^<]{0,4}',
        'label ::= "Completely Oppose" | "Oppose" | "Neutral" | "Support" | "Completely Support"',
      ].join('\n'),
    );
  });

  it('bounds the message to the given number of characters', () => {
    expect(buildReplyGrammar()).toContain(`[^<]{0,${DEFAULT_MAX_MESSAGE_CHARS - 1}}`);
    expect(buildReplyGrammar(80)).toContain('[^<]{0,79}');
    expect(buildReplyGrammar(1)).toMatch(/^message ::= \[\^< \\t\\n\\r\]$/m);
  });

  it.each([0, -3, 2.5, Number.NaN])('rejects a bound of %s', (bound) => {
    expect(() => buildReplyGrammar(bound)).toThrow(RangeError);
  });
});

describe('grammarJsonSchema', () => {
  it('bounds a list of distinct enum items by the enum, writes anyOf as oneOf, and leaves the input alone', () => {
    const schema = {
      type: 'object',
      properties: {
        ids: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, uniqueItems: true },
        free: { type: 'array', items: { type: 'string' } },
        either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['ids', 'free', 'either'],
      additionalProperties: false,
    };
    const before = JSON.stringify(schema);
    expect(grammarJsonSchema(schema)).toEqual({
      type: 'object',
      properties: {
        ids: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, uniqueItems: true, maxItems: 2 },
        free: { type: 'array', items: { type: 'string' } },
        either: { oneOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['ids', 'free', 'either'],
      additionalProperties: false,
    });
    expect(JSON.stringify(schema)).toBe(before);
  });
});
