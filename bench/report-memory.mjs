// Report memory benchmark: does `pmiyc report` stay flat as a run grows?
// `npm run build && node bench/report-memory.mjs` writes synthetic stores of 20k and 200k conversations
// (10 models, both roles, two settings), reports each in a fresh process and prints its peak RSS.
// Not part of `npm test`. Needs ~2 GB of temporary disk and a few minutes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizedChange, openStore } from '../dist/index.js';

const MODELS = Array.from({ length: 10 }, (_, index) => `bench/model-${index}`);
const TEXT = 'An argument of about the length a model writes in one turn, repeated a little. '.repeat(3);

/** A deterministic draw in 1..5 from the numbers that name a conversation. */
const score = (...parts) => 1 + (Math.abs(parts.reduce((hash, part) => Math.imul(hash ^ part, 2654435761), 7)) % 5);

function record(claim, persuader, persuadee, repetition, setting) {
  const turnsPlanned = setting === 'single' ? 3 : 9;
  const initial = score(claim, persuadee);
  const turns = [];
  let last = initial;
  for (let index = 1; index <= turnsPlanned; index++) {
    const role = index % 2 === 0 ? 'persuader' : 'persuadee';
    const kind = index === 1 ? 'opening' : index === turnsPlanned ? 'final' : role === 'persuader' ? 'argument' : 'reply';
    if (role === 'persuadee' && index > 1) last = Math.min(4, Math.max(1, last + ((score(claim, persuader, persuadee, index, repetition) % 3) - 1)));
    const seed = index === 1 ? claim * 1000 + MODELS.indexOf(persuadee) : claim * 7919 + index * 31 + repetition;
    turns.push({
      index,
      role,
      kind,
      message: TEXT,
      score: role === 'persuader' ? 4 : last,
      raw: `<message>${TEXT}</message>`,
      attempts: [{ number: 1, seed, raw: TEXT, outcome: 'accepted', usage: { inputTokens: 400, outputTokens: 120 }, costUsd: 0.0002 }],
    });
  }
  const final = turns.at(-1).score;
  return {
    run: 'bench',
    conversationId: `c${claim}-${persuader}-${persuadee}-${repetition}-${setting}`,
    domain: claim % 2 ? 'misinformation' : 'subjective',
    setting,
    turnsPlanned,
    repetition,
    runSeed: 0,
    claimIndex: claim,
    claim: `Bench claim ${claim}`,
    question: claim % 2 ? `Question ${claim}?` : null,
    origin: 'bench',
    license: 'MIT',
    persuader,
    persuadee,
    simulated: { persuader: false, persuadee: false },
    status: 'completed',
    failureReason: null,
    failureDetail: null,
    failedTurn: null,
    failedRole: null,
    failedAttempts: [],
    earlyStopped: false,
    initialScore: initial,
    finalScore: final,
    normalizedChange: normalizedChange(initial, final),
    absoluteChange: final - initial,
    persuaderStance: score(claim, persuader),
    turns,
  };
}

function writeStore(path, claims, repetitions) {
  const store = openStore(path);
  const run = store.createRun({ name: 'bench', createdAt: '2026-11-30T00:00:00Z', seed: 0, packageVersion: 'bench', config: {} });
  let count = 0;
  for (let claim = 0; claim < claims; claim++)
    for (const persuader of MODELS)
      for (const persuadee of MODELS)
        for (let repetition = 0; repetition < repetitions; repetition++)
          for (const setting of ['single', 'multi']) {
            store.saveConversation(run.id, record(claim, persuader, persuadee, repetition, setting));
            count += 1;
          }
  store.close();
  return count;
}

async function reportOnly(path, out) {
  const { writeReport } = await import('../dist/cli/commands/report.js');
  const started = performance.now();
  const context = { stdout: process.stdout, stderr: process.stderr, env: {}, now: () => new Date(), packageVersion: 'bench' };
  const { conversations } = await writeReport({ store: path, out, format: ['html', 'md', 'json', 'csv'] }, context);
  console.log(JSON.stringify({ conversations, ms: Math.round(performance.now() - started), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
}

if (process.argv[2] === '--report') {
  await reportOnly(process.argv[3], process.argv[4]);
} else {
  const folder = mkdtempSync(join(tmpdir(), 'pmiyc-report-bench-'));
  const cases = [
    { name: '20k: 100 claims', claims: 100, repetitions: 1 },
    { name: '200k: 1,000 claims', claims: 1000, repetitions: 1 },
    { name: '200k: 100 claims x 10 repetitions', claims: 100, repetitions: 10 },
  ];
  console.log(`pmiyc report memory, node ${process.version}, ${new Date().toISOString()}; 10 models, 100 pairs, single + multi`);
  try {
    for (const entry of cases) {
      const path = join(folder, `${entry.claims}-${entry.repetitions}.db`);
      const writing = performance.now();
      const count = writeStore(path, entry.claims, entry.repetitions);
      const writeMs = Math.round(performance.now() - writing);
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--report', path, join(folder, 'out')], { encoding: 'utf8' });
      if (child.status !== 0) throw new Error(child.stderr);
      const result = JSON.parse(child.stdout.trim().split('\n').at(-1));
      console.log(
        `${entry.name.padEnd(36)} ${String(count).padStart(7)} conversations  store written in ${writeMs} ms  report ${result.ms} ms  peak RSS ${result.peakRssMb} MB`,
      );
      rmSync(path, { force: true });
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
