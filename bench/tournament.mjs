// A real `pmiyc run` (child process) against a loopback OpenAI-compatible server that answers every
// call after a fixed latency. Compares wall time with the ideal (calls x latency / concurrency) and
// samples the run's resident memory. Run with `npm run build && node bench/tournament.mjs`.
// PMIYC_MAIN=<path to a built cli/main.js> runs another build (copies of dist/ inside the project, so
// that node_modules resolves), to compare builds in interleaved runs: on a shared VM only that counts.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tournamentInputs } from './support/bench-run.mjs';
import { startScriptedServer } from './support/scripted-server.mjs';

const LATENCY_MS = Number(process.env.LATENCY_MS ?? 200);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 64);
const MODELS = Number(process.env.MODELS ?? 5);
const CLAIMS = Number(process.env.CLAIMS ?? 24);

const server = await startScriptedServer({ latencyMs: LATENCY_MS, fullAt: CONCURRENCY });
const { baseURL, stats } = server;

const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-run-'));
const models = Array.from({ length: MODELS }, (_, index) => `m${index}`);
const runArguments = tournamentInputs(folder, { baseURL, models, claims: CLAIMS, concurrency: CONCURRENCY });

const started = performance.now();
const child = spawn(
  process.execPath,
  [
    // CPU_PROF_DIR=<dir>: a CPU profile of the pmiyc process, to see where its time goes.
    ...(process.env.CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF_DIR}`] : []),
    process.env.PMIYC_MAIN ?? new URL('../dist/cli/main.js', import.meta.url).pathname,
    ...runArguments,
  ],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
let peakRssKb = 0;
let cpuTicks = 0;
let mainThreadTicks = 0;
const curve = [];
/** utime + stime (fields 14 and 15 of a /proc stat line), in clock ticks (1/100 s). */
const ticksOf = (path) => {
  const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const sampler = setInterval(() => {
  try {
    cpuTicks = Math.max(cpuTicks, ticksOf(`/proc/${child.pid}/stat`));
    // The main thread's task has the process's id; the others are V8's helper threads (optimizing
    // compiler, GC) and libuv's pool.
    mainThreadTicks = Math.max(mainThreadTicks, ticksOf(`/proc/${child.pid}/task/${child.pid}/stat`));
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    peakRssKb = Math.max(peakRssKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    if (process.env.CURVE) curve.push((Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024) | 0);
  } catch {}
}, 20);
let stdout = '';
child.stdout.on('data', (chunk) => (stdout += chunk));
const code = await new Promise((resolve) => child.on('close', resolve));
clearInterval(sampler);
const wallMs = performance.now() - started;
await server.close();
rmSync(folder, { recursive: true, force: true });

// The closing totals table's row "conversations finished | this session | whole run".
const conversations = Number((/conversations finished\s+([\d,]+)/.exec(stdout)?.[1] ?? 'NaN').replaceAll(',', ''));
const { requests: calls, peakInFlight, firstRequestAt, lastFullAt, lastReplyAt } = stats;
const idealMs = (calls * LATENCY_MS) / CONCURRENCY;
console.log(`pmiyc tournament benchmark, node ${process.version}, ${new Date().toISOString()} (exit ${code})`);
console.log(
  `${MODELS} models round robin x ${CLAIMS} claims x 2 settings = ${conversations} conversations, ${calls} calls, latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY} (peak ${peakInFlight} in flight at the server)`,
);
console.log(
  `wall ${(wallMs / 1000).toFixed(2)} s, ideal ${(idealMs / 1000).toFixed(2)} s (calls x latency / concurrency): ${(wallMs / idealMs).toFixed(2)}x; peak RSS ${(peakRssKb / 1024).toFixed(0)} MB`,
);
// The last sample is at most 20 ms before the process ends: CPU is a slight underestimate.
console.log(
  `CPU of the pmiyc process ${(cpuTicks * 10).toFixed(0)} ms: ${((cpuTicks * 10) / calls).toFixed(2)} ms per call (start-up and the closing summary included); ` +
    `main thread ${(mainThreadTicks * 10).toFixed(0)} ms (${((mainThreadTicks * 10) / calls).toFixed(2)} ms per call), other threads ${((cpuTicks - mainThreadTicks) * 10).toFixed(0)} ms`,
);
const at = (time) => `${((time - started) / 1000).toFixed(2)} s`;
console.log(
  `first request at ${at(firstRequestAt)} (start-up), every slot busy until ${at(lastFullAt)}, last reply at ${at(lastReplyAt)} (the tail), exit at ${at(started + wallMs)} (the closing summary)`,
);
if (process.env.CURVE) console.log(curve.filter((_, i) => i % 10 === 0).join(' '));
