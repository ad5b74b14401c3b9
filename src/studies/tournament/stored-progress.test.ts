import { describe, expect, it } from 'vitest';
import type { Claim } from '../../domain/claim.js';
import { DEFAULT_SAMPLING } from '../../engine/run-conversation.js';
import { MemoryCallCache } from '../../models/call-cache.js';
import type { ChatModel } from '../../models/chat-model.js';
import { decorate } from '../../models/decorate.js';
import { SimulatedAgent } from '../../models/sim/simulated-agent.js';
import { withCallCache } from '../../models/wrappers/with-call-cache.js';
import { DEFAULT_PROMPTS } from '../../protocol/prompt-variants.js';
import { estimatePlan } from './forecast/plan-estimate.js';
import { planTournament, type TournamentDesign } from './plan.js';
import { runConversations } from './run-conversations.js';
import { findStoredProgress, StoredCallReplay } from './stored-progress.js';

const claims: Claim[] = [0, 1, 2].map((index) => ({ index, domain: 'subjective', claim: `Claim ${index}`, origin: 'test', license: 'MIT' }));
const design: TournamentDesign = {
  persuaders: ['sim/eloquent', 'sim/weak'],
  persuadees: ['sim/stubborn', 'sim/weak'],
  claims,
  settings: ['single', 'multi'],
  multiTurns: 5,
  runSeed: 3,
};
const names = (agent: string) => ({ persuader: agent, persuadee: agent });

/** Runs the design's conversations (or some of them) against simulated agents behind a call cache, as a run stores them. */
async function storeRun(cache: MemoryCallCache, keep: (id: string) => boolean = () => true): Promise<number> {
  let asked = 0;
  const models = new Map<string, ChatModel>();
  const modelFor = (name: string) => {
    let model = models.get(name);
    if (!model) {
      const agent = new SimulatedAgent(name);
      const counted: ChatModel = {
        name,
        simulated: true,
        generate: (request) => {
          asked += 1;
          return agent.generate(request);
        },
      };
      model = withCallCache(counted, cache, { modelIdentity: name, now: () => 0 });
      models.set(name, model);
    }
    return model;
  };
  await runConversations({ plan: planTournament(design).filter((planned) => keep(planned.id)), modelFor, concurrency: 4, onConversation: () => {} });
  return asked;
}

async function findIn(cache: MemoryCallCache) {
  const replay = new StoredCallReplay(cache);
  const fail: ChatModel = { name: 'never', simulated: true, generate: () => Promise.reject(new Error('a dry run never calls a model')) };
  return findStoredProgress({
    plan: planTournament(design),
    modelFor: (agent) => decorate({ ...fail, name: agent }, [replay.layer(agent)]),
    replay,
    promptsFor: () => DEFAULT_PROMPTS,
    seedNamesFor: names,
    sampling: DEFAULT_SAMPLING,
  });
}

describe('findStoredProgress', () => {
  it('finds every call of a stored run, and the estimate then has nothing left to ask', async () => {
    const cache = new MemoryCallCache();
    const made = await storeRun(cache);
    const work = await findIn(cache);
    expect(work.storedCalls).toBe(made);
    expect(work.conversationsReplayed).toBe(planTournament(design).length);
    const assumptions = { earlyStopRate: () => 0.1, replyTokens: 100, prices: () => undefined };
    expect(estimatePlan(design, assumptions, (planned) => work.progress.get(planned.id)!).callsUpperBound).toBe(0);
  });

  it('finds nothing in an empty store, and what a part of the plan stored', async () => {
    expect((await findIn(new MemoryCallCache())).storedCalls).toBe(0);
    const cache = new MemoryCallCache();
    const multi = planTournament(design).filter((planned) => planned.setting === 'multi');
    const made = await storeRun(cache, (id) => multi.some((planned) => planned.id === id));
    const work = await findIn(cache);
    expect(work.storedCalls).toBe(made);
    expect(work.conversationsReplayed).toBe(multi.length);
    // The single-turn conversations find their shared prefix stored: only their final decisions are left.
    const single = planTournament(design).filter((planned) => planned.setting === 'single');
    for (const planned of single) expect(work.progress.get(planned.id)).toMatchObject({ complete: false, storedTurns: 2, stanceStored: true });
  });
});
