// How often each interval method covers the truth, on the simulator, at 6 to 200 claims.
//
// A pool of claims is simulated once through the real engine (4 simulated agents, all 16 ordered
// pairs, multi-turn and single-turn). The pool is the population: its pair means are the truth.
// Each replication draws K distinct claims from it, estimates every pair mean, effectiveness,
// susceptibility and difference between two models with each method, and checks whether the
// interval holds the pool's value. Run with `npm run build && node bench/interval-coverage.mjs`;
// POOL (claims, default 4000), REPS (replications per claim count, default 400) and B (bootstrap
// replicates, default 1000) trade time for precision; CLAIMS and METHODS choose what to measure.
// Each cell reads "all: mean / worst; not thin: mean / worst (share thin)": coverage over all
// estimates of that kind, then over those `isThin` does not mark, and how many it marks.

import { performance } from 'node:perf_hooks';
import { createRandom } from '../dist/domain/random.js';
import { ClaimCellTable } from '../dist/metrics/intervals/claim-cell-table.js';
import { estimateOverClaims, INTERVAL_METHODS, isThin } from '../dist/metrics/intervals/claim-estimates.js';
import { drawIndices, orderedPairs, simulateNcPool } from './support/sim-pool.mjs';

const POOL = Number(process.env.POOL ?? 4000);
const REPS = Number(process.env.REPS ?? 400);
const B = Number(process.env.B ?? 1000);
const CLAIM_COUNTS = (process.env.CLAIMS ?? '6,12,25,50,200').split(',').map(Number);
const METHODS = process.env.METHODS ? process.env.METHODS.split(',') : INTERVAL_METHODS;
const AGENTS = ['sim/eloquent', 'sim/open-minded', 'sim/stubborn', 'sim/weak'];
const PAIRS = orderedPairs(AGENTS);
const SETTINGS = ['multi', 'single'];

/** NC of every (setting, claim, pair) in the pool: nc[setting][claim * PAIRS.length + pair]. */
const simulatePool = () => simulateNcPool({ agents: AGENTS, size: POOL, settings: SETTINGS, seed: 11, label: 'Coverage' });

/** The statistics every replication estimates, as cell terms over the 16 pair cells. */
function statistics() {
  const cellsOf = (role, model) => PAIRS.flatMap(([persuader, persuadee], cell) => ((role === 'persuader' ? persuader : persuadee) === model ? [cell] : []));
  const list = [];
  for (let cell = 0; cell < PAIRS.length; cell++) list.push({ kind: 'pair', statistic: [{ cells: [cell], weight: 1 }] });
  for (const model of AGENTS) list.push({ kind: 'effectiveness', statistic: [{ cells: cellsOf('persuader', model), weight: 1 }] });
  for (const model of AGENTS) list.push({ kind: 'susceptibility', statistic: [{ cells: cellsOf('persuadee', model), weight: 1 }] });
  for (let first = 0; first < AGENTS.length; first++) {
    for (let second = first + 1; second < AGENTS.length; second++) {
      for (const role of ['persuader', 'persuadee']) {
        list.push({
          kind: 'difference',
          statistic: [
            { cells: cellsOf(role, AGENTS[first]), weight: 1 },
            { cells: cellsOf(role, AGENTS[second]), weight: -1 },
          ],
        });
      }
    }
  }
  return list;
}

/** The pool's value of a statistic: the same terms over the pool's pair means. */
function truthOf(statistic, pairMeans) {
  return statistic.reduce((total, term) => total + (term.weight * term.cells.reduce((sum, cell) => sum + pairMeans[cell], 0)) / term.cells.length, 0);
}

function poolPairMeans(values) {
  return PAIRS.map((_, pair) => {
    let sum = 0;
    let n = 0;
    for (let claim = 0; claim < POOL; claim++) {
      const value = values[claim * PAIRS.length + pair];
      if (!Number.isNaN(value)) {
        sum += value;
        n += 1;
      }
    }
    return sum / n;
  });
}

