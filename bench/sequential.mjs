// How much a sequential tournament (`--until settled`, issue 30) saves, and whether what it settles is
// right: the stopping rule replayed without calls over a pool of claims simulated once.
//
// The pool (POOL claims, default 4,000) is run once through the real engine: the four named
// simulated agents, every ordered pair, single-turn. Its means are the planted truth. Each of SEEDS
// (default 200) replications draws a DESIGN-claim design (default 600) in a seeded random order and
// feeds it, WAVE claims at a time (default 10), to the same SettlingMonitor the tournament uses: the
// 12 comparisons between two models' effectiveness and between their susceptibility, and with
// PRECISION=D also the 8 estimates (settled when narrower than D). It stops at the first wave after
// which all are settled. Single-turn conversations make the same calls on every claim, so the share of
// claims used is the share of calls. Run with `npm run build && node bench/sequential.mjs`.
//
// With STORE=path RUN=name it replays the rule instead over a complete stored tournament run, without
// calls: each of SEEDS seeds orders the run's claims as a sequential run with that seed would, in
// waves of WAVE, with every comparison (and with PRECISION every estimate). The full run's own means
// stand for the truth: it reports the share of claims used, whether each stopped replay's settled
// comparisons agree with the full run's signs, and whether the sequences hold the full run's values.

import { performance } from 'node:perf_hooks';
import { createRandom, deriveSeed } from '../dist/domain/random.js';
import { claimQuantityValues, sequentialQuantities } from '../dist/metrics/sequential/sequential-quantities.js';
import { claimKeyOf, replaySequentialRule } from '../dist/metrics/sequential/sequential-replay.js';
import { SettlingMonitor } from '../dist/metrics/sequential/sequential-settling.js';
import { ResultStore } from '../dist/store/result-store.js';
import { drawIndices, orderedPairs, simulateNcPool } from './support/sim-pool.mjs';

const POOL = Number(process.env.POOL ?? 4000);
const SEEDS = Number(process.env.SEEDS ?? 200);
const DESIGN = Number(process.env.DESIGN ?? 600);
const WAVE = Number(process.env.WAVE ?? 10);
const PRECISION = process.env.PRECISION === undefined ? undefined : Number(process.env.PRECISION);
const CONFIDENCE = Number(process.env.CONFIDENCE ?? 0.95);
const GRID = Number(process.env.GRID ?? 1000);
const AGENTS = ['sim/eloquent', 'sim/open-minded', 'sim/stubborn', 'sim/weak'];
const PAIRS = orderedPairs(AGENTS);
const ROLES = ['persuader', 'persuadee'];
const NAMES = { persuader: 'effectiveness', persuadee: 'susceptibility' };

/** The quantities: per role, each model's mean over its opponents, and each difference of two. */
function quantities() {
  const list = [];
  for (const role of ROLES) {
    for (let first = 0; first < AGENTS.length; first++) {
      if (PRECISION !== undefined) list.push({ key: `${NAMES[role]} ${AGENTS[first]}`, kind: 'estimate', lower: -1, upper: 1, role, models: [AGENTS[first]] });
      for (let second = first + 1; second < AGENTS.length; second++)
        list.push({
          key: `${NAMES[role]} ${AGENTS[first]} - ${AGENTS[second]}`,
          kind: 'comparison',
          lower: -2,
          upper: 2,
          role,
          models: [AGENTS[first], AGENTS[second]],
        });
    }
  }
  return list;
}

/** A model's mean NC over its opponents on one claim, in one role; NaN when a conversation is missing. */
function modelValue(nc, claim, role, model) {
  let sum = 0;
  let count = 0;
  PAIRS.forEach(([persuader, persuadee], pair) => {
    if ((role === 'persuader' ? persuader : persuadee) !== model) return;
    sum += nc[claim * PAIRS.length + pair];
    count += 1;
  });
  return sum / count;
}

/** Each quantity's value on one claim (left out where NaN). */
function claimValues(nc, claim, list) {
  const values = new Map();
  for (const quantity of list) {
    const [first, second] = quantity.models.map((model) => modelValue(nc, claim, quantity.role, model));
    const value = second === undefined ? first : first - second;
    if (!Number.isNaN(value)) values.set(quantity.key, value);
  }
  return values;
}

