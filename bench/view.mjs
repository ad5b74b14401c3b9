// pmiyc view at scale: a store of 1,000,000 simulated conversations (10 models, every ordered pair, both settings,
// 5,000 claims), then the view server started as `pmiyc view` does, asked for filtered, sorted pages through its
// JSON API; prints each request's time (first and median of 5) and the server's peak memory (VmHWM).
//
//   npm run build && node bench/view.mjs [--conversations N] [--store FILE] [--keep]
//
// Building the store takes several minutes; pass --store FILE --keep to build it once and measure again later.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRandom } from '../dist/domain/random.js';
import { benchRecord } from './support/bench-record.mjs';
import { writeBenchStore } from './support/bench-store.mjs';
import { peakRssMb, startViewer, timed } from './support/viewer.mjs';

const { values } = parseArgs({
  options: { conversations: { type: 'string', default: '1000000' }, store: { type: 'string' }, keep: { type: 'boolean', default: false } },
});
const wanted = Number(values.conversations);
const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-view-'));
const storePath = values.store ?? join(folder, 'view.db');
const REASONS = ['format', 'refusal', 'api', 'context'];

function turnsOf(random, turnsPlanned, failAt) {
  const turns = [];
  let score = 1 + Math.floor(random() * 5);
  const attempt = (index) => ({
    number: 1,
    seed: index,
    raw: `<ARGUMENT>text ${index}</ARGUMENT>`,
    outcome: 'accepted',
    usage: { inputTokens: 120, outputTokens: 60 },
    costUsd: 0.0001,
    callHash: `h${Math.floor(random() * 1e12).toString(36)}`,
  });
  for (let index = 1; index <= turnsPlanned && index !== failAt; index += 1) {
    const persuadee = index % 2 === 1;
    if (persuadee && index > 1) score = Math.min(5, Math.max(1, score + Math.floor(random() * 3) - 1));
    const kind = index === 1 ? 'opening' : index === turnsPlanned ? 'final' : persuadee ? 'reply' : 'argument';
    turns.push({
      index,
      role: persuadee ? 'persuadee' : 'persuader',
      kind,
      message: `A short message of turn ${index} about the claim, as a model might write it in one or two sentences.`,
      score,
      raw: `<MESSAGE>turn ${index}</MESSAGE>`,
      attempts: [attempt(index)],
    });
  }
  return turns;
}

function recordOf(random, design) {
  const failed = random() < 0.02;
  const turns = turnsOf(random, design.turnsPlanned, failed ? 2 : 0);
  const reason = REASONS[Math.floor(random() * REASONS.length)];
  return benchRecord(design, turns, { failure: failed ? reason : null });
}

async function buildStore() {
  const random = createRandom(7);
  await writeBenchStore(storePath, wanted, (design) => recordOf(random, design), { batchSize: 10_000 });
}

if (!existsSync(storePath)) await buildStore();
const { child, url } = await startViewer(storePath);
try {
  const api = `${url}api/runs/bench/conversations?`;
  const requests = [
    ['first page, no filter', `${api}limit=50`],
    ['persuader + persuadee', `${api}persuader=sim/model-3&persuadee=sim/model-7&limit=50`],
    ['persuadee + status=failed', `${api}persuadee=sim/model-4&status=failed&limit=50`],
    ['setting + domain, page 100', `${api}setting=multi&domain=misinformation&limit=50&offset=5000`],
    ['claim text + persuader', `${api}q=greatly&persuader=sim/model-1&limit=50`],
    ['NC range, sorted by NC', `${api}ncMin=0.5&ncMax=1&sort=-nc&limit=50`],
    ['failure reason, sorted by claim', `${api}failureReason=api&sort=claim&limit=50`],
    ['early stop + persuader, by NC', `${api}earlyStopped=true&persuader=sim/model-2&sort=nc&limit=50`],
    ['one conversation', `${url}api/conversations/c37mm1`],
    ['runs list', `${url}api/runs`],
    ['run page (matrices, claims)', `${url}api/runs/bench`],
    ["run page intervals and comparisons (the report's estimator)", `${url}api/runs/bench/estimates`],
    ['compare the run with itself (every pair on every claim, twice)', `${url}api/compare?a=bench&b=bench`],
    ['compare single-turn with multi-turn', `${url}api/compare?a=bench&aSetting=single&b=bench&bSetting=multi`],
  ];
  const rows = [];
  for (const [what, address] of requests) {
    const first = await timed(address);
    const times = [];
    for (let round = 0; round < 5; round += 1) times.push((await timed(address)).ms);
    times.sort((a, b) => a - b);
    rows.push([what, first.ms, times[2], first.body.total]);
  }
  console.log(`\n| request | first | median of 5 | total |\n| --- | ---: | ---: | ---: |`);
  for (const [what, first, median, total] of rows)
    console.log(`| ${what} | ${first.toFixed(0)} ms | ${median.toFixed(0)} ms | ${total === undefined ? '' : total.toLocaleString('en')} |`);
  console.log(
    `\nserver peak RSS (VmHWM): ${peakRssMb(child.pid).toFixed(0)} MB; store ${(statSync(storePath).size / 1e9).toFixed(2)} GB; node ${process.version}`,
  );
} finally {
  child.kill('SIGINT');
  if (!values.keep) rmSync(folder, { recursive: true, force: true });
}
