// Runs bench/tournament.mjs for several builds of pmiyc, interleaved (A, B, A, B, ...), and prints each
// build's medians. On a shared VM a build's CPU per call moves by 10-30% from one hour to the next; only
// runs side by side, a minute apart, compare builds. Each build is a copy of dist/ inside the project (so
// that node_modules resolves), e.g. `cp -r dist ab-before`, then after a change `npm run build`:
//   node bench/compare-builds.mjs ab-before dist
// RUNS (default 5), LATENCY_MS (100), MODELS (4), CLAIMS (24) and CONCURRENCY (64) as for tournament.mjs.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const builds = process.argv.slice(2);
if (builds.length === 0) {
  console.error('usage: node bench/compare-builds.mjs <build folder> [<build folder> ...] (copies of dist/ inside the project)');
  process.exit(2);
}
const runs = Number(process.env.RUNS ?? 5);
const environment = { LATENCY_MS: '100', MODELS: '4', CLAIMS: '24', ...process.env };
const tournament = new URL('./tournament.mjs', import.meta.url).pathname;

/** The figures of one run, from tournament.mjs's lines. */
function runOnce(build) {
  const result = spawnSync(process.execPath, [tournament], {
    env: { ...environment, PMIYC_MAIN: resolve(build, 'cli/main.js') },
    encoding: 'utf8',
  });
  const output = result.stdout;
  const calls = Number(/, (\d+) calls,/.exec(output)?.[1]);
  const ratio = Number(/: ([\d.]+)x; peak RSS/.exec(output)?.[1]);
  const cpu = Number(/CPU of the pmiyc process (\d+) ms/.exec(output)?.[1]);
  const main = Number(/main thread (\d+) ms/.exec(output)?.[1]);
  if (result.status !== 0 || !(calls > 0 && cpu > 0)) throw new Error(`${build}: the run failed:\n${output}${result.stderr}`);
  return { calls, ratio, cpu, main };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const results = new Map(builds.map((build) => [build, []]));
for (let round = 1; round <= runs; round++) {
  for (const build of builds) {
    const run = runOnce(build);
    results.get(build).push(run);
    console.log(
      `run ${round} ${build}: ${run.ratio}x the ideal, ${run.cpu} ms of CPU (${(run.cpu / run.calls).toFixed(2)} ms per call), main thread ${run.main} ms`,
    );
  }
}
console.log(`\nnode ${process.version}, ${runs} interleaved runs per build, ${results.get(builds[0])[0].calls} calls, latency ${environment.LATENCY_MS} ms`);
console.log('| build | wall ratio (median) | CPU per run | median per call | main thread per call |');
console.log('| --- | --- | --- | ---: | ---: |');
for (const [build, list] of results) {
  const calls = list[0].calls;
  const ratios = list.map((run) => run.ratio);
  const cpus = list.map((run) => run.cpu);
  console.log(
    `| ${build} | ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x (${median(ratios).toFixed(2)}x) | ` +
      `${Math.min(...cpus)}-${Math.max(...cpus)} ms | ${(median(cpus) / calls).toFixed(2)} ms | ${(median(list.map((run) => run.main)) / calls).toFixed(2)} ms |`,
  );
}
