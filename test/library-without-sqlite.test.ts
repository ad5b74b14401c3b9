import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LIBRARY = new URL('../dist/index.js', import.meta.url).href;

/**
 * Run in a fresh Node: imports the built library, uses a metric and the engine, then opens a store.
 * What of better-sqlite3 is loaded is read twice, before and after the store: its JavaScript from
 * the CommonJS cache (where `require` and an `import` of a CommonJS package both put it), its native
 * binding from the process report's shared objects.
 */
const CHILD = `
import { createRequire } from 'node:module';
const [library, storePath] = process.argv.slice(1);
const loaded = () => ({
  modules: Object.keys(createRequire(library).cache).filter((path) => /[\\\\/]better-sqlite3[\\\\/]/.test(path)),
  binding: process.report.getReport().sharedObjects.filter((path) => path.endsWith('better_sqlite3.node')),
});
const pmiyc = await import(library);
const nc = pmiyc.normalizedChange(2, 4);
const spec = { claim: pmiyc.EXAMPLE_CLAIMS[0], persuaderModel: 'sim/a', persuadeeModel: 'sim/b', turns: 3, repetition: 0, runSeed: 1 };
const outcome = await pmiyc.runConversation({ spec, persuader: new pmiyc.SimulatedAgent('sim/a'), persuadee: new pmiyc.SimulatedAgent('sim/b') });
const beforeStore = loaded();
const store = pmiyc.openStore(storePath);
store.createRun({ name: 'lazy', seed: 1, packageVersion: '0.0.0', config: {} });
const runs = store.listRuns().map((run) => run.name);
store.close();
console.log(JSON.stringify({ nc, status: outcome.status, beforeStore, afterStore: loaded(), runs }));
`;

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-lazy-sqlite-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the library without the native driver', () => {
  it('computes metrics and runs the engine without loading better-sqlite3, and loads it when a store is first opened', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CHILD, LIBRARY, join(folder, 'lazy.db')]);
    const seen = JSON.parse(stdout) as {
      nc: number;
      status: string;
      beforeStore: { modules: string[]; binding: string[] };
      afterStore: { modules: string[]; binding: string[] };
      runs: string[];
    };
    expect(seen.nc).toBeCloseTo(2 / 3, 12);
    expect(seen.status).toBe('completed');
    expect(seen.beforeStore).toEqual({ modules: [], binding: [] });
    // The same probes see the driver once a store is open: they can tell, so the empty lists above mean something.
    expect(seen.afterStore.modules.some((path) => /better-sqlite3[\\/]lib[\\/]index\.js$/.test(path))).toBe(true);
    expect(seen.afterStore.binding).toHaveLength(1);
    expect(seen.runs).toEqual(['lazy']);
  });
});
