// pmiyc's CPU per call as a ratio to a bare HTTP client's, measured side by side in one run, so that the VM's
// speed of the hour cancels out. Each round, for each build:
//   (a) a full `pmiyc run` (child process) against a loopback OpenAI-compatible server that answers after
//       LATENCY_MS and records every request's method, path and body;
//   (b) a bare client (bench/support/replay-bodies.mjs, its own process) that replays exactly those bodies
//       with one undici Pool at the same concurrency against a fresh server with the same latency.
// Both are whole processes, start-up included; their CPU (user + system, every thread) is the rusage the
// kernel gives when they end (bash's `times` of its child), not a sample. Prints each round and the median
// and spread (min-max) of pmiyc's CPU per call, the bare client's per request, their ratio, and pmiyc's
// wall time against the ideal (calls x latency / concurrency).
//   npm run build && node bench/cpu-ratio.mjs                  (the build in dist/)
//   ROUNDS=5 node bench/cpu-ratio.mjs ab-before dist          (builds interleaved: copies of dist/ inside the project)
// PMIYC_MAIN=<a built cli/main.js> runs that build when no folder is given. CPU_PROF_DIR=<dir> writes a CPU
// profile of each process's main thread to <dir>/pmiyc and <dir>/bare (bench/summarize-profile.mjs
// summarises one). ROUNDS (5), LATENCY_MS (100),
// CONCURRENCY (64), MODELS (3) and CLAIMS (40) set the design: 3 models x 40 claims x 2 settings ~ 2,960 calls.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tournamentInputs } from './support/bench-run.mjs';
import { startScriptedServer } from './support/scripted-server.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 100);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
const MODELS = Number(process.env.MODELS ?? 3);
const CLAIMS = Number(process.env.CLAIMS ?? 40);

const folders = process.argv.slice(2);
const builds =
  folders.length > 0
    ? folders.map((folder) => ({ name: folder, main: resolve(folder, 'cli/main.js') }))
    : [{ name: 'build', main: process.env.PMIYC_MAIN ?? new URL('../dist/cli/main.js', import.meta.url).pathname }];
const replayScript = new URL('./support/replay-bodies.mjs', import.meta.url).pathname;

/**
 * Runs `node ...args` under bash and resolves with its exit code, stdout, wall time and CPU: bash's `times`
 * prints its children's user and system time (getrusage of the waited-for child, every thread, to the ms)
 * on fd 3. `threadsMs` splits it by thread name (`main`, V8's workers, libuv's pool), sampled from /proc every
 * 20 ms (a slight underestimate: a thread's last 20 ms are missed).
 */
