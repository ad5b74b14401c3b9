// Full-text search at scale (issue 32): a store of 1,000,000 simulated conversations (10 models, every ordered pair,
// both settings, as bench/view.mjs builds it, through the store's own saveConversation, so the index is written as a
// run writes it) whose messages are ~30 words drawn from a Zipf-distributed vocabulary of 20,000 made-up words, with
// planted words: one in a single persuader message, one in ~0.1% and one in ~1% of the messages. Then `pmiyc view`
// is started and asked for searches through its JSON API, in interleaved rounds; prints each one's median and range,
// the index's share of the store, and (with --reindex N) how long `pmiyc upgrade` takes to index N conversations.
//
//   npm run build && node bench/search.mjs [--conversations N] [--store FILE] [--keep] [--rounds 7] [--reindex N]
//
// Building the store takes many minutes; pass --store FILE --keep to build it once and measure again later.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createRandom } from '../dist/domain/random.js';
import { benchRecord } from './support/bench-record.mjs';
import { writeBenchStore } from './support/bench-store.mjs';
import { peakRssMb, startViewer, timed } from './support/viewer.mjs';

const { values } = parseArgs({
  options: {
    conversations: { type: 'string', default: '1000000' },
    store: { type: 'string' },
    keep: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '7' },
    reindex: { type: 'string', default: '0' },
  },
});
const wanted = Number(values.conversations);
const folder = mkdtempSync(join(tmpdir(), 'pmiyc-bench-search-'));
const storePath = values.store ?? join(folder, 'search.db');
const RARE = 'zephyrine';
const RARE_AT = Math.floor(wanted * 0.7777);
const SOME = 'quillwort';
const MANY = 'ledgerline';

// Made-up words (no real text is copied), drawn with Zipf weights: rank r with probability ~ 1/r.
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'sa', 'tu', 'vo', 'ne', 'pri', 'dal', 'qua', 'shi', 'gor', 'bel', 'fin', 'ust', 'ar', 'eth', 'im', 'ox'];
const VOCABULARY = Array.from({ length: 20_000 }, (_, rank) => {
  let word = '';
  for (let rest = rank + 1; rest > 0; rest = Math.floor(rest / SYLLABLES.length)) word += SYLLABLES[rest % SYLLABLES.length];
  return word;
});
const POOL_SIZE = 2_000_000;
function wordPool(random) {
  const cumulative = new Float64Array(VOCABULARY.length);
  let sum = 0;
  for (let rank = 0; rank < VOCABULARY.length; rank += 1) cumulative[rank] = sum += 1 / (rank + 1);
  const pool = new Array(POOL_SIZE);
  for (let at = 0; at < POOL_SIZE; at += 1) {
    const target = random() * sum;
    let low = 0;
    let high = VOCABULARY.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    pool[at] = VOCABULARY[low];
  }
  return pool;
}

function messageOf(random, pool, planted) {
  const start = Math.floor(random() * (POOL_SIZE - 40));
  const words = pool.slice(start, start + 24 + Math.floor(random() * 14));
  if (random() < 0.001) words.splice(Math.floor(random() * words.length), 0, SOME);
  if (random() < 0.01) words.splice(Math.floor(random() * words.length), 0, MANY);
  if (planted) words.splice(5, 0, RARE);
  return `${words.join(' ')}.`;
}

function recordOf(random, pool, number, design) {
  const { turnsPlanned } = design;
  const turns = [];
  let score = 1 + Math.floor(random() * 5);
  for (let index = 1; index <= turnsPlanned; index += 1) {
    const persuadeeTurn = index % 2 === 1;
    if (persuadeeTurn && index > 1) score = Math.min(5, Math.max(1, score + Math.floor(random() * 3) - 1));
    const message = messageOf(random, pool, number === RARE_AT && index === 2);
    const raw = `<MESSAGE>${message}</MESSAGE><SCORE>${score}</SCORE>`;
    turns.push({
      index,
      role: persuadeeTurn ? 'persuadee' : 'persuader',
      kind: index === 1 ? 'opening' : index === turnsPlanned ? 'final' : persuadeeTurn ? 'reply' : 'argument',
      message,
      score,
      raw,
      attempts: [{ number: 1, seed: index, raw, outcome: 'accepted', usage: { inputTokens: 120, outputTokens: 60 }, costUsd: 0.0001 }],
    });
  }
  // Every turn is played: no early stop.
  return benchRecord(design, turns, { earlyStopped: false });
}

async function buildStore() {
  const startedMs = performance.now();
  const random = createRandom(11);
  const pool = wordPool(random);
  const afterBatch = (written) => {
    if (written % 100_000 === 0) console.log(`${written.toLocaleString('en')} written, ${((performance.now() - startedMs) / 1000).toFixed(0)} s`);
  };
  await writeBenchStore(storePath, wanted, (design, written) => recordOf(random, pool, written, design), { batchSize: 5_000, afterBatch, startedMs });
}

