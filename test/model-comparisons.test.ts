import { describe, expect, it } from 'vitest';
import type { Claim } from '../src/domain/claim.js';
import { type ConversationRecord, toConversationRecord } from '../src/domain/conversation-record.js';
import { DEFAULT_INTERVALS } from '../src/metrics/claim-estimates.js';
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

describe('comparisons between models on simulated tournaments with planted strengths', () => {
  it(`find the strongest and weakest persuaders different, and two identical agents not, in more than 90% of ${SEEDS} seeds`, async () => {
    let strongVsWeak = 0;
    let twinsApart = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const [group] = summarizeTournament(await tournament(seed), { ...DEFAULT_INTERVALS, seed });
      const effectiveness = group!.estimates.comparisons.filter((comparison) => comparison.measure === 'effectiveness');
      const between = (a: string, b: string) => effectiveness.find((entry) => [entry.first, entry.second].sort().join() === [a, b].sort().join())!;
      const strong = between('sim/eloquent', 'sim/weak');
      expect(strong.claims).toBe(CLAIMS);
      if (strong.pHolm < 0.05) strongVsWeak += 1;
      if (between(AGENTS[2]!, AGENTS[3]!).pHolm < 0.05) twinsApart += 1;
    }
    expect(strongVsWeak).toBeGreaterThan(0.9 * SEEDS);
    expect(SEEDS - twinsApart).toBeGreaterThan(0.9 * SEEDS);
  });
});
