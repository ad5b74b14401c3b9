// The bare client of bench/cpu-ratio.mjs, run as its own process: replays the request bodies of a recorded
// `pmiyc run` (a JSON file of [{ method, path, body }]: the chat calls and the start's model probes) with one undici Pool at the same concurrency, reading and parsing
// each JSON reply, and nothing else. Prints the number of replies and of failures.
//   node bench/support/replay-bodies.mjs <bodies.json> <origin> <concurrency>
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

const [bodiesFile, origin, concurrencyText] = process.argv.slice(2);
const requests = JSON.parse(readFileSync(bodiesFile, 'utf8'));
const concurrency = Number(concurrencyText);
const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
const headers = { 'content-type': 'application/json', authorization: 'Bearer bench' };

let next = 0;
let replies = 0;
let failures = 0;
async function worker() {
  while (next < requests.length) {
    const { method, path, body } = requests[next++];
    const answer = await pool.request(method === 'GET' ? { method, path, headers } : { method, path, headers, body });
    const reply = await answer.body.json();
    if (answer.statusCode === 200 && typeof reply.choices?.[0]?.message?.content === 'string') replies += 1;
    else failures += 1;
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await pool.close();
console.log(JSON.stringify({ replies, failures }));
