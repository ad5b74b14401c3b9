// Does the report's sample-size plan hold? On the simulator: a pool of claims is simulated once for
// two persuaders whose planted persuasiveness differs a little; a 30-claim pilot drawn from it gives
// the paired SD, the plan says how many claims detect the pool's true difference at 80% power, and
// REPS replications at that many claims count how often the comparison is significant (p < 0.05).
// Run with `npm run build && node bench/power-check.mjs` (POOL, REPS, PILOT, GAP to vary).

import { performance } from 'node:perf_hooks';
import { createRandom } from '../dist/domain/random.js';
import { estimateWithIntervals, MemoryCallCache, planTournament, runConversations, SimulatedAgent } from '../dist/index.js';
import { claimsForPower } from '../dist/metrics/intervals/power.js';
import { withCallCache } from '../dist/models/wrappers/with-call-cache.js';

const POOL = Number(process.env.POOL ?? 4000);
const REPS = Number(process.env.REPS ?? 1000);
const PILOT = Number(process.env.PILOT ?? 30);
const GAP = Number(process.env.GAP ?? 0.15);
const AGENTS = [`sim/stronger?persuasiveness=${0.5 + GAP / 2}&susceptibility=0.5`, `sim/weaker?persuasiveness=${0.5 - GAP / 2}&susceptibility=0.5`];

/** Every conversation of the pool, by claim. */
async function simulatePool() {
  const claims = Array.from({ length: POOL }, (_, index) => ({ index, domain: 'subjective', claim: `Power claim ${index}`, origin: 'bench', license: 'MIT' }));
  const cache = new MemoryCallCache();
  const models = new Map(AGENTS.map((name) => [name, withCallCache(new SimulatedAgent(name), cache, { modelIdentity: name, now: () => 0 })]));
  const byClaim = Array.from({ length: POOL }, () => []);
  await runConversations({
    plan: planTournament({ persuaders: AGENTS, persuadees: AGENTS, claims, settings: ['multi'], runSeed: 5 }),
    modelFor: (name) => models.get(name),
    concurrency: 64,
    onConversation: (planned, outcome) => {
      if (outcome.status !== 'completed') return;
      byClaim[planned.spec.claim.index].push({
        persuader: planned.spec.persuaderModel,
        persuadee: planned.spec.persuadeeModel,
        claimKey: `c${planned.spec.claim.index}`,
        normalizedChange: outcome.normalizedChange,
      });
    },
  });
  return byClaim;
}

const comparisonOf = (conversations) => estimateWithIntervals(conversations).comparisons.find((entry) => entry.measure === 'effectiveness');

const started = performance.now();
const pool = await simulatePool();
const truth = comparisonOf(pool.flat()).difference;
const pilot = comparisonOf(pool.slice(0, PILOT).flat());
const sd = pilot.se * Math.sqrt(pilot.claims);
const random = createRandom(17);

/** How often REPS draws of `claims` claims from the pool find the difference (p < 0.05). */
function measuredPower(claims) {
  let significant = 0;
  for (let rep = 0; rep < REPS; rep++) {
    const drawn = [];
    const order = Array.from({ length: POOL }, (_, index) => index);
    for (let index = 0; index < claims; index++) {
      const swap = index + Math.floor(random() * (POOL - index));
      [order[index], order[swap]] = [order[swap], order[index]];
      drawn.push(...pool[order[index]]);
    }
    if (comparisonOf(drawn).p < 0.05) significant += 1;
  }
  return significant / REPS;
}

const whole = comparisonOf(pool.flat());
const poolSd = whole.se * Math.sqrt(whole.claims);
const fromPool = claimsForPower({ difference: truth, sd: poolSd, alpha: 0.05, power: 0.8 });
const planned = claimsForPower({ difference: truth, sd, alpha: 0.05, power: 0.8 });
const powerFromPool = measuredPower(fromPool);
const powerFromPilot = measuredPower(planned);
const seconds = (performance.now() - started) / 1000;
const margin = 1.96 * Math.sqrt((0.8 * 0.2) / REPS);
console.log(`pmiyc power check, node ${process.version}, ${new Date().toISOString()}`);
console.log(`pool ${POOL} claims, true difference in effectiveness ${truth.toFixed(4)}; pilot of ${PILOT} claims: paired SD ${sd.toFixed(4)}`);
console.log(`formula with the pool's own SD ${poolSd.toFixed(4)}: ${fromPool} claims; measured: ${(100 * powerFromPool).toFixed(1)}% significant`);
console.log(`plan from the pilot: ${planned} claims; measured: ${(100 * powerFromPilot).toFixed(1)}% significant`);
console.log(`(80% +/- ${(100 * margin).toFixed(1)} by chance alone over ${REPS} replications; ${seconds.toFixed(0)} s)`);