function measureNode(args) {
  const started = performance.now();
  const shell = spawn('bash', ['-c', '"$@"; status=$?; times >&3; exit $status', 'bash', process.execPath, ...args], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let times = '';
  shell.stdout.on('data', (chunk) => (stdout += chunk));
  shell.stderr.on('data', (chunk) => (stderr += chunk));
  shell.stdio[3].on('data', (chunk) => (times += chunk));
  let nodePid;
  /** CPU ticks (1/100 s) of each thread, by task id, with its name (`main` for the main thread). */
  const threadTicks = new Map();
  const sampler = setInterval(() => {
    try {
      nodePid ??= Number(readFileSync(`/proc/${shell.pid}/task/${shell.pid}/children`, 'utf8').trim().split(' ')[0]) || undefined;
      if (nodePid === undefined) return;
      for (const task of readdirSync(`/proc/${nodePid}/task`)) {
        const [name, rest] = readFileSync(`/proc/${nodePid}/task/${task}/stat`, 'utf8').split('(')[1].split(') ');
        const fields = rest.split(' ');
        const ticks = Number(fields[11]) + Number(fields[12]);
        threadTicks.set(task, { name: task === String(nodePid) ? 'main' : name, ticks: Math.max(ticks, threadTicks.get(task)?.ticks ?? 0) });
      }
    } catch {}
  }, 20);
  return new Promise((resolveRun) =>
    shell.on('close', (code) => {
      clearInterval(sampler);
      const wallMs = performance.now() - started;
      // The second line of `times`: the children's user and system time, e.g. "0m3.120s 0m0.410s".
      const [user, system] = [...(times.trim().split('\n')[1] ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map(
        ([, minutes, seconds]) => Number(minutes) * 60_000 + Number(seconds) * 1000,
      );
      const threadsMs = {};
      for (const { name, ticks } of threadTicks.values()) threadsMs[name] = (threadsMs[name] ?? 0) + ticks * 10;
      resolveRun({ code, stdout, stderr, wallMs, cpuMs: user + system, mainThreadMs: threadsMs.main ?? 0, threadsMs });
    }),
  );
}

/** With CPU_PROF_DIR set, node's flags for a CPU profile of the main thread in its folder `name`. */
const cpuProfileFlags = (name) => (process.env.CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.CPU_PROF_DIR, name)}`] : []);

/** A `pmiyc run` of the design against a recording server: its figures and the bodies it sent. */
async function runPmiyc(build) {
  const recorded = [];
  const server = await startScriptedServer({ latencyMs: LATENCY_MS, fullAt: CONCURRENCY, recorded });
  const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-ratio-'));
  const models = Array.from({ length: MODELS }, (_, index) => `m${index}`);
  const runArguments = tournamentInputs(folder, { baseURL: server.baseURL, models, claims: CLAIMS, concurrency: CONCURRENCY });
  // PMIYC_NODE_FLAGS: node options for the pmiyc process alone (e.g. V8 flags, to see what its other threads do).
  const nodeFlags = (process.env.PMIYC_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const run = await measureNode([...nodeFlags, ...cpuProfileFlags('pmiyc'), build.main, ...runArguments]);
  await server.close();
  rmSync(folder, { recursive: true, force: true });
  // PMIYC_OUTPUT=<file>: what pmiyc printed (e.g. with PMIYC_NODE_FLAGS="--trace-gc").
  if (process.env.PMIYC_OUTPUT) writeFileSync(process.env.PMIYC_OUTPUT, run.stdout + run.stderr);
  if (run.code !== 0) throw new Error(`${build.name}: pmiyc run exited with ${run.code}:\n${run.stdout}${run.stderr}`);
  return { ...run, calls: server.stats.requests, peakInFlight: server.stats.peakInFlight, recorded };
}

/** The bare client replaying `recorded` against a fresh server with the same latency. */
async function runBare(recorded) {
  const server = await startScriptedServer({ latencyMs: LATENCY_MS });
  const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-bodies-'));
  const bodiesFile = join(folder, 'bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(recorded));
  const run = await measureNode([...cpuProfileFlags('bare'), replayScript, bodiesFile, server.origin, String(CONCURRENCY)]);
  await server.close();
  rmSync(folder, { recursive: true, force: true });
  const { replies, failures } = JSON.parse(run.stdout || '{}');
  if (run.code !== 0 || failures !== 0 || replies !== recorded.length)
    throw new Error(`the bare client failed (exit ${run.code}):\n${run.stdout}${run.stderr}`);
  return { ...run, calls: server.stats.requests };
}

/** A digest of the bodies a run sent, in sorted order (arrival order depends on timing). */
function bodiesDigest(recorded) {
  const hash = createHash('sha256');
  for (const entry of recorded.map(({ path, body }) => `${path}\n${body}`).sort()) hash.update(entry).update('\0');
  return hash.digest('hex').slice(0, 12);
}

const idealMsOf = (calls) => (calls * LATENCY_MS) / CONCURRENCY;
const results = new Map(builds.map((build) => [build.name, []]));
const digests = new Set();
console.log(
  `pmiyc CPU against a bare undici Pool, node ${process.version}, ${new Date().toISOString()}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
console.log(`${MODELS} models round robin x ${CLAIMS} claims x 2 settings, replies after ${LATENCY_MS} ms, concurrency ${CONCURRENCY}, ${ROUNDS} rounds`);
for (let round = 1; round <= ROUNDS; round++) {
  for (const build of builds) {
    const pmiyc = await runPmiyc(build);
    const bare = await runBare(pmiyc.recorded);
    const digest = bodiesDigest(pmiyc.recorded);
    digests.add(digest);
    const figures = {
      pmiycMsPerCall: pmiyc.cpuMs / pmiyc.calls,
      bareMsPerCall: bare.cpuMs / bare.calls,
      ratio: pmiyc.cpuMs / pmiyc.calls / (bare.cpuMs / bare.calls),
      wallRatio: pmiyc.wallMs / idealMsOf(pmiyc.calls),
      bareWallRatio: bare.wallMs / idealMsOf(bare.calls),
      pmiycMainThreadMsPerCall: pmiyc.mainThreadMs / pmiyc.calls,
    };
    results.get(build.name).push(figures);
    console.log(
      `round ${round} ${build.name}: ${pmiyc.calls} calls (bodies ${digest}, peak ${pmiyc.peakInFlight} in flight); ` +
        `pmiyc ${pmiyc.cpuMs.toFixed(0)} ms CPU = ${figures.pmiycMsPerCall.toFixed(3)} ms per call (main thread ~${figures.pmiycMainThreadMsPerCall.toFixed(2)}), ` +
        `wall ${(pmiyc.wallMs / 1000).toFixed(2)} s = ${figures.wallRatio.toFixed(2)}x the ideal; ` +
        `threads ${Object.entries(pmiyc.threadsMs)
          .map(([name, ms]) => `${name} ${ms}`)
          .join(', ')} ms; ` +
        `bare ${bare.cpuMs.toFixed(0)} ms = ${figures.bareMsPerCall.toFixed(3)} ms per request (threads ${Object.entries(bare.threadsMs)
          .map(([name, ms]) => `${name} ${ms}`)
          .join(', ')} ms), wall ${figures.bareWallRatio.toFixed(2)}x; ` +
        `ratio ${figures.ratio.toFixed(2)}`,
    );
  }
}
if (digests.size > 1) console.log(`note: the runs sent different bodies (${[...digests].join(', ')})`);

/** "median (min-max)" of a list. */
function summary(values, digits) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return `${median.toFixed(digits)} (${sorted[0].toFixed(digits)}-${sorted.at(-1).toFixed(digits)})`;
}
console.log('\nmedian (min-max) over the rounds:');
for (const [name, list] of results) {
  const of = (key) => list.map((figures) => figures[key]);
  console.log(
    `${name}: pmiyc ${summary(of('pmiycMsPerCall'), 3)} ms CPU per call, bare ${summary(of('bareMsPerCall'), 3)} ms per request, ` +
      `ratio ${summary(of('ratio'), 2)}; pmiyc wall ${summary(of('wallRatio'), 2)}x the ideal (bare ${summary(of('bareWallRatio'), 2)}x)`,
  );
}
