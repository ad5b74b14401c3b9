// What the benches that start a real `pmiyc run` against a loopback server share: its config of OpenAI-compatible
// models, its claims file, its command line, and a seeded generator for their own draws.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A small seeded generator (mulberry32), so that a bench or a soak draws the same values in the same order again. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A pmiyc.yaml of OpenAI-compatible models at `baseURL`, each named as its model; `optionsOf(name)` adds ", key: value" settings. */
export function modelsYaml(names, baseURL, optionsOf = () => '') {
  return `models:\n${names.map((name) => `  ${name}: { provider: openai-compatible, model: ${name}, baseURL: "${baseURL}"${optionsOf(name)} }`).join('\n')}\n`;
}

/** A claims.jsonl of `count` made-up claims, "<text> 0", "<text> 1", ... */
export function writeClaims(path, count, text = 'Benchmark claim') {
  writeFileSync(path, Array.from({ length: count }, (_, index) => JSON.stringify({ claim: `${text} ${index}` })).join('\n'));
}

/**
 * Writes a tournament's inputs to `folder` (pmiyc.yaml with `models` at `baseURL`, claims.jsonl of `claims` claims)
 * and returns the arguments of `pmiyc run` over them, storing to bench.db there.
 */
export function tournamentInputs(folder, { baseURL, models, claims, concurrency, optionsOf }) {
  writeFileSync(join(folder, 'pmiyc.yaml'), modelsYaml(models, baseURL, optionsOf));
  writeClaims(join(folder, 'claims.jsonl'), claims);
  return [
    'run',
    '--config',
    join(folder, 'pmiyc.yaml'),
    '--models',
    models.join(','),
    '--claims',
    join(folder, 'claims.jsonl'),
    '--store',
    join(folder, 'bench.db'),
    '--concurrency',
    String(concurrency),
  ];
}
