import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnCli } from './cli-helpers.js';
import { FakeBatchServer } from './support/fake-batch-server.js';
import { pathMaker, writeClaims } from './support/run-fixtures.js';

let folder: string;
let busy: ChildProcess | undefined;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-batch-stop-'));
  // A process that keeps a core busy beside the runs: the stop's timing is a loaded machine's.
  busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
});
afterAll(() => {
  busy?.kill('SIGKILL');
  rmSync(folder, { recursive: true, force: true });
});
const fresh = pathMaker(() => folder);

function writeBatchConfig(baseURL: string): string {
  const path = `${fresh('config')}.yaml`;
  const entry = (model: string) => `{ provider: openai, model: ${model}, baseURL: "${baseURL}/v1", batch: { pollSeconds: 0.02, quietSeconds: 0.05 } }`;
  writeFileSync(path, `models:\n  alpha: ${entry('alpha-model')}\n  beta: ${entry('beta-model')}\n`);
  return path;
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** Batches the store knows of that were being submitted when the run ended: their provider ids were never stored. */
function batchesLeftSubmitting(store: string): number {
  const database = new Database(store, { readonly: true });
  try {
    return database.prepare("SELECT count(*) FROM batches WHERE status = 'submitting'").pluck().get() as number;
  } finally {
    database.close();
  }
}

/**
 * One run stopped by Ctrl-C once the fake batch service has seen `afterRequests` requests: before,
 * during or after a batch's upload and creation, or while it is polled.
 */
async function stopOnce(afterRequests: number): Promise<{ code: number | null; stderr: string; leftSubmitting: number }> {
  const server = await FakeBatchServer.start({ format: 'openai' });
  server.hold = true;
  try {
    const store = `${fresh('store')}.db`;
    const args = ['run', '--config', writeBatchConfig(server.url), '--models', 'alpha,beta', '--claims', writeClaims(`${fresh('claims')}.jsonl`, 2)];
    const running = spawnCli([...args, '--setting', 'single', '--store', store], { env: { OPENAI_API_KEY: 'sk-test' } });
    await waitFor(() => server.requests.length >= afterRequests || running.child.exitCode !== null);
    running.child.kill('SIGINT');
    const { code, stderr } = await running.done;
    return { code, stderr, leftSubmitting: batchesLeftSubmitting(store) };
  } finally {
    await server.close();
  }
}

it('stops at Ctrl-C with provider batches pending, 20 times on a busy machine: never a crash, every submitted batch kept for --resume', {
  timeout: 240_000,
}, async () => {
  const outcomes: Array<{ code: number | null; stderr: string; leftSubmitting: number }> = [];
  // Four at a time, the stop after 1 to 5 requests (upload, creation, poll of each model's first wave).
  for (let trial = 0; trial < 20; trial += 4) {
    outcomes.push(...(await Promise.all([0, 1, 2, 3].map((offset) => stopOnce(1 + ((trial + offset) % 5))))));
  }
  for (const outcome of outcomes) {
    expect(outcome.stderr).not.toContain('database connection is not open');
    expect(outcome.code, outcome.stderr).toBe(130);
    // A batch the provider took while the run stopped has its id stored: a resume collects it, never pays it again.
    expect(outcome.leftSubmitting, outcome.stderr).toBe(0);
  }
});
