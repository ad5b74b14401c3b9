import { describe, expect, it } from 'vitest';
import type { Claim } from '../src/domain/claim.js';
import { type ConversationRecord, toConversationRecord } from '../src/domain/conversation-record.js';
import { DEFAULT_INTERVALS } from '../src/metrics/intervals/claim-estimates.js';
import { summarizeTournament } from '../src/metrics/tournament-summary.js';
import { MemoryCallCache } from '../src/models/call-cache.js';
import type { ChatModel } from '../src/models/chat-model.js';
import { SimulatedAgent } from '../src/models/sim/simulated-agent.js';
import { withCallCache } from '../src/models/wrappers/with-call-cache.js';
import { planTournament } from '../src/studies/tournament/plan.js';
import { runConversations } from '../src/studies/tournament/run-conversations.js';

// Planted strengths: eloquent persuades best and weak worst; the twins are one profile under two names.
const TWIN = 'persuasiveness=0.5&susceptibility=0.5';
const AGENTS = ['sim/eloquent', 'sim/weak', `sim/twin-a?${TWIN}`, `sim/twin-b?${TWIN}`];
const SEEDS = 20;
const CLAIMS = 30;

// How many of the SEEDS tournaments may call the twins different (pHolm < 0.05) before the test fails. Their
// comparison is a true null, so each seed does so with some chance q, independently: the count is binomial(20, q).
// 300 seeds of this simulator gave 16 (q = 5.3%, 95% interval 3.1-8.5%; the issue measured 4.3%). Holm barely
// lowers it: the twins' p is the largest of their family, so its Holm factor is 1. P(count >= 5) is
// 1 - sum_{i<5} C(20, i) q^i (1 - q)^(20 - i) = 0.13% at q = 4.3%, 0.26% at 5%, 0.33% at 5.3%, 1.8% at 8%: below
// 2% for any q up to 8%. (A bound of "at most 1", as before, failed 21-29% of the time, whenever seeds, claims or
// the simulator changed.) The count still fails for intervals far too narrow (q = 25%: 59%); defects that leave q
// near 5%, such as an unpaired test or a dropped Holm step, are caught exactly below, on every seed.
const TWINS_APART_ALLOWED = 4;

const claims: Claim[] = Array.from({ length: CLAIMS }, (_, index) => ({
  index,
  domain: 'subjective',
  claim: `Comparison claim ${index}`,
  origin: 'test',
  license: 'MIT',
}));

/** One simulated multi-turn tournament on the same claims under another run seed. */
async function tournament(runSeed: number): Promise<ConversationRecord[]> {
  const cache = new MemoryCallCache();
  const models = new Map<string, ChatModel>(
    AGENTS.map((name) => [name, withCallCache(new SimulatedAgent(name), cache, { modelIdentity: name, now: () => 0 })]),
  );
  const records: ConversationRecord[] = [];
  await runConversations({
    plan: planTournament({ persuaders: AGENTS, persuadees: AGENTS, claims, settings: ['multi'], runSeed }),
    modelFor: (name) => models.get(name)!,
    concurrency: 16,
    onConversation: (planned, outcome, stance) => {
      records.push(toConversationRecord('test', planned.spec, outcome, { persuader: true, persuadee: true }, stance));
    },
  });
  return records;
}

/** Each claim's effectiveness of a persuader: the mean NC over the persuadees it argued that claim with. */
function perClaimEffectiveness(records: readonly ConversationRecord[], persuader: string): Map<string, number> {
  const byClaim = new Map<string, number[]>();
  for (const record of records) {
    if (record.persuader !== persuader || record.normalizedChange === null) continue;
    byClaim.set(record.claim, [...(byClaim.get(record.claim) ?? []), record.normalizedChange]);
  }
  return new Map([...byClaim].map(([claim, values]) => [claim, values.reduce((sum, value) => sum + value, 0) / values.length]));
}

/** Holm's step-down adjustment written out again, independently of src/metrics/intervals/holm.ts. */
function holmByHand(pValues: readonly number[]): number[] {
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p);
  const adjusted = new Array<number>(pValues.length);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (pValues.length - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}

describe('comparisons between models on simulated tournaments with planted strengths', () => {
  it(`find the strongest and weakest persuaders different in more than 90% of ${SEEDS} seeds, and two identical agents in at most ${TWINS_APART_ALLOWED}`, async () => {
    let strongVsWeak = 0;
    let twinsApart = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const records = await tournament(seed);
      const [group] = summarizeTournament(records, { ...DEFAULT_INTERVALS, seed });
      const effectiveness = group!.estimates.comparisons.filter((comparison) => comparison.measure === 'effectiveness');
      const between = (a: string, b: string) => effectiveness.find((entry) => [entry.first, entry.second].sort().join() === [a, b].sort().join())!;
      const strong = between('sim/eloquent', 'sim/weak');
      expect(strong.claims).toBe(CLAIMS);
      if (strong.pHolm < 0.05) strongVsWeak += 1;
      const twins = between(AGENTS[2]!, AGENTS[3]!);
      if (twins.pHolm < 0.05) twinsApart += 1;

      // Paired: the difference and its standard error are those of the per-claim differences (every cell completed here).
      const [first, second] = [perClaimEffectiveness(records, twins.first), perClaimEffectiveness(records, twins.second)];
      const differences = [...first].map(([claim, value]) => value - second.get(claim)!);
      const mean = differences.reduce((sum, value) => sum + value, 0) / differences.length;
      const sd = Math.sqrt(differences.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (differences.length - 1));
      expect(differences).toHaveLength(CLAIMS);
      expect(twins.difference).toBeCloseTo(mean, 12);
      expect(twins.se).toBeCloseTo(sd / Math.sqrt(CLAIMS), 12);
      // Holm over the six effectiveness comparisons of the condition.
      expect(effectiveness.map((entry) => entry.pHolm)).toEqual(holmByHand(effectiveness.map((entry) => entry.p)).map((p) => expect.closeTo(p, 12)));
    }
    expect(strongVsWeak).toBeGreaterThan(0.9 * SEEDS);
    expect(twinsApart).toBeLessThanOrEqual(TWINS_APART_ALLOWED);
  });
});