/** The replay over a stored run (STORE, RUN): see the header. */
function replayStoredRun(storePath, runName) {
  const store = ResultStore.openReadOnly(storePath);
  let records;
  try {
    records = [...store.conversations(store.findRun(runName).id)];
  } finally {
    store.close();
  }
  const persuaders = [...new Set(records.map((record) => record.persuader))].sort();
  const persuadees = [...new Set(records.map((record) => record.persuadee))].sort();
  const groups = [...new Map(records.map((record) => [`${record.domain}/${record.setting}`, { domain: record.domain, setting: record.setting }])).values()];
  const models = { persuaders, persuadees, groups };
  const byClaim = new Map();
  for (const record of records) byClaim.set(claimKeyOf(record), [...(byClaim.get(claimKeyOf(record)) ?? []), record]);
  const quantitiesList = sequentialQuantities({ ...models, withEstimates: PRECISION !== undefined });
  const fullMeans = new Map();
  for (const conversations of byClaim.values()) {
    for (const [key, value] of claimQuantityValues(quantitiesList, models, conversations)) {
      const entry = fullMeans.get(key) ?? { sum: 0, count: 0 };
      entry.sum += value;
      entry.count += 1;
      fullMeans.set(key, entry);
    }
  }
  const full = new Map([...fullMeans].map(([key, { sum, count }]) => [key, sum / count]));
  const rule = { until: 'settled', confidence: CONFIDENCE, wave: WAVE, ...(PRECISION === undefined ? {} : { precision: PRECISION }) };
  const shares = [];
  let stopped = 0;
  let agreeing = 0;
  let covering = 0;
  for (let seed = 0; seed < SEEDS; seed++) {
    const summary = replaySequentialRule({ rule, models, runSeed: deriveSeed(29, ['stored', seed]), claimsPlanned: byClaim.size, conversations: records });
    shares.push(summary.claimsRun / byClaim.size);
    if (summary.stoppedBecause === 'settled') {
      stopped += 1;
      if (summary.quantities.every((q) => q.kind === 'estimate' || Math.sign(q.lower + q.upper) === Math.sign(full.get(q.key)))) agreeing += 1;
    }
    if (summary.quantities.every((q) => q.lower <= full.get(q.key) && full.get(q.key) <= q.upper)) covering += 1;
  }
  shares.sort((a, b) => a - b);
  const at = (q) => `${(100 * shares[Math.min(shares.length - 1, Math.floor(q * shares.length))]).toFixed(1)}%`;
  console.log(
    `node ${process.version}; run ${runName} of ${storePath}: ${records.length} conversations, ${byClaim.size} claims, ${quantitiesList.length} quantities; ${SEEDS} orders in waves of ${WAVE}`,
  );
  console.log(
    `claims used (median / p90 / max) ${at(0.5)} / ${at(0.9)} / ${at(1 - 1e-9)}; stopped with all settled ${stopped}/${SEEDS}, of those agreeing with the full run ${agreeing}/${stopped}; every sequence holds the full run's value in ${covering}/${SEEDS}`,
  );
}

if (process.env.STORE !== undefined) {
  replayStoredRun(process.env.STORE, process.env.RUN);
  process.exit(0);
}

const started = performance.now();
const nc = (await simulateNcPool({ agents: AGENTS, size: POOL, settings: ['single'], seed: 17, label: 'Sequential' })).single;
const poolSeconds = (performance.now() - started) / 1000;
const list = quantities();
const truth = new Map(list.map((quantity) => [quantity.key, 0]));
const counts = new Map(list.map((quantity) => [quantity.key, 0]));
for (let claim = 0; claim < POOL; claim++) {
  for (const [key, value] of claimValues(nc, claim, list)) {
    truth.set(key, truth.get(key) + value);
    counts.set(key, counts.get(key) + 1);
  }
}
for (const key of truth.keys()) truth.set(key, truth.get(key) / counts.get(key));

const rule = { confidence: CONFIDENCE, precision: PRECISION ?? 1, gridSize: GRID };
const used = [];
let stopped = 0;
let stoppedRight = 0;
let allCovered = 0;
let sequencesCovered = 0;
for (let seed = 0; seed < SEEDS; seed++) {
  const order = drawIndices(createRandom(deriveSeed(23, ['sequential', seed])), POOL, DESIGN);
  const monitor = new SettlingMonitor(list, rule);
  let claimsUsed = 0;
  while (claimsUsed < DESIGN) {
    for (const claim of order.slice(claimsUsed, claimsUsed + WAVE)) monitor.addClaim(claimValues(nc, claim, list));
    claimsUsed = Math.min(DESIGN, claimsUsed + WAVE);
    if (monitor.allSettled()) break;
  }
  const states = monitor.states();
  used.push(claimsUsed / DESIGN);
  const covered = states.filter((state) => state.lower <= truth.get(state.key) && truth.get(state.key) <= state.upper).length;
  sequencesCovered += covered / states.length;
  if (covered === states.length) allCovered += 1;
  if (states.every((state) => state.settled)) {
    stopped += 1;
    const right = states.every((state) => state.kind === 'estimate' || Math.sign(state.lower + state.upper) === Math.sign(truth.get(state.key)));
    if (right) stoppedRight += 1;
  }
}

used.sort((a, b) => a - b);
const quantile = (q) => used[Math.min(used.length - 1, Math.floor(q * used.length))];
const percent = (value) => `${(100 * value).toFixed(1)}%`;
const closest = [...truth.entries()].filter(([key]) => key.includes(' - ')).sort((a, b) => Math.abs(a[1]) - Math.abs(b[1]))[0];
console.log(
  `node ${process.version}; pool ${POOL} claims simulated in ${poolSeconds.toFixed(1)} s; ${SEEDS} seeds; design ${DESIGN} claims in waves of ${WAVE};`,
);
console.log(
  `${list.length} quantities at ${percent(CONFIDENCE)} together${PRECISION === undefined ? '' : `, estimates to a width of ${PRECISION}`}; grid ${GRID}; the closest planted gap is ${closest[0]} = ${closest[1].toFixed(3)}`,
);
console.log('');
console.log(
  '| calls used (median / p90 / p95 / max) | seeds at <= 50% | stopped with all settled | of those, planted ranking | all sequences cover the truth at the stop | mean share of sequences covering |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
console.log(
  `| ${[0.5, 0.9, 0.95].map(quantile).map(percent).join(' / ')} / ${percent(used.at(-1))} | ${percent(used.filter((share) => share <= 0.5).length / SEEDS)} | ${stopped}/${SEEDS} | ${stoppedRight}/${stopped} | ${percent(allCovered / SEEDS)} | ${percent(sequencesCovered / SEEDS)} |`,
);
console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s in all`);
