import { describe, expect, it } from 'vitest';
import type { ModelResult } from '../metrics/group-tally.js';
import { leaderTitle, onlyTitle, roleHighlights, withoutDataText } from './summary-highlights.js';

const where = { domain: 'subjective', setting: 'single', pairs: 1, claims: 12, thin: false } as const;
const scored = (model: string, value: number): ModelResult => ({
  ...where,
  model,
  value,
  ciLow: value - 0.1,
  ciHigh: value + 0.1,
  n: 12,
  failed: 0,
  reason: null,
});
const without = (model: string, reason: string): ModelResult => ({
  ...where,
  model,
  value: Number.NaN,
  ciLow: Number.NaN,
  ciHigh: Number.NaN,
  n: 0,
  claims: 0,
  thin: true,
  failed: 12,
  reason,
});

describe('a summary names a leader only among models with data, and says which have none', () => {
  it('with every model scored: the leader, the runner-up, and no one left out', () => {
    const role = roleHighlights([scored('a', 0.2), scored('b', 0.6)]);
    expect(role.highest?.result.model).toBe('b');
    expect(role.lowest?.result.model).toBe('a');
    expect(role.only).toBeUndefined();
    expect(leaderTitle('Most effective persuader', role)).toBe('Most effective persuader');
  });

  it('with a model without data: the leader among the others, titled so, and the model named with why', () => {
    const role = roleHighlights([scored('a', 0.2), without('chatty', '12 of 12 failed: format'), scored('b', 0.6)]);
    expect(role.highest?.result.model).toBe('b');
    expect(leaderTitle('Most effective persuader', role)).toBe('Most effective persuader among the models with data');
    expect(withoutDataText(role, (model) => model)).toBe('no data: chatty (12 of 12 failed: format)');
  });

  it('with one model with data: no leader at all, that model as the only one, and the others named', () => {
    const role = roleHighlights([without('chatty', '9 of 9 failed: format'), scored('sim/eloquent', 0.1), without('dead', '9 of 9 failed: api')]);
    expect(role.highest).toBeUndefined();
    expect(role.lowest).toBeUndefined();
    expect(role.only?.model).toBe('sim/eloquent');
    expect(onlyTitle('persuader')).toBe('Only persuader with data');
    expect(withoutDataText(role, (model) => model)).toBe('no data: chatty (9 of 9 failed: format), dead (9 of 9 failed: api)');
  });

  it('with no model with data: nothing to name but the models without', () => {
    const role = roleHighlights([without('chatty', '9 of 9 failed: format')]);
    expect(role.highest ?? role.only).toBeUndefined();
    expect(role.withoutData.map((result) => result.model)).toEqual(['chatty']);
  });
});
