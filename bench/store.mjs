// The store at scale: writes CALLS call rows (default one million) and the conversation records
// they make up, then exports and summarises the run in child processes, sampling their peak
// resident memory. Run with `npm run build && node bench/store.mjs` (CALLS=100000 for a quick look).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, toConversationRecord } from '../dist/index.js';

const CALLS = Number(process.env.CALLS ?? 1_000_000);
const MODELS = Array.from({ length: 10 }, (_, index) => `openai-compatible/model-${index}`);
const TURNS = [3, 9];
const LABELS = ['Completely Oppose', 'Oppose', 'Neutral', 'Support', 'Completely Support'];
const words = (seed, count) =>
  Array.from(
    { length: count },
    (_, index) => ['reason', 'evidence', 'claim', 'policy', 'people', 'cost', 'because', 'however'][(seed * 7 + index * 3) % 8],
  ).join(' ');

function conversation(claimIndex, persuader, persuadee, turns, seed) {
  const claim = { index: claimIndex, domain: 'subjective', claim: `Synthetic claim ${claimIndex}`, origin: 'bench', license: 'MIT' };
  const spec = { claim, persuaderModel: persuader, persuadeeModel: persuadee, turns, repetition: 0, runSeed: 1 };
  const scores = Array.from({ length: turns }, (_, index) => 1 + ((seed + index * 3) % 5));
  const turnList = scores.map((score, index) => {
    const role = index % 2 === 0 ? 'persuadee' : 'persuader';
    const message = words(seed + index, 40);
    const raw = `<message>${message}</message>\n<support_ranking>${LABELS[score - 1]}</support_ranking>`;
    const kind = index === 0 ? 'opening' : index === turns - 1 ? 'final' : role === 'persuader' ? 'argument' : 'reply';
    const callHash = `${seed}-${index}`.padEnd(64, '0');
    return {
      index: index + 1,
      role,
      kind,
      message,
      score,
      raw,
      attempts: [
        {
          number: 1,
          seed: seed + index,
          raw,
          outcome: 'accepted',
          finishReason: 'stop',
          usage: { inputTokens: 600 + index * 150, outputTokens: 120 },
          callHash,
        },
      ],
    };
  });
  const initialScore = scores[0];
  const finalScore = scores.at(-1);
  const normalizedChange =
    finalScore >= initialScore && initialScore !== 5 ? (finalScore - initialScore) / (5 - initialScore) : (finalScore - initialScore) / (initialScore - 1);
  const outcome = {
    status: 'completed',
    turns: turnList,
    initialScore,
    finalScore,
    earlyStopped: false,
    normalizedChange,
    absoluteChange: finalScore - initialScore,
  };
  return { spec, outcome, turnList };
}

async function peakRssOf(args) {
  const started = performance.now();
  const child = spawn(process.execPath, [new URL('../dist/cli/main.js', import.meta.url).pathname, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let peakKb = 0;
  const sampler = setInterval(() => {
    try {
      const status = require('node:fs').readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {}
  }, 20);
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) process.stderr.write(`pmiyc ${args.join(' ')} exited ${code}: ${stderr}`);
  clearInterval(sampler);
  return { code, seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024 };
}

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-store-'));
const path = join(folder, 'bench.db');
const store = openStore(path);
const run = store.createRun({ name: 'bench', seed: 1, packageVersion: 'bench', config: { command: 'run' } });
const cache = store.callCache(run.id);
const writeStarted = performance.now();
let calls = 0;
let conversations = 0;
outer: for (let claimIndex = 0; ; claimIndex++) {
  for (const persuader of MODELS) {
    for (const persuadee of MODELS) {
      for (const turns of TURNS) {
        const { spec, outcome, turnList } = conversation(claimIndex, persuader, persuadee, turns, conversations);
        for (const turn of turnList) {
          const attempt = turn.attempts[0];
          const messages = [
            { role: 'system', content: words(turn.index, 300) },
            { role: 'user', content: words(turn.index + 1, 200) },
          ];
          cache.save({
            hash: attempt.callHash,
            modelIdentity: turn.role === 'persuader' ? persuader : persuadee,
            request: { messages, temperature: 0.7, maxOutputTokens: 400, seed: attempt.seed },
            reply: { text: turn.raw, finishReason: 'stop', usage: attempt.usage },
            latencyMs: 900,
            retries: 0,
          });
          calls += 1;
        }
        store.saveConversation(run.id, toConversationRecord('bench', spec, outcome, { persuader: false, persuadee: false }, 3));
        conversations += 1;
        if (calls >= CALLS) break outer;
      }
    }
  }
}
store.setRunStatus(run.id, 'completed');
store.close();
const writeSeconds = (performance.now() - writeStarted) / 1000;
const sizeMb = statSync(path).size / 2 ** 20;

const exported = await peakRssOf(['export', '--store', path, '--format', 'jsonl']);
const csv = await peakRssOf(['export', '--store', path, '--format', 'csv']);
const runs = await peakRssOf(['runs', '--store', path]);
rmSync(folder, { recursive: true, force: true });

console.log(`pmiyc store benchmark, node ${process.version}, ${new Date().toISOString()}`);
console.log(
  `wrote ${calls.toLocaleString('en-US')} call rows and ${conversations.toLocaleString('en-US')} conversations (each committed on its own) in ${writeSeconds.toFixed(0)} s: ${(calls / writeSeconds).toFixed(0)} calls/s; store ${sizeMb.toFixed(0)} MB`,
);
console.log(`export jsonl: ${exported.seconds.toFixed(1)} s, peak RSS ${exported.peakMb.toFixed(0)} MB (exit ${exported.code})`);
console.log(`export csv:   ${csv.seconds.toFixed(1)} s, peak RSS ${csv.peakMb.toFixed(0)} MB (exit ${csv.code})`);
console.log(`runs:         ${runs.seconds.toFixed(1)} s, peak RSS ${runs.peakMb.toFixed(0)} MB (exit ${runs.code})`);
