import { describe, expect, it } from 'vitest';
import type { Claim } from '../../domain/claim.js';
import { type ConversationRecord, toConversationRecord } from '../../domain/conversation-record.js';
import { summarizeTournament } from '../../metrics/tournament-summary.js';
import { MemoryCallCache } from '../../models/call-cache.js';
import type { ChatModel, GenerateRequest } from '../../models/chat-model.js';
import { ModelCallError } from '../../models/model-call-error.js';
import { SimulatedAgent } from '../../models/sim/simulated-agent.js';
import { withCallCache } from '../../models/wrappers/with-call-cache.js';
import { isDriftProbeRequest } from '../../protocol/drift-prompt.js';
import { DEFAULT_PROMPTS } from '../../protocol/prompt-variants.js';
import { RunGate } from '../../runner/run-gate.js';
import { planTournament } from './plan.js';
import { runConversations } from './run-conversations.js';

const AGENTS = ['sim/eloquent', 'sim/open-minded', 'sim/stubborn', 'sim/weak'];
const PLANTED_PERSUASIVENESS = ['sim/eloquent', 'sim/open-minded', 'sim/stubborn', 'sim/weak'];
const PLANTED_SUSCEPTIBILITY = ['sim/open-minded', 'sim/weak', 'sim/eloquent', 'sim/stubborn'];

function claims(count: number): Claim[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    domain: 'subjective' as const,
    claim: `Test claim number ${index}`,
    origin: 'test',
    license: 'MIT',
  }));
}

/** Sim agents behind one shared call cache, counting the requests that reach them. */
function countingModels() {
  const requests: Array<{ model: string; request: GenerateRequest }> = [];
  const models = new Map<string, ChatModel>();
  const cache = new MemoryCallCache();
  const modelFor = (name: string): ChatModel => {
    const existing = models.get(name);
    if (existing) return existing;
    const agent = new SimulatedAgent(name);
    const counted: ChatModel = {
      name,
      simulated: true,
      generate: (request) => {
        requests.push({ model: name, request });
        return agent.generate(request);
      },
    };
    const cached = withCallCache(counted, cache, { modelIdentity: name, now: () => 0 });
    models.set(name, cached);
    return cached;
  };
  return { requests, modelFor };
}

async function tournament(claimCount: number, settings: Array<'single' | 'multi'>) {
  const plan = planTournament({ persuaders: AGENTS, persuadees: AGENTS, claims: claims(claimCount), settings, runSeed: 11 });
  const { requests, modelFor } = countingModels();
  const records: ConversationRecord[] = [];
  await runConversations({
    plan,
    modelFor,
    concurrency: 8,
    onConversation: (planned, outcome, persuaderStance) => {
      records.push(toConversationRecord('test', planned.spec, outcome, { persuader: true, persuadee: true }, persuaderStance));
    },
  });
  return { plan, requests, records };
}

const ranking = (values: Array<{ model: string; value: number }>) => [...values].sort((a, b) => b.value - a.value).map((entry) => entry.model);

