// How far the live display's ETA is from the time really left, in a run with faults: a real `pmiyc run`
// (child process, progress as a log line every 500 ms) against a loopback OpenAI-compatible server that
// answers after a log-normal latency and injects 429s (with Retry-After), 500s, malformed replies (no
// tags: the turn is asked again) and one call that hangs for 20 s. Two of the three models have limits
// (`maxConcurrency`, `requestsPerMinute`), so the rate limiter's waits are part of the run.
// Each ETA sampled between 20 % and 90 % of the run is compared with the time the run really had left
// (its last progress line, drawn when the session ends); the worst relative error per run is printed.
//
//   npm run build && node bench/eta-under-faults.mjs [<build folder> ...]
//
// Build folders are copies of dist/ inside the project (so that node_modules resolves), e.g.
// `cp -r dist ab-before`; runs are interleaved (A, B, A, B, ...). RUNS (default 5), CLAIMS (8),
// CONCURRENCY (8), LATENCY_MS (median latency, 400), HANG_MS (20000), HANG_AT (the request that hangs, 220),
// LIMITS=0 (no model limits of its own).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { chatCompletion } from './chat-completion.mjs';
import { seededRandom, tournamentInputs } from './support/bench-run.mjs';

const RUNS = Number(process.env.RUNS ?? 5);
const CLAIMS = Number(process.env.CLAIMS ?? 8);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 400);
const HANG_MS = Number(process.env.HANG_MS ?? 20_000);
const HANG_AT = Number(process.env.HANG_AT ?? 220);
/** LIMITS=0: no model has limits of its own (the limiter still adapts after 429s): faults and the hung call alone. */
const LIMITS = process.env.LIMITS !== '0';
/** Shares of requests: 429 (Retry-After 1.5 s), 500 (the retry layer's back-off), a reply without tags. */
const FAULTS = { rateLimited: 0.06, serverError: 0.04, malformed: 0.06 };
const LABELS = ['Completely Oppose', 'Oppose', 'Neutral', 'Support', 'Completely Support'];

const chat = (text, body) => chatCompletion(text, { promptTokens: Math.ceil(body.length / 4), completionTokens: 20 });

