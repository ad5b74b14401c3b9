import { describe, expect, it } from 'vitest';
import { type SimulatedTournament, simulateTournament } from '../../../../test/support/simulated-tournament.js';
import type { AgreementScore } from '../../../domain/agreement-score.js';
import type { Claim } from '../../../domain/claim.js';
import type { TurnKind } from '../../../domain/conversation.js';
import { iteratePlan, type PlannedConversation, type TournamentDesign } from '../plan.js';
import { CallForecast } from './call-forecast.js';
import { estimatePlan, expectedCallsAfterPrefix, expectedCallsFrom } from './plan-estimate.js';

const claims: Claim[] = [0, 1].map((index) => ({ index, domain: 'subjective', claim: `claim ${index}`, origin: 'test', license: 'x' }));
const design: TournamentDesign = { persuaders: ['a', 'b'], persuadees: ['a', 'b'], claims, settings: ['single', 'multi'], multiTurns: 5, runSeed: 0 };
const plan = [...iteratePlan(design)];
const find = (setting: string, persuadee: string, claim = 0) =>
  plan.find((planned) => planned.setting === setting && planned.spec.persuadeeModel === persuadee && planned.spec.claim.index === claim)!;
const turn = (index: number, kind: TurnKind, score: AgreementScore = 3) => ({ index, kind, score });
/** Calls after the prefix of one conversation not started, at the prior stop rate. */
const fresh = (turns: number) => expectedCallsAfterPrefix(turns, 0.1);

describe('CallForecast', () => {
  it('starts where the dry run starts: the plan estimate with early stops at 10% per reply', () => {
    const estimate = estimatePlan(design, { earlyStopRate: () => 0.1, replyTokens: 100, prices: () => undefined });
    expect(Math.round(new CallForecast(design).expectedCalls())).toBe(estimate.callsExpected);
  });

  it('counts the openings the dry run counts: one per opener and repetition, a persuader-only variant opening as its model', () => {
    const variants = { x: { persuader: { system: '{{claim}} {{format}}' } } };
    const withVariant: TournamentDesign = { ...design, persuaders: ['a', 'a+x', 'b'], repetitions: 2, variants };
    const estimate = estimatePlan(withVariant, { earlyStopRate: () => 0.1, replyTokens: 100, prices: () => undefined });
    expect(Math.round(new CallForecast(withVariant).expectedCalls())).toBe(estimate.callsExpected);
  });

  it("learns each persuadee's early-stop rate from its replies, the prior weighing as 5 replies", () => {
    const forecast = new CallForecast(design);
    const conversation = find('multi', 'a');
    for (const score of [5, 5, 3] as const) forecast.noteTurn(conversation, turn(3, 'reply', score));
    expect(forecast.earlyStopRate('a')).toBeCloseTo((5 * 0.1 + 2) / (5 + 3), 12);
    expect(forecast.earlyStopRate('b')).toBe(0.1);
  });

  /**
   * The whole forecast when one multi-turn conversation of persuadee b (the one the case is about)
   * counts `itsCalls` and b stops early at `rateOfB`: two claims' openings and first arguments (2 x 6),
   * eight single-turn conversations (one call each after the prefix), four of a and three more of b.
   */
  const forecastWith = (itsCalls: number, rateOfB = 0.1) => 2 * 6 + 8 * 1 + 4 * fresh(5) + 3 * expectedCallsFrom(5, 3, rateOfB) + itsCalls;

  it.each<[string, (forecast: CallForecast, conversation: PlannedConversation) => void, number]>([
    ['not started: the calls expected of it', () => {}, forecastWith(fresh(5))],
    [
      'under way after a reply that did not stop it: the call it made and those its last two turns need',
      (forecast, conversation) => {
        forecast.noteTurn(conversation, turn(2, 'argument'));
        forecast.noteTurn(conversation, turn(3, 'reply', 3));
      },
      forecastWith(1 + expectedCallsFrom(5, 4, 0.5 / 6), 0.5 / 6),
    ],
    [
      'under way after a reply that stopped it: the call it made and the final decision',
      (forecast, conversation) => forecast.noteTurn(conversation, turn(3, 'reply', 5)),
      forecastWith(2, 1.5 / 6),
    ],
    [
      'completed after all its turns: the three calls it made',
      (forecast, conversation) => forecast.noteFinished(conversation, { status: 'completed', turns: [1, 2, 3, 4, 5].map((index) => turn(index, 'reply')) }),
      forecastWith(3),
    ],
    ['stored already: none, nor its first argument', (forecast, conversation) => forecast.noteSkipped(conversation), forecastWith(-1)],
  ])('counts a conversation %s', (_case, happen, expected) => {
    const forecast = new CallForecast(design);
    happen(forecast, find('multi', 'b'));
    expect(forecast.expectedCalls()).toBeCloseTo(expected, 12);
  });

  it('counts a failed conversation by the calls it made, and expects the others to fail as often per call', () => {
    const forecast = new CallForecast(design);
    forecast.noteFinished(find('multi', 'b'), { status: 'failed', failedTurn: 4 });
    const failureRate = 1 / (100 + 2);
    const multi = expectedCallsFrom(5, 3, 0.1, failureRate);
    expect(forecast.expectedCalls()).toBeCloseTo(2 * 6 + 8 * 1 + 7 * multi + 2, 12);
  });

  it('drops the openings of a claim whose conversations of the first setting are all stored, and those stored ahead of the plan at the average', () => {
    const perClaimPrefix = 2 + 4; // two agents open, four pairs argue first
    const full = new CallForecast(design).expectedCalls();
    const resumed = new CallForecast(design, 4);
    for (const planned of plan.filter((conversation) => conversation.setting === 'multi' && conversation.spec.claim.index === 0)) resumed.noteSkipped(planned);
    expect(resumed.expectedCalls()).toBeCloseTo(full - perClaimPrefix - 4 * fresh(5), 12);
    const ahead = new CallForecast(design, 2);
    // Two stored conversations not reached yet, of twelve not started: the average of those not started, twice.
    expect(ahead.expectedCalls()).toBeCloseTo(full - (2 * (4 * fresh(5) + 4 * fresh(3))) / 8, 12);
  });

  it('says how many calls the longest conversation under way still needs one after another', () => {
    const forecast = new CallForecast(design);
    expect(forecast.longestRemainingCalls()).toBe(0);
    forecast.noteTurn(find('multi', 'a'), turn(2, 'argument'));
    forecast.noteTurn(find('single', 'b'), turn(2, 'argument'));
    expect(forecast.longestRemainingCalls()).toBeCloseTo(expectedCallsFrom(5, 3, 0.1), 12);
  });
});

