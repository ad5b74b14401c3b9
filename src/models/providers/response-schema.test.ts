import { describe, expect, it } from 'vitest';
import { strictResponseSchema } from './response-schema.js';

describe('strictResponseSchema', () => {
  it('keeps the shape and drops the keywords strict mode refuses, at every level, leaving data alone', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      description: 'A judge answer.',
      properties: {
        // A property may be named like a keyword: names are data.
        uniqueItems: { type: 'array', items: { type: 'string', enum: ['a', 'b'], minLength: 1 }, uniqueItems: true, maxItems: 2 },
        note: { anyOf: [{ type: 'string', maxLength: 20 }, { type: 'null' }], default: null },
        nested: { type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'], additionalProperties: false, minProperties: 1 },
        ref: { $ref: '#/$defs/flag' },
      },
      required: ['uniqueItems', 'note', 'nested', 'ref'],
      additionalProperties: false,
      $defs: { flag: { type: 'boolean', examples: [true] } },
    };
    const before = JSON.stringify(schema);
    expect(strictResponseSchema(schema)).toEqual({
      type: 'object',
      description: 'A judge answer.',
      properties: {
        uniqueItems: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 2 },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        nested: { type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'], additionalProperties: false },
        ref: { $ref: '#/$defs/flag' },
      },
      required: ['uniqueItems', 'note', 'nested', 'ref'],
      additionalProperties: false,
      $defs: { flag: { type: 'boolean' } },
    });
    expect(JSON.stringify(schema)).toBe(before);
  });
});
