import { describe, expect, it } from 'vitest';
import { readAgreementLabel } from './agreement-label.js';
import { parseTaggedReply } from './tagged-reply.js';

const ECHOED_LIST = 'Completely Oppose / Oppose / Neutral / Support / Completely Support';

// What the two readings make of rankings real models wrote; null is "not read" (re-sampled under strict).
const cases: Array<[ranking: string, strict: number | null, first: number | null]> = [
  ['Support', 4, 4],
  ['Completely Oppose', 1, 1],
  ['**Completely Support**', 5, 5],
  ['3', 3, 3],
  ['Neutral / Oppose', null, 3],
  [ECHOED_LIST, null, 1],
  ['Supportive', null, 4],
  ['Support (5)', null, 4],
  ['4 - Oppose', null, 4],
  ['Oppose, but not completely', null, 2],
  ['I would say Support', null, null],
  ['Strongly Support', null, null],
  ['7', null, null],
  ['', null, null],
];

describe('readAgreementLabel', () => {
  it.each(cases)('reads %j as %s (strict) and %s (first)', (ranking, strict, first) => {
    const strictReading = readAgreementLabel(ranking);
    const firstReading = readAgreementLabel(ranking, 'first');
    expect(strictReading.ok ? strictReading.score : null).toBe(strict);
    expect(firstReading.ok ? firstReading.score : null).toBe(first);
  });

  it('reads a whole tagged reply either way; strict is the default', () => {
    const raw = `<message> Fine. </message>\n<support_ranking> ${ECHOED_LIST} </support_ranking>\n`;
    const strict = parseTaggedReply(raw);
    expect(strict).toMatchObject({ ok: false, problem: 'format' });
    expect(strict.ok ? '' : strict.detail).toContain('ambiguous');
    expect(parseTaggedReply(raw, { labelMatch: 'first' })).toMatchObject({ ok: true, message: 'Fine.', score: 1 });
  });
});
