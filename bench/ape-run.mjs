// APE's orchestration with simulated agents: a whole `pmiyc run --protocol ape` (child process, start-up
// included), its calls answered in process by `sim/` agents that cost nothing, so what it measures is pmiyc's
// own work per call (prompts, reply reading, the evaluator's JSON, the store). Each round runs each build once
// (A, B, A, B, ...) and prints calls, wall time, CPU (user + system, every thread: bash's `times` of its
// child) and CPU per call; then each build's median and spread (min-max).
//   npm run build && node bench/ape-run.mjs                  (the build in dist/)
//   ROUNDS=5 node bench/ape-run.mjs ab-before dist          (builds interleaved: copies of dist/ inside the project)
// ROUNDS (5), WORDINGS (8: the 12 fixture topics in that many wordings, 96 topics), REPEAT (2) and
// PERSUADERS (3) set the design: 3 x 96 x 2 = 576 conversations of 3 turns, ~6,000 calls.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const WORDINGS = Number(process.env.WORDINGS ?? 8);
const REPEAT = Number(process.env.REPEAT ?? 2);
const PERSUADERS = Number(process.env.PERSUADERS ?? 3);

const folders = process.argv.slice(2);
const builds =
  folders.length > 0
    ? folders.map((folder) => ({ name: folder, main: resolve(folder, 'cli/main.js') }))
    : [{ name: 'dist', main: resolve('dist/cli/main.js') }];
const fixture = new URL('../test/fixtures/data/benchmarks/ape/src/topics/diverse_topics.sample.jsonl', import.meta.url).pathname;

/** The fixture's topics in WORDINGS wordings each: distinct statements, the same categories. */
function writeTopics(folder) {
  const topics = readFileSync(fixture, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
  const lines = [];
  for (let wording = 0; wording < WORDINGS; wording += 1)
    for (const topic of topics) lines.push(JSON.stringify({ ...topic, text: wording === 0 ? topic.text : `${topic.text} (wording ${wording})` }));
  const path = join(folder, 'topics.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Runs `node ...args` under bash; resolves with the exit code, stdout, stderr, wall ms and CPU ms (children's user + system). */
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
  return new Promise((done) =>
    shell.on('close', (code) => {
      const seconds = [
        ...times
          .trim()
          .split('\n')
          .at(-1)
          .matchAll(/(\d+)m([\d.]+)s/g),
      ].map((match) => Number(match[1]) * 60 + Number(match[2]));
      done({ code, stdout, stderr, wallMs: performance.now() - started, cpuMs: 1000 * (seconds[0] + seconds[1]) });
    }),
  );
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-ape-'));
try {
  const topics = writeTopics(folder);
  const persuaders = Array.from({ length: PERSUADERS }, (_, index) => `sim/p${index}?ape.refuse=0.1&ape.noattempt=0.1`).join(',');
  const results = new Map(builds.map((build) => [build.name, []]));
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const build of builds) {
      const store = join(folder, `${build.name.replaceAll('/', '-')}-${round}.db`);
      const args = [build.main, 'run', '--protocol', 'ape', '--models', persuaders, '--persuadee', 'sim/open-minded', '--evaluator', 'sim/stubborn'];
      const run = await measureNode([...args, '--topics', topics, '--repeat', String(REPEAT), '--store', store]);
      if (run.code !== 0) throw new Error(`${build.name} exited ${run.code}: ${run.stderr.slice(-2000)}`);
      const calls = Number(/calls made: ([\d,]+) this session/.exec(run.stdout)?.[1].replaceAll(',', '') ?? Number.NaN);
      results.get(build.name).push({ calls, wallMs: run.wallMs, cpuMs: run.cpuMs, cpuPerCall: run.cpuMs / calls });
      console.log(
        `round ${round} ${build.name}: ${calls} calls, wall ${(run.wallMs / 1000).toFixed(2)} s, CPU ${(run.cpuMs / 1000).toFixed(2)} s, ${(1000 * (run.cpuMs / calls)).toFixed(0)} µs CPU per call`,
      );
    }
  }
  for (const [name, rounds] of results) {
    const perCall = rounds.map((entry) => 1000 * entry.cpuPerCall);
    const walls = rounds.map((entry) => entry.wallMs / 1000);
    console.log(
      `${name}: ${rounds[0].calls} calls; CPU per call median ${median(perCall).toFixed(0)} µs (${Math.min(...perCall).toFixed(0)}-${Math.max(...perCall).toFixed(0)}), wall median ${median(walls).toFixed(2)} s (${Math.min(...walls).toFixed(2)}-${Math.max(...walls).toFixed(2)})`,
    );
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
