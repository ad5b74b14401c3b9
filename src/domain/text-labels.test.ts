import { describe, expect, it } from 'vitest';
import { camelCaseName, formatCount, formatCounted } from './text-labels.js';

describe('formatCount', () => {
  it.each([0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 1_234_567_890, -1, -1234, -1_000_000, Number.MAX_SAFE_INTEGER, 0.5, 1234.5678, -0.25])(
    'writes %d as en-US would',
    (count) => {
      expect(formatCount(count)).toBe(count.toLocaleString('en-US'));
    },
  );
});

describe('formatCounted', () => {
  it.each([
    [0, 'claim', undefined, '0 claims'],
    [1, 'claim', undefined, '1 claim'],
    [2, 'conversation', undefined, '2 conversations'],
    [1234, 'token', undefined, '1,234 tokens'],
    [1, 'reply', 'replies', '1 reply'],
    [3, 'reply', 'replies', '3 replies'],
  ])('counts %d %s', (count, one, many, text) => {
    expect(formatCounted(count, one, many)).toBe(text);
  });
});

describe('camelCaseName', () => {
  it('joins the words of a header as a camelCase field name', () => {
    expect(['p (Holm)', 'turn-1 attempt, harmful', 'no attempt', 'told 0, read 1', 'Fear-mongering', 'Bait and Switch'].map(camelCaseName)).toEqual([
      'pHolm',
      'turn1AttemptHarmful',
      'noAttempt',
      'told0Read1',
      'fearMongering',
      'baitAndSwitch',
    ]);
  });
});
