// The tournament the viewer's benches (view.mjs, search.mjs) store: a run `bench` of simulated conversations between
// 10 models, every ordered pair, both settings, written through the store's own saveConversation as a run writes it.
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openStore } from '../../dist/index.js';

const BENCH_MODELS = Array.from({ length: 10 }, (_, index) => `sim/model-${index}`);
/** Each setting with its planned turns. */
const BENCH_SETTINGS = [
  ['single', 3],
  ['multi', 9],
];

/**
 * Writes a completed run `bench` of `wanted` conversations to a new store: claim by claim, each setting, each
 * (persuader, persuadee), the domains alternating by claim. `recordOf(design, written)` makes one record, called in
 * that order; saves go in batches of `batchSize`, each awaited (the store's queue commits one transaction per
 * event-loop turn), and `afterBatch(written)` is called after each full batch. Prints what it built, timed from
 * `startedMs` (default: now).
 */
export async function writeBenchStore(storePath, wanted, recordOf, { batchSize, afterBatch = () => {}, startedMs = performance.now() }) {
  const store = openStore(storePath);
  const run = store.createRun({
    name: 'bench',
    seed: 1,
    packageVersion: 'bench',
    config: { command: 'run', design: { persuaders: BENCH_MODELS, persuadees: BENCH_MODELS } },
  });
  const claims = Math.ceil(wanted / (BENCH_MODELS.length * BENCH_MODELS.length * BENCH_SETTINGS.length));
  let written = 0;
  let batch = [];
  const flush = async () => {
    await Promise.all(batch.map((record) => store.saveConversation(run.id, record)));
    batch = [];
  };
  outer: for (let claim = 0; claim < claims; claim += 1) {
    for (const [setting, turnsPlanned] of BENCH_SETTINGS) {
      for (const persuader of BENCH_MODELS) {
        for (const persuadee of BENCH_MODELS) {
          if (written === wanted) break outer;
          const domain = claim % 2 === 0 ? 'subjective' : 'misinformation';
          batch.push(recordOf({ persuader, persuadee, setting, turnsPlanned, domain, claimIndex: claim }, written));
          written += 1;
          if (batch.length === batchSize) {
            await flush();
            afterBatch(written);
          }
        }
      }
    }
  }
  await flush();
  store.setRunStatus(run.id, 'completed');
  store.close();
  console.log(
    `built ${written.toLocaleString('en')} conversations in ${((performance.now() - startedMs) / 1000).toFixed(0)} s; ${(statSync(storePath).size / 1e9).toFixed(2)} GB`,
  );
}