describe('runConversations with simulated agents', () => {
  it('recovers the planted ordering of persuasiveness and of susceptibility', async () => {
    const { records } = await tournament(120, ['multi']);
    const [summary] = summarizeTournament(records, { method: 't', replicates: 200, confidence: 0.95, seed: 1 });
    expect(summary!.completed).toBe(4 * 4 * 120);
    expect(ranking(summary!.estimates.effectiveness)).toEqual(PLANTED_PERSUASIVENESS);
    expect(ranking(summary!.estimates.susceptibility)).toEqual(PLANTED_SUSCEPTIBILITY);
  });

  it('makes every planned conversation once and shares openings and first arguments', async () => {
    const { plan, requests, records } = await tournament(5, ['single', 'multi']);
    expect(records).toHaveLength(plan.length);
    expect(new Set(records.map((record) => record.conversationId)).size).toBe(plan.length);
    const openings = requests.filter(({ request }) => request.messages.length === 2 && request.messages[0]!.content.includes('PERSUADEE'));
    const firstArguments = requests.filter(({ request }) => request.messages.length === 2 && request.messages[0]!.content.includes('PERSUADER'));
    expect(openings).toHaveLength(4 * 5); // one per (persuadee, claim), not per conversation
    expect(firstArguments).toHaveLength(16 * 5); // one per (persuader, persuadee, claim), shared by both settings
    const keys = requests.map(({ model, request }) => JSON.stringify([model, request.messages, request.seed]));
    expect(new Set(keys).size).toBe(keys.length); // no call is made twice
    // The persuader's stance is its own opening as a persuadee on the claim.
    for (const record of records) {
      const ownOpening = records.find((other) => other.persuadee === record.persuader && other.claim === record.claim);
      expect(record.persuaderStance).toBe(ownOpening?.initialScore);
    }
  });

  it("generates a persuader's stance when it is not a persuadee in the run", async () => {
    const plan = planTournament({ persuaders: ['sim/eloquent'], persuadees: ['sim/stubborn'], claims: claims(3), settings: ['single'], runSeed: 2 });
    const { requests, modelFor } = countingModels();
    const stances: Array<number | null> = [];
    await runConversations({ plan, modelFor, concurrency: 2, onConversation: (_planned, _outcome, stance) => void stances.push(stance) });
    expect(stances).toHaveLength(3);
    for (const stance of stances) expect(stance).toBeGreaterThanOrEqual(1);
    const eloquentOpenings = requests.filter(({ model, request }) => model === 'sim/eloquent' && request.messages[0]!.content.includes('PERSUADEE'));
    expect(eloquentOpenings).toHaveLength(3);
  });

  it('gives the same results whatever the concurrency', async () => {
    const plan = planTournament({ persuaders: AGENTS.slice(0, 2), persuadees: AGENTS.slice(2), claims: claims(6), settings: ['single', 'multi'], runSeed: 3 });
    const resultsWith = async (concurrency: number) => {
      const records = new Map<string, unknown>();
      await runConversations({
        plan,
        modelFor: countingModels().modelFor,
        concurrency,
        onConversation: (planned, outcome) => void records.set(planned.id, outcome),
      });
      return plan.map((planned) => records.get(planned.id));
    };
    expect(await resultsWith(1)).toEqual(await resultsWith(16));
  });
});

describe('runConversations when stopped', () => {
  const plan = planTournament({ persuaders: AGENTS, persuadees: AGENTS, claims: claims(20), settings: ['single', 'multi'], runSeed: 1 });

  it('stops starting conversations on a stop, lets those in flight finish, and reports what it did', async () => {
    const gate = new RunGate();
    const finished: string[] = [];
    const result = await runConversations({
      plan,
      modelFor: countingModels().modelFor,
      concurrency: 4,
      gate,
      onConversation: (planned) => {
        finished.push(planned.id);
        if (finished.length === 10) gate.stop('interrupted');
      },
    });
    expect(result).toMatchObject({ status: 'stopped', stopReason: 'interrupted', finished: finished.length });
    expect(finished.length).toBeGreaterThanOrEqual(10);
    expect(finished.length + result.abandoned).toBeLessThanOrEqual(10 + 4);
  });

  it('abandons in-flight conversations on a hard abort', async () => {
    const controller = new AbortController();
    let finished = 0;
    const result = await runConversations({
      plan,
      modelFor: countingModels().modelFor,
      concurrency: 4,
      abortSignal: controller.signal,
      onConversation: () => {
        finished += 1;
        if (finished === 5) controller.abort(new Error('stop now'));
      },
    });
    expect(result.status).toBe('stopped');
    expect(result.finished + result.abandoned).toBeLessThan(plan.length / 2);
  });

  it('stops on too many failures', async () => {
    const failing = planTournament({ persuaders: ['sim/a'], persuadees: ['sim/b?malformed=1'], claims: claims(40), settings: ['single'], runSeed: 1 });
    const result = await runConversations({
      plan: failing,
      modelFor: countingModels().modelFor,
      concurrency: 2,
      maxFailures: 3,
      onConversation: () => undefined,
    });
    expect(result).toMatchObject({ status: 'stopped', stopReason: 'failures' });
    expect(result.failed).toBeGreaterThan(3);
    expect(result.failed).toBeLessThanOrEqual(5);
  });

  it('surfaces a programming error from a model instead of recording it as a failure', async () => {
    let calls = 0;
    const broken: ChatModel = {
      name: 'sim/broken',
      simulated: true,
      generate: async () => {
        calls += 1;
        throw new TypeError('bug in an adapter');
      },
    };
    await expect(runConversations({ plan, modelFor: () => broken, concurrency: 2, onConversation: () => undefined })).rejects.toThrow('bug in an adapter');
    expect(calls).toBeLessThan(10);
  });
});