/** The faulty server; `reset(seed)` before each run. */
function startServer() {
  let random = seededRandom(1);
  let requests = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      requests += 1;
      const draw = random();
      // Log-normal latency around the median (sigma 0.5), from two uniform draws (Box-Muller).
      const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      const latencyMs = requests === HANG_AT ? HANG_MS : LATENCY_MS * Math.exp(0.5 * normal);
      const send = (status, headers, payload) =>
        setTimeout(() => response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(payload), latencyMs);
      if (draw < FAULTS.rateLimited) {
        return send(
          429,
          { 'retry-after-ms': '1500' },
          JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }),
        );
      }
      if (draw < FAULTS.rateLimited + FAULTS.serverError) return send(500, {}, JSON.stringify({ error: { message: 'internal error', type: 'server_error' } }));
      if (draw < FAULTS.rateLimited + FAULTS.serverError + FAULTS.malformed) return send(200, {}, chat('I would rather not use the tags.', body));
      const digest = createHash('sha256').update(body).digest();
      const text = `<message>Reply ${digest.toString('hex').slice(0, 12)}.</message>\n<support_ranking>${LABELS[digest[0] % 5]}</support_ranking>`;
      return send(200, {}, chat(text, body));
    });
  });
  return {
    listening: new Promise((done) => server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${server.address().port}/v1`))),
    reset(seed) {
      random = seededRandom(seed);
      requests = 0;
    },
    requests: () => requests,
    close: () => new Promise((done) => server.close(done)),
  };
}

/** "ETA 4 min 10 s", "ETA 7.0 s", "ETA 850 ms" (a bound such as "at least" read as its figure); undefined: no figure. */
export function etaMsOf(line) {
  const match = /ETA (?:at least )?(?:(\d+) min (\d+) s|([\d.]+) s|(\d+) ms)/.exec(line);
  if (!match) return undefined;
  if (match[1] !== undefined) return (Number(match[1]) * 60 + Number(match[2])) * 1000;
  if (match[3] !== undefined) return Number(match[3]) * 1000;
  return Number(match[4]);
}

/** One `pmiyc run` with `main`; the progress lines with the moment each came, and when the run ended. */
async function runOnce(main, baseURL) {
  const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-eta-'));
  const limits = { alpha: '', beta: LIMITS ? ', maxConcurrency: 3' : '', gamma: LIMITS ? ', requestsPerMinute: 150' : '' };
  const runArguments = tournamentInputs(folder, {
    baseURL,
    models: ['alpha', 'beta', 'gamma'],
    claims: CLAIMS,
    concurrency: CONCURRENCY,
    optionsOf: (name) => `, maxRetries: 8${limits[name]}`,
  });
  const startedMs = performance.now();
  const child = spawn(process.execPath, [main, ...runArguments], {
    env: { ...process.env, PMIYC_PROGRESS_INTERVAL_MS: '500' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const samples = [];
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => (stdout += chunk));
  let pending = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    const atMs = performance.now();
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) if (/^pmiyc: \d+\/\d+ conversations/.test(line)) samples.push({ atMs, line });
  });
  const code = await new Promise((done) => child.on('close', done));
  rmSync(folder, { recursive: true, force: true });
  // 1: the run completed with failed conversations (a fault that outlasted its retries), which the ETA must follow too.
  if (code !== 0 && code !== 1) throw new Error(`${main}: pmiyc run exited ${code}:\n${stdout}`);
  return { startedMs, endedMs: samples.at(-1).atMs, samples };
}

/** Every sample of a run: when, the time really left, and the progress line. */
function traceOf(run) {
  return run.samples
    .map(({ atMs, line }) => `${((atMs - run.startedMs) / 1000).toFixed(1)} s, left ${((run.endedMs - atMs) / 1000).toFixed(1)} s: ${line}`)
    .join('\n');
}

/** The worst (largest in size, sign kept) and the median relative error of the ETAs from 20 % to 90 % of the run. */
function errorsOf(run) {
  const durationMs = run.endedMs - run.startedMs;
  const errors = [];
  for (const { atMs, line } of run.samples) {
    const share = (atMs - run.startedMs) / durationMs;
    const etaMs = etaMsOf(line);
    if (share < 0.2 || share > 0.9 || etaMs === undefined) continue;
    const leftMs = run.endedMs - atMs;
    errors.push((etaMs - leftMs) / leftMs);
  }
  // TRACE=1: every sample, to see where the ETA goes wrong.
  if (process.env.TRACE) console.log(traceOf(run));
  const worst = errors.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a), 0);
  const within25 = errors.filter((error) => Math.abs(error) <= 0.25).length / errors.length;
  return { durationMs, worst, median: median(errors), within25, samples: errors.length };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const percent = (value) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(0)} %`;

const builds = process.argv.length > 2 ? process.argv.slice(2) : [new URL('../dist', import.meta.url).pathname];
const server = startServer();
const baseURL = await server.listening;
const results = new Map(builds.map((build) => [build, []]));
const loads = [loadavg()[0]];
for (let round = 1; round <= RUNS; round++) {
  for (const build of builds) {
    server.reset(round);
    const run = await runOnce(resolve(build, 'cli/main.js'), baseURL);
    const errors = errorsOf(run);
    results.get(build).push(errors);
    // TRACE_DIR=<folder>: each run's samples in a file of its own, to look into a bad run afterwards.
    if (process.env.TRACE_DIR) writeFileSync(join(process.env.TRACE_DIR, `run-${round}-${basename(build)}.txt`), `${traceOf(run)}\n`);
    loads.push(loadavg()[0]);
    console.log(
      `run ${round} ${build}: ${(errors.durationMs / 1000).toFixed(1)} s, ${server.requests()} requests, ${errors.samples} ETAs from 20 to 90 %: ` +
        `worst ${percent(errors.worst)}, median ${percent(errors.median)}, ${(errors.within25 * 100).toFixed(0)} % of them within 25 %`,
    );
  }
}
await server.close();
console.log(
  `\nnode ${process.version}, ${RUNS} interleaved runs per build, ${CLAIMS} claims x 3 models, concurrency ${CONCURRENCY}, latency ~${LATENCY_MS} ms, ` +
    `one call hung ${HANG_MS / 1000} s, ${LIMITS ? 'beta maxConcurrency 3, gamma requestsPerMinute 150' : 'no model limits'}; ` +
    `load average (1 min) ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
);
console.log('| build | worst error, 20-90 % (median run) | range over runs | median error (median of runs) | ETAs within 25 % (median of runs) |');
console.log('| --- | ---: | --- | ---: | ---: |');
for (const [build, list] of results) {
  // Runs ordered by the size of their worst error; the middle one is the median run (its error's sign kept).
  const sizes = list.map((run) => run.worst).sort((a, b) => Math.abs(a) - Math.abs(b));
  console.log(
    `| ${build} | ${percent(sizes[(sizes.length - 1) >> 1])} | ${percent(sizes[0])} to ${percent(sizes.at(-1))} | ${percent(median(list.map((run) => run.median)))} | ` +
      `${(median(list.map((run) => run.within25)) * 100).toFixed(0)} % |`,
  );
}
