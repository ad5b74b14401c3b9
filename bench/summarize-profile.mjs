// Where a process's main thread spent its time, from a `--cpu-prof` profile: self time by file and by function,
// and the total (self and below) of the functions named on the command line; without names, the time by phase
// (start-up, calls, close) and by kind of work.
//   node bench/summarize-profile.mjs <file.cpuprofile> [TOP] [function name ...]
import { readFileSync } from 'node:fs';

const [file, topText = '30', ...named] = process.argv.slice(2);
const top = Number(topText);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

// Each sample's time is the gap to the next one.
const selfMs = new Map();
for (let index = 0; index < profile.samples.length; index++) {
  const id = profile.samples[index];
  const deltaMs = (profile.timeDeltas[index + 1] ?? 0) / 1000;
  selfMs.set(id, (selfMs.get(id) ?? 0) + deltaMs);
}
const totalMs = [...selfMs.values()].reduce((sum, ms) => sum + ms, 0);

const fileOf = (node) =>
  (node.callFrame.url || `(${node.callFrame.functionName || 'native'})`)
    .replace(/^.*\/(node_modules\/)/, '$1')
    .replace(/^file:\/\/.*\/(ab-[^/]+|dist)\//, '$1/');
const functionOf = (node) => `${node.callFrame.functionName || '(anonymous)'} ${fileOf(node)}:${node.callFrame.lineNumber + 1}`;

function tally(keyOf) {
  const byKey = new Map();
  for (const [id, ms] of selfMs) {
    const key = keyOf(nodes.get(id));
    byKey.set(key, (byKey.get(key) ?? 0) + ms);
  }
  return [...byKey].sort((a, b) => b[1] - a[1]);
}
const print = (title, rows) => {
  console.log(`\n${title}`);
  for (const [key, ms] of rows.slice(0, top)) console.log(`${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / totalMs).toFixed(1).padStart(5)}%  ${key}`);
};
console.log(`${file}: ${totalMs.toFixed(0)} ms sampled on the main thread`);
print('self time by file', tally(fileOf));
print('self time by function', tally(functionOf));

// The total of a named function: samples with it anywhere on their stack (counted once per sample).
if (named.length > 0) {
  console.log('\ntotal time (self and below) of the named functions');
  for (const name of named) {
    let ms = 0;
    for (const [id, sampleMs] of selfMs) {
      for (let at = id; at !== undefined; at = parents.get(at)) {
        if (nodes.get(at).callFrame.functionName === name) {
          ms += sampleMs;
          break;
        }
      }
    }
    console.log(`${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / totalMs).toFixed(1).padStart(5)}%  ${name}`);
  }
}

// The main thread's time by phase and by kind of work, for a profile of `pmiyc run` or of the bare client of
// bench/cpu-ratio.mjs. Start-up ends with the first request written (undici's writeH1), the close begins after the
// last reply read. A sample counts for the first kind (in this list's order) that some frame on its stack has.
const KINDS = [
  ['idle', (frame) => frame.functionName === '(idle)'],
  ['garbage collector', (frame) => frame.functionName === '(garbage collector)'],
  ['store: commits (calls, messages, records, search index, deflate)', (frame) => frame.functionName === 'flush' && /result-store/.test(frame.url)],
  ['store: call lookups', (frame) => frame.functionName === 'lookup' && /result-store/.test(frame.url)],
  ['store: other', (frame) => /result-store|better-sqlite3/.test(frame.url)],
  ['request hash (call identity)', (frame) => frame.functionName === 'requestHash'],
  ['HTTP: reading replies (undici, sockets)', (frame) => /^(onHttpSocketReadable|onStreamRead|readMore)$/.test(frame.functionName)],
  ['HTTP: sending requests (undici, sockets)', (frame) => /^(writeH1|_resume|dispatch)$/.test(frame.functionName) && /undici/.test(frame.url)],
  ['HTTP: other', (frame) => /undici|http-transport|node:net|stream/.test(frame.url)],
  ['chat model (request body, reply parsing)', (frame) => /create-chat-model/.test(frame.url)],
  ['engine (prompts, reply parsing, turns)', (frame) => /run-conversation/.test(frame.url)],
  ['run session (layers, meter, progress)', (frame) => /run-session/.test(frame.url)],
  ['run command (plan, records, closing tables)', (frame) => /\/run-[^/]*\.js$/.test(frame.url)],
  ['timers and promise jobs', (frame) => /^(processTimers|processImmediate|runMicrotasks|processTicksAndRejections)$/.test(frame.functionName)],
];
if (named.length === 0) {
  const stackOf = (id) => {
    const frames = [];
    for (let at = id; at !== undefined; at = parents.get(at)) frames.push(nodes.get(at).callFrame);
    return frames;
  };
  const times = [];
  let time = profile.startTime;
  for (const delta of profile.timeDeltas) {
    time += delta;
    times.push(time);
  }
  let firstRequestAt = Number.POSITIVE_INFINITY;
  let lastReplyAt = 0;
  for (let index = 0; index < profile.samples.length; index++) {
    const frames = stackOf(profile.samples[index]);
    if (frames.some((frame) => frame.functionName === 'writeH1')) firstRequestAt = Math.min(firstRequestAt, times[index]);
    if (frames.some((frame) => frame.functionName === 'onHttpSocketReadable')) lastReplyAt = times[index];
  }
  const byPhase = new Map();
  for (let index = 0; index < profile.samples.length; index++) {
    const phase = times[index] < firstRequestAt ? 'start-up' : times[index] > lastReplyAt ? 'close' : 'calls';
    const frames = stackOf(profile.samples[index]);
    const kind = KINDS.find(([, test]) => frames.some(test))?.[0] ?? 'other';
    const kinds = byPhase.get(phase) ?? new Map();
    kinds.set(kind, (kinds.get(kind) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000);
    byPhase.set(phase, kinds);
  }
  console.log(
    `\nby phase and kind (first request at ${((firstRequestAt - profile.startTime) / 1000).toFixed(0)} ms, last reply read at ${((lastReplyAt - profile.startTime) / 1000).toFixed(0)} ms)`,
  );
  for (const [phase, kinds] of byPhase) {
    const busyMs = [...kinds].filter(([kind]) => kind !== 'idle').reduce((sum, [, ms]) => sum + ms, 0);
    console.log(`${phase}: ${busyMs.toFixed(0)} ms busy`);
    for (const [kind, ms] of [...kinds].sort((a, b) => b[1] - a[1])) if (kind !== 'idle') console.log(`${ms.toFixed(0).padStart(7)} ms  ${kind}`);
  }
}
