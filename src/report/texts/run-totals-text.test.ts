import { describe, expect, it } from 'vitest';
import type { CallTotal, RunCallTotals } from '../../runner/run-records.js';
import { describeNothingAsked, formatCallsMadeText, formatRunTotals, type RunTotalsView } from './run-totals-text.js';

const total = (calls: number, costUsd: number, extra: Partial<CallTotal> = {}): CallTotal => ({
  calls,
  inputTokens: calls * 100,
  outputTokens: calls * 10,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  callsWithoutUsage: 0,
  costUsd,
  callsWithoutCost: 0,
  ...extra,
});
const calls = (inAll: CallTotal, thisSession: CallTotal): RunCallTotals => ({ inAll, thisSession, byModel: [{ identity: 'openai/m', inAll, thisSession }] });
const view = (overrides: Partial<RunTotalsView> = {}): RunTotalsView => ({
  finished: { thisSession: 24, thisSessionFailed: 1, wholeRun: 32, wholeRunFailed: 2 },
  planned: 32,
  calls: calls(total(133, 0.63935), total(114, 0.57245)),
  replayedThisSession: new Map(),
  replayedWholeRun: [],
  reusedThisSession: 91,
  failedCallsThisSession: 0,
  modelsWithoutPrice: [],
  ...overrides,
});
const row = (text: string, label: string) => new RegExp(`^ *${label} {2,}(\\S+(?: \\S+)*) {2,}(\\S+(?: \\S+)*)$`, 'm').exec(text)?.slice(1);

describe('formatRunTotals', () => {
  it('puts this session beside the whole run, each row saying what it counts', () => {
    const text = formatRunTotals(view());
    expect(row(text, 'conversations finished')).toEqual(['24', '32 of 32']);
    expect(row(text, 'of them failed')).toEqual(['1', '2']);
    expect(row(text, 'calls made')).toEqual(['114', '133']);
    expect(text).toContain("This session also answered 91 requests from the run's own calls (shared or resumed); 0 calls failed.");
  });

  it("shows the sessions' costs so that they add up to the whole run's, as shown", () => {
    // $0.0669 + $0.5725 would be $0.6394 of a $0.6393 whole when each is rounded on its own.
    const first = row(formatRunTotals(view({ calls: calls(total(19, 0.0669), total(19, 0.0669)) })), 'cost of the calls made');
    const second = row(formatRunTotals(view()), 'cost of the calls made');
    expect(first).toEqual(['$0.0669', '$0.0669']);
    expect(second).toEqual(['$0.5724', '$0.6393']);
  });
});

describe('formatCallsMadeText', () => {
  it('ends with a total row that is the whole run, and marks unpriced and simulated calls', () => {
    const text = formatCallsMadeText(
      {
        inAll: total(12, 0.5, { callsWithoutCost: 7 }),
        thisSession: total(0, 0),
        byModel: [
          { identity: 'openai/m', inAll: total(5, 0.5), thisSession: total(0, 0) },
          { identity: 'sim/x', inAll: total(4, 0, { callsWithoutCost: 4, callsWithoutUsage: 4 }), thisSession: total(0, 0) },
          { identity: 'other/y', inAll: total(3, 0, { callsWithoutCost: 3 }), thisSession: total(0, 0) },
        ],
      },
      (identity) => (identity === 'openai/m' ? 'alpha' : identity),
    );
    expect(text.split('\n')[0]).toMatch(/^Calls made in the whole run, per model \(asked of a model, paid for and stored, whether or not/);
    expect(text).toMatch(/^alpha\s+5\s+500\s+50\s+\$0\.5000$/m);
    expect(text).toMatch(/^sim\/x\s+4\s+not reported\s+not reported\s+none \(simulated\)$/m);
    expect(text).toMatch(/^other\/y\s+3\s+300\s+30\s+no price set$/m);
    expect(text).toMatch(/^total\s+12\s+1,200\s+120\s+\$0\.5000 \+ 3 calls unpriced$/m);
  });
});

describe('describeNothingAsked', () => {
  it('says nothing when the session made a call', () => {
    expect(describeNothingAsked(view())).toBeUndefined();
  });

  it('names where the answers came from and the ways to ask afresh', () => {
    const replayed = view({ calls: calls(total(0, 0), total(0, 0)), replayedThisSession: new Map([['run-1', 741]]), reusedThisSession: 59 });
    expect(describeNothingAsked(replayed)).toBe(
      'Nothing was asked of any model this session: all 800 answers came from the store, 741 of them replayed from earlier runs (run-1: 741). ' +
        'To ask the models afresh, run other requests: --repeat N (more repetitions), --seed N (other samples), or --no-cache (reuse nothing from earlier runs).',
    );
    const resumed = view({ calls: calls(total(40, 0.1), total(0, 0)), reusedThisSession: 12 });
    expect(describeNothingAsked(resumed)).toBe("Nothing was asked of any model this session: every answer came from the run's own stored calls.");
  });

  it("says how much of the input a provider's prompt cache served and how much was written to it", () => {
    const cached = total(3, 0.02, { inputTokens: 30_000, cachedInputTokens: 24_576, cacheWriteTokens: 1_024 });
    const text = formatCallsMadeText(
      { inAll: cached, thisSession: cached, byModel: [{ identity: 'anthropic/claude', inAll: cached, thisSession: cached }] },
      (identity) => identity,
    );
    expect(text).toContain('30,000; 24,576 cached, 1,024 written to cache');
  });
});
