// What several benches simulate: a list of bench claims, a tournament of simulated agents played through the
// real engine, and a pool of claims run once that way, every ordered pair, whose NC values are then resampled.

import { MemoryCallCache, planTournament, runConversations, SimulatedAgent } from '../../dist/index.js';
import { withCallCache } from '../../dist/models/wrappers/with-call-cache.js';

/** `count` subjective claims made for a bench (`<label> claim N`). */
export function benchClaims(count, label) {
  return Array.from({ length: count }, (_, index) => ({ index, domain: 'subjective', claim: `${label} claim ${index}`, origin: 'bench', license: 'MIT' }));
}

/** Every ordered pair of the agents, persuader first. */
export function orderedPairs(agents) {
  return agents.flatMap((persuader) => agents.map((persuadee) => [persuader, persuadee]));
}

/**
 * NC of every (setting, claim, pair) of a pool of `size` claims: nc[setting][claim * pairs + pair],
 * NaN where a conversation did not complete. Pairs are `orderedPairs(agents)`.
 */
export async function simulateNcPool({ agents, size, settings, seed, label = 'Pool' }) {
  const pairs = orderedPairs(agents);
  const cache = new MemoryCallCache();
  const models = new Map(agents.map((name) => [name, withCallCache(new SimulatedAgent(name), cache, { modelIdentity: name, now: () => 0 })]));
  const nc = Object.fromEntries(settings.map((setting) => [setting, new Float64Array(size * pairs.length).fill(Number.NaN)]));
  const pairIndex = new Map(pairs.map(([persuader, persuadee], index) => [`${persuader}|${persuadee}`, index]));
  await runSimulatedTournament({
    persuaders: agents,
    persuadees: agents,
    claims: benchClaims(size, label),
    settings,
    seed,
    models,
    onCompleted: (planned, outcome) => {
      const pair = pairIndex.get(`${planned.spec.persuaderModel}|${planned.spec.persuadeeModel}`);
      nc[planned.setting][planned.spec.claim.index * pairs.length + pair] = outcome.normalizedChange;
    },
  });
  return nc;
}

/**
 * Plays a tournament's plan through the real engine, 64 conversations at once, with `models` (name to chat model,
 * simulated agents here); `onCompleted(planned, outcome)` is called for each conversation that completed.
 */
export async function runSimulatedTournament({ persuaders, persuadees, claims, settings, seed, models, onCompleted }) {
  await runConversations({
    plan: planTournament({ persuaders, persuadees, claims, settings, runSeed: seed }),
    modelFor: (name) => models.get(name),
    concurrency: 64,
    onConversation: (planned, outcome) => {
      if (outcome.status === 'completed') onCompleted(planned, outcome);
    },
  });
}

/** A seeded draw of `count` distinct indices of `size` (partial Fisher-Yates), in the drawn order. */
export function drawIndices(random, size, count) {
  const order = Array.from({ length: size }, (_, index) => index);
  for (let index = 0; index < count; index++) {
    const swap = index + Math.floor(random() * (size - index));
    [order[index], order[swap]] = [order[swap], order[index]];
  }
  return order.slice(0, count);
}
