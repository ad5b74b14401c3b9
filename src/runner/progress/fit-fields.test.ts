import { describe, expect, it } from 'vitest';
import { type FieldLine, fitFields } from './fit-fields.js';

const line: FieldLine = {
  lead: 'beta:',
  groups: [
    [
      { text: '1 on the wire (limit 1)', rank: 3 },
      { text: 'oldest call 23.0 s', rank: 1 },
      { text: '25 waiting', rank: 4 },
    ],
    [
      { text: '13 retries', rank: 6 },
      { text: '47 re-samples', rank: 6 },
    ],
    [{ text: 'last error HTTP 500 4.2 s ago', rank: 0 }],
  ],
};

describe('fitFields', () => {
  it('keeps the whole line when it fits, or when no width is known', () => {
    const whole = 'beta: 1 on the wire (limit 1), oldest call 23.0 s, 25 waiting · 13 retries, 47 re-samples · last error HTTP 500 4.2 s ago';
    expect(fitFields(line)).toBe(whole);
    expect(fitFields(line, whole.length)).toBe(whole);
  });

  it.each([
    [110, 'beta: 1 on the wire (limit 1), oldest call 23.0 s, 25 waiting · 13 retries · last error HTTP 500 4.2 s ago'],
    [100, 'beta: 1 on the wire (limit 1), oldest call 23.0 s, 25 waiting · last error HTTP 500 4.2 s ago'],
    [90, 'beta: 1 on the wire (limit 1), oldest call 23.0 s · last error HTTP 500 4.2 s ago'],
    [80, 'beta: oldest call 23.0 s · last error HTTP 500 4.2 s ago'],
    [60, 'beta: oldest call 23.0 s · last error HTTP 500 4.2 s ago'],
    [40, 'beta: last error HTTP 500 4.2 s ago'],
    [20, 'beta: last error HT…'],
  ])('at %i columns drops the fields that matter least first, a whole group with its separator', (width, expected) => {
    const fitted = fitFields(line, width);
    expect(fitted).toBe(expected);
    expect(fitted.length).toBeLessThanOrEqual(width);
  });

  it('joins a remark in brackets with a space, and drops it before what it remarks on', () => {
    const eta: FieldLine = {
      groups: [
        [{ text: '12/96 conversations (1 failed)', rank: 0 }],
        [{ text: '1 min 2 s elapsed', rank: 3 }],
        [
          { text: 'ETA 4 min 10 s', rank: 1 },
          { text: '(about 420 calls left)', rank: 4, joiner: ' ' },
        ],
      ],
    };
    expect(fitFields(eta)).toBe('12/96 conversations (1 failed) · 1 min 2 s elapsed · ETA 4 min 10 s (about 420 calls left)');
    expect(fitFields(eta, 70)).toBe('12/96 conversations (1 failed) · 1 min 2 s elapsed · ETA 4 min 10 s');
    expect(fitFields(eta, 50)).toBe('12/96 conversations (1 failed) · ETA 4 min 10 s');
  });
});