/** Bytes of the search index's tables, from the pages SQLite gives them (dbstat), or from their rows when dbstat is not built in. */
function indexSizes() {
  const database = new Database(storePath, { readonly: true });
  try {
    const rows = database.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE '%_search%' GROUP BY name").all();
    return Object.fromEntries(rows.map((row) => [row.name, row.bytes]));
  } catch {
    return {
      message_search_data: database.prepare('SELECT sum(length(block)) FROM message_search_data').pluck().get(),
      message_search_docsize: database.prepare('SELECT sum(length(sz)) + 9 * count(*) FROM message_search_docsize').pluck().get(),
      claim_search_data: database.prepare('SELECT sum(length(block)) FROM claim_search_data').pluck().get(),
    };
  } finally {
    database.close();
  }
}

if (!existsSync(storePath)) await buildStore();
const sizes = indexSizes();
const { child, url } = await startViewer(storePath);
try {
  const api = `${url}api/runs/bench/conversations?limit=50&`;
  const requests = [
    ['a word in one persuader message', `${api}q=${RARE}`],
    ['the same, field=persuader', `${api}q=${RARE}&field=persuader`],
    ['the same, field=persuadee (no hit)', `${api}q=${RARE}&field=persuadee`],
    ['a word in ~0.1% of messages', `${api}q=${SOME}`],
    ['the same + persuader filter, by NC', `${api}q=${SOME}&persuader=sim/model-3&sort=-nc`],
    ['a word in ~1% of messages', `${api}q=${MANY}`],
    ['the same, page 20', `${api}q=${MANY}&offset=950`],
    ['two words of ~1% and ~0.1%', `${api}q=${MANY}%20${SOME}`],
    [`the commonest word (${VOCABULARY[0]})`, `${api}q=${VOCABULARY[0]}`],
    ['the same, page 20', `${api}q=${VOCABULARY[0]}&offset=950`],
    ['the same + persuader filter, by NC', `${api}q=${VOCABULARY[0]}&persuader=sim/model-3&sort=-nc`],
    [`a word of rank 50 (${VOCABULARY[49]})`, `${api}q=${VOCABULARY[49]}`],
    [`a word of rank 100 (${VOCABULARY[99]})`, `${api}q=${VOCABULARY[99]}`],
    ['the same + persuader filter, by NC', `${api}q=${VOCABULARY[99]}&persuader=sim/model-3&sort=-nc`],
    ['a phrase of two common words', `${api}q=%22${VOCABULARY[0]}%20${VOCABULARY[1]}%22`],
    ['a prefix (ledger*)', `${api}q=ledger*`],
    ['a claim word, field=claim', `${api}q=greatly&field=claim`],
  ];
  const rounds = Number(values.rounds);
  const times = requests.map(() => []);
  const totals = [];
  const loads = [loadavg()[0]];
  for (let round = 0; round < rounds; round += 1) {
    for (const [at, [, address]] of requests.entries()) {
      const { ms, body } = await timed(address);
      times[at].push(ms);
      totals[at] = `${body.totalIsLowerBound ? 'at least ' : ''}${body.total.toLocaleString('en')}`;
    }
    loads.push(loadavg()[0]);
  }
  console.log(`\n| search | median | range | conversations found |\n| --- | ---: | ---: | ---: |`);
  for (const [at, [what]] of requests.entries()) {
    const sorted = [...times[at]].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(`| ${what} | ${median.toFixed(0)} ms | ${sorted[0].toFixed(0)}-${sorted.at(-1).toFixed(0)} ms | ${totals[at]} |`);
  }
  const storeBytes = statSync(storePath).size;
  const indexBytes = Object.values(sizes).reduce((sum, bytes) => sum + (bytes ?? 0), 0);
  console.log(`\n${rounds} interleaved rounds; load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}; node ${process.version}`);
  console.log(
    `store ${(storeBytes / 1e9).toFixed(2)} GB, of which the search index ${(indexBytes / 1e9).toFixed(2)} GB (${((100 * indexBytes) / storeBytes).toFixed(0)}%): ${JSON.stringify(sizes)}`,
  );
  console.log(`server peak RSS (VmHWM): ${peakRssMb(child.pid).toFixed(0)} MB`);
} finally {
  child.kill('SIGINT');
}

// What `pmiyc upgrade` costs on a store written before the index: the index emptied, the first N conversations put in
// the backlog (as the migration lists a store's conversations) and indexed by `pmiyc upgrade`. Run it last: the
// conversations after the first N are left out of the index (pass --reindex with the store's size to restore it).
const reindex = Number(values.reindex);
if (reindex > 0) {
  const database = new Database(storePath);
  const last = database
    .prepare('SELECT rowid FROM conversations ORDER BY rowid LIMIT 1 OFFSET ?')
    .pluck()
    .get(reindex - 1);
  database.exec("INSERT INTO message_search (message_search) VALUES ('delete-all')");
  database.prepare('INSERT OR REPLACE INTO search_backlog VALUES (1, 1, ?)').run(last);
  database.close();
  const started = performance.now();
  const upgrade = spawnSync(process.execPath, ['dist/cli/main.js', 'upgrade', '--store', storePath], { encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  console.log(upgrade.stdout.trim());
  console.log(
    `pmiyc upgrade indexed ${reindex.toLocaleString('en')} conversations in ${seconds.toFixed(1)} s (${(reindex / seconds).toFixed(0)} per second); load average ${loadavg()[0].toFixed(1)}`,
  );
}
if (!values.keep) rmSync(folder, { recursive: true, force: true });
