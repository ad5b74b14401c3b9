// Where a process's main thread spent its time, from a `--cpu-prof` profile: self time by file and by function,
// and the total (self and below) of the functions named on the command line.
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