/** A seeded draw of `count` distinct claims. */
const drawClaims = (random, count) => drawIndices(random, POOL, count);

const started = performance.now();
const pool = await simulatePool();
const poolSeconds = (performance.now() - started) / 1000;
const list = statistics();
const kinds = ['pair', 'effectiveness', 'susceptibility', 'difference'];
console.log(`pmiyc interval coverage, node ${process.version}, ${new Date().toISOString()}`);
console.log(
  `pool: ${POOL} claims x ${PAIRS.length} pairs x ${SETTINGS.length} settings simulated in ${poolSeconds.toFixed(0)} s; ${REPS} replications per claim count; ${B} bootstrap replicates; 95% intervals`,
);
console.log('');
console.log(['setting', 'claims', 'method', ...kinds, 'mean width', 'seconds'].join(' | '));

for (const setting of SETTINGS) {
  const values = pool[setting];
  const truths = list.map(({ statistic }) => truthOf(statistic, poolPairMeans(values)));
  for (const claims of CLAIM_COUNTS) {
    for (const method of METHODS) {
      const methodStarted = performance.now();
      const random = createRandom(1000 + claims);
      const covered = new Float64Array(list.length);
      const seen = new Float64Array(list.length);
      const coveredSolid = new Float64Array(list.length);
      const seenSolid = new Float64Array(list.length);
      let widthSum = 0;
      let widthCount = 0;
      for (let rep = 0; rep < REPS; rep++) {
        const table = new ClaimCellTable();
        for (const claim of drawClaims(random, claims)) {
          PAIRS.forEach((_, pair) => {
            const value = values[claim * PAIRS.length + pair];
            if (!Number.isNaN(value)) table.add(String(pair), `c${claim}`, value);
          });
        }
        // Cells are named by pair index in arrival order: every claim has all 16, so cell i is pair i.
        const estimates = estimateOverClaims(
          table.slices(),
          list.map(({ statistic }) => statistic),
          { method, replicates: B, confidence: 0.95, seed: rep + 1 },
        );
        estimates.forEach((estimate, index) => {
          if (!Number.isFinite(estimate.ciLow) || !Number.isFinite(estimate.ciHigh)) return;
          const hit = estimate.ciLow <= truths[index] && truths[index] <= estimate.ciHigh ? 1 : 0;
          seen[index] += 1;
          covered[index] += hit;
          if (!isThin(estimate)) {
            seenSolid[index] += 1;
            coveredSolid[index] += hit;
          }
          widthSum += estimate.ciHigh - estimate.ciLow;
          widthCount += 1;
        });
      }
      const percent = (value) => (Number.isFinite(value) ? (100 * value).toFixed(1) : 'n/a');
      const summary = (hits, counts, kind) => {
        const rates = list.flatMap((entry, index) => (entry.kind === kind && counts[index] >= 20 ? [hits[index] / counts[index]] : []));
        const total = list.reduce((sum, entry, index) => sum + (entry.kind === kind ? hits[index] : 0), 0);
        const count = list.reduce((sum, entry, index) => sum + (entry.kind === kind ? counts[index] : 0), 0);
        return `${percent(total / count)} / ${rates.length === 0 ? 'n/a' : percent(Math.min(...rates))}`;
      };
      const byKind = kinds.map((kind) => {
        const all = list.reduce((sum, entry, index) => sum + (entry.kind === kind ? seen[index] : 0), 0);
        const solid = list.reduce((sum, entry, index) => sum + (entry.kind === kind ? seenSolid[index] : 0), 0);
        return `${summary(covered, seen, kind)}; ${summary(coveredSolid, seenSolid, kind)} (${percent(1 - solid / all)})`;
      });
      console.log(
        [setting, claims, method, ...byKind, (widthSum / widthCount).toFixed(3), ((performance.now() - methodStarted) / 1000).toFixed(1)].join(' | '),
      );
    }
  }
}