describe("runConversations when a persuader's own stance cannot be asked", () => {
  it('fails the conversation, saying why, rather than storing it without the stance', async () => {
    const [failing, other] = ['sim/eloquent', 'sim/weak'];
    const [claim] = claims(1);
    const openingOfFailing = DEFAULT_PROMPTS.persuadeeSystem(claim!);
    const modelFor = (name: string): ChatModel => {
      const agent = new SimulatedAgent(name);
      return {
        name,
        simulated: true,
        generate: (request) => {
          // The failing model cannot answer as a persuadee on the claim: its stance is that answer.
          if (name === failing && request.messages[0]?.content === openingOfFailing)
            return Promise.reject(new ModelCallError(`${name}: the server answered 503`, { provider: 'test', model: name, reason: 'api', retryable: true }));
          return agent.generate(request);
        },
      };
    };
    const plan = planTournament({ persuaders: [failing!, other!], persuadees: [failing!, other!], claims: [claim!], settings: ['single'], runSeed: 3 });
    const records: ConversationRecord[] = [];
    await runConversations({
      plan,
      modelFor,
      concurrency: 2,
      onConversation: (planned, outcome, persuaderStance) => {
        records.push(toConversationRecord('test', planned.spec, outcome, { persuader: true, persuadee: true }, persuaderStance));
      },
    });
    const persuadedByFailing = records.filter((record) => record.persuader === failing && record.persuadee === other);
    expect(persuadedByFailing.length).toBeGreaterThan(0);
    for (const record of persuadedByFailing) {
      expect(record.status).toBe('failed');
      expect(record.failureReason).toBe('api');
      expect(record.failureDetail).toContain("the persuader's own stance on the claim");
      expect(record.failedRole).toBe('persuader');
    }
    // The other persuader's stance was asked and stored as ever.
    const byOther = records.filter((record) => record.persuader === other && record.persuadee === other);
    expect(byOther.every((record) => record.status === 'completed' && record.persuaderStance !== null)).toBe(true);
  });
});

describe('runConversations with probeDrift', () => {
  const probeError = (name: string) =>
    new ModelCallError(`${name}: the server answered 503`, { provider: 'test', model: name, reason: 'api', retryable: true });
  const isProbe = (request: GenerateRequest) => isDriftProbeRequest(request.messages.at(-1)?.content ?? '');

  it('keeps an unusable probe with score null, fails the conversation whose probe call failed, and probes nothing without it', async () => {
    const [unreadable, unreachable] = ['sim/eloquent', 'sim/weak'];
    const modelFor = (name: string): ChatModel => {
      const agent = new SimulatedAgent(name);
      return {
        name,
        simulated: true,
        generate: (request) => {
          if (isProbe(request) && name === unreadable) return Promise.resolve({ text: 'I would rather not say.', finishReason: 'stop' });
          if (isProbe(request) && name === unreachable) return Promise.reject(probeError(name));
          return agent.generate(request);
        },
      };
    };
    const plan = planTournament({ persuaders: [unreadable!, unreachable!], persuadees: ['sim/stubborn'], claims: claims(2), settings: ['single'], runSeed: 3 });
    const run = async (probeDrift: boolean) => {
      const records: ConversationRecord[] = [];
      await runConversations({
        plan,
        modelFor,
        concurrency: 2,
        probeDrift,
        onConversation: (planned, outcome, stance, driftProbe) => {
          records.push(toConversationRecord('test', planned.spec, outcome, { persuader: true, persuadee: true }, stance, driftProbe));
        },
      });
      return records;
    };
    const probed = await run(true);
    for (const record of probed.filter((entry) => entry.persuader === unreadable)) {
      expect(record.status).toBe('completed');
      expect(record.driftProbe).toEqual({ score: null, attempts: 3, raw: 'I would rather not say.', callHash: null });
    }
    for (const record of probed.filter((entry) => entry.persuader === unreachable)) {
      expect(record).toMatchObject({ status: 'failed', failureReason: 'api', failedRole: 'persuader', failedTurn: record.turns.length + 1 });
      expect(record.failureDetail).toContain("the persuader's drift probe");
      expect(record).not.toHaveProperty('driftProbe');
    }
    const plain = await run(false);
    expect(plain.every((record) => record.status === 'completed' && !('driftProbe' in record))).toBe(true);
  });
});
