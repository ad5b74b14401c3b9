import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

const LIBRARY = fileURLToPath(new URL('../dist/index.js', import.meta.url));

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-store-race-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * A process that waits for `startAtMs` (so that all start together), opens the store at `path`,
 * creating it, records one run and closes it: the first and last steps of every pmiyc run.
 */
const CREATE_ONE_RUN = `
const [library, path, name, startAtMs] = process.argv.slice(1);
const { openStore } = await import(library);
const sleepMs = Number(startAtMs) - Date.now() - 5;
if (sleepMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, sleepMs);
while (Date.now() < Number(startAtMs)) {}
try {
  const store = openStore(path);
  store.createRun({ name, seed: 0, packageVersion: 'test', config: {} });
  store.close();
} catch (error) {
  process.stderr.write(String(error?.message ?? error));
  process.exitCode = 1;
}
`;

function createOneRun(path: string, name: string, startAtMs: number): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CREATE_ONE_RUN, LIBRARY, path, name, String(startAtMs)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

it('creates a new store from four processes at once, ten times over, without one failing', { timeout: 120_000 }, async () => {
  const failures: string[] = [];
  for (let round = 0; round < 10; round += 1) {
    const path = join(folder, `store-${round}.db`);
    // Node starts in well under a second even on a busy machine: then all four open the new file together.
    const startAtMs = Date.now() + 1_000;
    const results = await Promise.all([0, 1, 2, 3].map((index) => createOneRun(path, `r${index}`, startAtMs)));
    failures.push(...results.filter((result) => result.code !== 0).map((result) => `round ${round}: ${result.stderr}`));
  }
  expect(failures).toEqual([]);
});