describe('the ETA of a simulated run (calls remaining at the recent rate)', () => {
  const agents = ['a', 'b', 'c'];
  const run: SimulatedTournament = {
    design: { persuaders: agents, persuadees: agents, settings: ['single', 'multi'] },
    claims: 30,
    // The prior says 10% per reply; these persuadees stop far less and far more often.
    earlyStopRate: { a: 0.05, b: 0.35, c: 0.6 },
    latencyMs: { a: 800, b: 1_200, c: 2_000 },
    resampleRate: 0.05,
    failureRate: 0.01,
    concurrency: 8,
    seed: 7,
  };
  it.each<[string, Partial<SimulatedTournament>]>([
    ['early-stop rates far from the prior', {}],
    ['early-stop rates at the prior', { earlyStopRate: { a: 0.1, b: 0.1, c: 0.1 } }],
    ['another draw of the same run', { seed: 99 }],
    ['a resumed run, the first 40% of its plan stored', { stored: { first: 216 } }],
    ['16 calls at once and 64 conversations in flight', { concurrency: 16, claims: 20 }],
    ['2% of calls failing and 15% of replies unusable', { failureRate: 0.02, resampleRate: 0.15 }],
    ['single-turn conversations only', { design: { persuaders: agents, persuadees: agents, settings: ['single'] }, claims: 100 }],
    ['11-turn conversations only', { design: { persuaders: agents, persuadees: agents, settings: ['multi'], multiTurns: 11 } }],
  ])('is within a quarter of the time really left, from a fifth to nine tenths of the run: %s', async (_case, change) => {
    const { points, endMs } = await simulateTournament({ ...run, ...change });
    const checked = points.filter((point) => point.atMs >= 0.2 * endMs && point.atMs <= 0.9 * endMs);
    expect(checked.length).toBeGreaterThan(50);
    const misses = checked
      .map((point) => ({ ...point, error: point.etaMs === undefined ? Number.POSITIVE_INFINITY : (point.etaMs - (endMs - point.atMs)) / (endMs - point.atMs) }))
      .filter((point) => Math.abs(point.error) > 0.25)
      .map(
        (point) =>
          `at ${((100 * point.atMs) / endMs).toFixed(0)}%: ${(100 * point.error).toFixed(0)}% off (${point.done} of ${point.expected.toFixed(0)} calls)`,
      );
    expect(misses).toEqual([]);
  });
});
