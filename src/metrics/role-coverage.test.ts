import { describe, expect, it } from 'vitest';
import { type ConversationOutcomes, noDataReason, noDataText, noScoreCause, type PairOutcomes, roleCoverage } from './role-coverage.js';

const where = { domain: 'subjective', setting: 'single' } as const;
const pair = (persuader: string, persuadee: string, scored: number, unscoredBy: PairOutcomes['unscoredBy']): PairOutcomes => ({
  ...where,
  persuader,
  persuadee,
  scored,
  unscoredBy,
  conversations: scored + Object.values(unscoredBy).reduce((total, amount) => total + (amount ?? 0), 0),
});

describe('noDataReason: why a model has no value, in the words every format shows', () => {
  const cases: Array<[string, ConversationOutcomes, string | null]> = [
    ['a scored conversation: there is a value', { conversations: 12, scored: 1, unscoredBy: { format: 11 } }, null],
    ['every conversation failed for one reason', { conversations: 12, scored: 0, unscoredBy: { format: 12 } }, '12 of 12 failed: format'],
    ['several reasons, most frequent first', { conversations: 6, scored: 0, unscoredBy: { api: 2, format: 4 } }, '6 of 6 failed: format 4, api 2'],
    ['ties in name order', { conversations: 4, scored: 0, unscoredBy: { refusal: 2, context: 2 } }, '4 of 4 failed: context 2, refusal 2'],
    ['counts with digit groups', { conversations: 1200, scored: 0, unscoredBy: { api: 1200 } }, '1,200 of 1,200 failed: api'],
    ['completed without a score (an import)', { conversations: 3, scored: 0, unscoredBy: { unscored: 3 } }, '3 of 3 completed without a score'],
    ['failed and unscored together', { conversations: 3, scored: 0, unscoredBy: { unscored: 1, unknown: 2 } }, '3 of 3 failed: unknown 2, no score 1'],
    ['asked for by the design, nothing ran', { conversations: 0, scored: 0, unscoredBy: {} }, 'no conversation ran'],
  ];
  it.each(cases)('%s', (_name, outcomes, reason) => {
    expect(noDataReason(outcomes)).toBe(reason);
  });

  it('is shown as "no data (why)"', () => {
    expect(noDataText('12 of 12 failed: format')).toBe('no data (12 of 12 failed: format)');
  });

  it('names the cause of a conversation without a score', () => {
    expect(noScoreCause('failed', 'format')).toBe('format');
    expect(noScoreCause('failed', null)).toBe('unknown');
    expect(noScoreCause('completed', null)).toBe('unscored');
  });
});

describe('roleCoverage: every model per role and condition, scored or not', () => {
  // The run: chatty never writes the tags; sim/eloquent plays itself fine.
  const pairs = [
    pair('chatty', 'chatty', 0, { format: 3 }),
    pair('chatty', 'sim/eloquent', 0, { format: 3 }),
    pair('sim/eloquent', 'chatty', 0, { format: 3 }),
    pair('sim/eloquent', 'sim/eloquent', 3, {}),
  ];

  it('sums each model over its pairs in each role, self-play in both', () => {
    const coverage = roleCoverage(pairs);
    const of = (role: string, model: string) => coverage.find((entry) => entry.role === role && entry.model === model)!;
    expect(of('persuader', 'chatty')).toMatchObject({ conversations: 6, scored: 0, unscoredBy: { format: 6 } });
    expect(of('persuadee', 'chatty')).toMatchObject({ conversations: 6, scored: 0, unscoredBy: { format: 6 } });
    expect(of('persuader', 'sim/eloquent')).toMatchObject({ conversations: 6, scored: 3, unscoredBy: { format: 3 } });
    expect(coverage.map((entry) => noDataReason(entry))).toEqual(['6 of 6 failed: format', '6 of 6 failed: format', null, null]);
  });

  it('adds the agents a design asks for in the setting of a condition that has none of their conversations', () => {
    const coverage = roleCoverage(pairs, [
      { setting: 'single', role: 'persuader', agent: 'later' },
      { setting: 'multi', role: 'persuader', agent: 'elsewhere' },
      { setting: 'single', role: 'persuadee', agent: 'chatty' },
    ]);
    expect(coverage.map((entry) => `${entry.role} ${entry.model}`)).toEqual([
      'persuader chatty',
      'persuadee chatty',
      'persuadee sim/eloquent',
      'persuader sim/eloquent',
      'persuader later',
    ]);
    expect(noDataReason(coverage.at(-1)!)).toBe('no conversation ran');
  });
});
