// The store at scale: a tournament of 10 models whose replies are ~900 characters, run through the
// real engine, call cache and store (every call and conversation written as `pmiyc run` writes them,
// requests growing turn by turn) until about CALLS calls are made (default one million); then the
// store's size per call, and `pmiyc export`, `pmiyc report` and `pmiyc runs` in child processes with
// their peak resident memory. Run with `npm run build && node bench/store.mjs` (CALLS=100000 for a
// quick look; KEEP=1 keeps the store and prints its path).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { openStore, planTournament, runConversations, toConversationRecord } from '../dist/index.js';
import { withCallCache } from '../dist/models/wrappers/with-call-cache.js';

const CALLS = Number(process.env.CALLS ?? 1_000_000);
const MODELS = Array.from({ length: 10 }, (_, index) => `openai-compatible/model-${index}`);
const LABELS = ['Completely Oppose', 'Oppose', 'Neutral', 'Support', 'Completely Support'];
// Replies are made-up words: a thousand of them, 70% drawn by a Zipf law (as English uses its common
// words) and 30% uniformly. Calibrated so that a ~900-character reply deflates like English prose
// (900-character chunks of the PMIYC paper deflate 1.89x at level 1); the bench prints the ratio.
const VOCABULARY = Array.from({ length: 1000 }, (_, index) => {
  const digest = createHash('sha256').update(String(index)).digest();
  return Array.from({ length: 3 + (digest[0] % 7) }, (_, letter) => 'etaoinshrdlucmfwypvbgkqjxz'[digest[letter + 1] % 26]).join('');
});
const ZIPF = (() => {
  const weights = VOCABULARY.map((_, rank) => 1 / (rank + 1));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let sum = 0;
  return weights.map((weight) => (sum += weight / total));
})();
const zipfWord = (u) => {
  let low = 0;
  let high = ZIPF.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ZIPF[middle] < u) low = middle + 1;
    else high = middle;
  }
  return VOCABULARY[low];
};
const ZIPF_SHARE = 0.7;
let textBytes = 0;
let deflatedBytes = 0;

/** A ~900-character tagged reply, the same for the same request. */
function replyTo(request) {
  const digest = createHash('sha256').update(JSON.stringify(request.messages)).update(String(request.seed)).digest();
  let state = digest.readUInt32LE(0);
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const words = [];
  for (let length = 0; length < 860; ) {
    const u = random();
    const word = u < ZIPF_SHARE ? zipfWord(u / ZIPF_SHARE) : VOCABULARY[Math.floor(((u - ZIPF_SHARE) / (1 - ZIPF_SHARE)) * VOCABULARY.length)];
    words.push(word);
    length += word.length + 1;
  }
  const message = words.join(' ');
  if (textBytes < 2e6) {
    textBytes += message.length;
    deflatedBytes += deflateRawSync(message, { level: 1 }).length;
  }
  return `<message>${message}</message>\n<support_ranking>${LABELS[digest[4] % 5]}</support_ranking>`;
}

async function peakRssOf(args) {
  const started = performance.now();
  const child = spawn(process.execPath, [new URL('../dist/cli/main.js', import.meta.url).pathname, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let peakKb = 0;
  const sampler = setInterval(() => {
    try {
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0));
    } catch {}
  }, 20);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`pmiyc ${args.join(' ')} exited ${code}: ${stderr}`);
  return { seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024 };
}

const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-store-'));
const path = join(folder, 'bench.db');
const store = openStore(path);
// About 3.8 calls per conversation and 200 conversations (100 ordered pairs, two settings) per claim.
const claimCount = Math.max(1, Math.round(CALLS / (3.8 * MODELS.length * MODELS.length * 2)));
const claims = Array.from({ length: claimCount }, (_, index) => ({
  index,
  domain: 'subjective',
  claim: `Synthetic claim number ${index} about a policy`,
  origin: 'bench',
  license: 'MIT',
}));
const run = store.createRun({
  name: 'bench',
  seed: 1,
  packageVersion: 'bench',
  config: { command: 'run', design: { persuaders: MODELS, persuadees: MODELS } },
});
const cache = store.callCache(run.id);
let calls = 0;
const models = new Map(
  MODELS.map((name) => {
    const model = {
      name,
      simulated: false,
      generate: async (request) => {
        calls += 1;
        return { text: replyTo(request), finishReason: 'stop', usage: { inputTokens: 800, outputTokens: 220 } };
      },
    };
    return [name, withCallCache(model, cache, { modelIdentity: name, now: () => performance.now() })];
  }),
);
const plan = planTournament({ persuaders: MODELS, persuadees: MODELS, claims, settings: ['single', 'multi'], runSeed: 1 });
const writeStarted = performance.now();
const result = await runConversations({
  plan,
  modelFor: (name) => models.get(name),
  concurrency: 256,
  onConversation: (planned, outcome) =>
    store.saveConversation(run.id, toConversationRecord('bench', planned.spec, outcome, { persuader: false, persuadee: false })),
});
store.setRunStatus(run.id, 'completed');
store.close();
const writeSeconds = (performance.now() - writeStarted) / 1000;
const bytes = statSync(path).size;

const exported = await peakRssOf(['export', '--store', path, '--format', 'jsonl']);
const csv = await peakRssOf(['export', '--store', path, '--format', 'csv']);
const report = await peakRssOf(['report', '--store', path, '--out', join(folder, 'report'), '--format', 'json,csv']);
const runs = await peakRssOf(['runs', '--store', path]);
if (process.env.KEEP) console.log(`kept ${path}`);
else rmSync(folder, { recursive: true, force: true });

console.log(`pmiyc store benchmark, node ${process.version}, ${new Date().toISOString()}`);
console.log(
  `${calls.toLocaleString('en-US')} calls made (~900-character replies) in ${result.finished.toLocaleString('en-US')} conversations, written in ${writeSeconds.toFixed(0)} s (${(calls / writeSeconds).toFixed(0)} calls/s)`,
);
console.log(`replies deflate ${(textBytes / deflatedBytes).toFixed(2)}x (English prose: 1.89x)`);
console.log(`store ${(bytes / 2 ** 20).toFixed(0)} MB: ${(bytes / calls / 1024).toFixed(2)} KB per call`);
console.log(`export jsonl: ${exported.seconds.toFixed(1)} s, peak RSS ${exported.peakMb.toFixed(0)} MB`);
console.log(`export csv:   ${csv.seconds.toFixed(1)} s, peak RSS ${csv.peakMb.toFixed(0)} MB`);
console.log(`report json,csv: ${report.seconds.toFixed(1)} s, peak RSS ${report.peakMb.toFixed(0)} MB`);
console.log(`runs:         ${runs.seconds.toFixed(1)} s, peak RSS ${runs.peakMb.toFixed(0)} MB`);
