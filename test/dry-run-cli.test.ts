import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer } from './support/fake-provider-server.js';
import { pathMaker, writeClaims } from './support/run-fixtures.js';

let folder: string;
let server: FakeProviderServer;
const fresh = pathMaker(() => folder);

/** alpha priced, beta priced unless `betaUnpriced`. */
function writeConfig(betaUnpriced = false): string {
  const path = `${fresh('pmiyc')}.yaml`;
  const prices = ', inputUsdPerMillion: 1, outputUsdPerMillion: 2';
  writeFileSync(
    path,
    `models:
  alpha: { provider: openai-compatible, model: alpha-model, baseURL: "${server.url}/v1", maxRetries: 0${prices} }
  beta: { provider: openai-compatible, model: beta-model, baseURL: "${server.url}/v1", maxRetries: 0${betaUnpriced ? '' : prices} }
`,
  );
  return path;
}

/**
 * The bytes of the store and of its write-ahead log, if any: a dry run changes neither. (The -shm
 * file is SQLite's index of the log, which any reader rebuilds after a writer was killed: not data.)
 */
const snapshot = (store: string) => {
  const dir = join(store, '..');
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.startsWith(store.slice(dir.length + 1)) && !name.endsWith('-shm'))
      .map((name) => [
        name,
        createHash('sha256')
          .update(readFileSync(join(dir, name)))
          .digest('hex'),
      ]),
  );
};

/** Completed conversations in a store being written (0 while it does not exist yet). */
function completedConversations(store: string): number {
  if (!existsSync(store)) return 0;
  const database = new Database(store, { readonly: true, fileMustExist: true });
  try {
    return (database.prepare("SELECT count(*) AS n FROM conversations WHERE status = 'completed'").get() as { n: number }).n;
  } catch {
    return 0; // the schema is not written yet
  } finally {
    database.close();
  }
}

const storedLine = (stdout: string) => /^In the store already: ([\d,]+) calls, replayed for free.*$/m.exec(stdout);
const atMost = (stdout: string) => Number(/^Calls to make: at most ([\d,]+)/m.exec(stdout)?.[1]?.replace(/,/g, ''));

async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-dry-run-'));
  server = await startFakeChatServer({ delayMs: 5 });
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('pmiyc run --dry-run reads the store', () => {
  it('counts the calls a run would replay as free, says how many, and changes nothing', async () => {
    const config = writeConfig();
    const claims = writeClaims(`${fresh('claims')}.jsonl`, 4);
    const store = `${fresh('store')}.db`;
    const design = ['--config', config, '--models', 'alpha,beta', '--claims', claims, '--store', store];

    // No store yet: everything is to be asked, and no store is made.
    const before = await runCli(['run', ...design, '--dry-run']);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain(`Nothing in the store is reused: there is no run in a store at ${store} yet.`);
    expect(before.stdout).toMatch(/^Total cost: about \$0\.\d\d\.$/m);
    expect(existsSync(store)).toBe(false);

    const made = server.requests.length;
    expect((await runCli(['run', ...design, '--run', 'first'])).code).toBe(0);
    const calls = server.requests.length - made;

    // The same design again: every call is in the store, so nothing is to be made and nothing costs.
    const files = snapshot(store);
    const again = await runCli(['run', ...design, '--dry-run']);
    expect(again.code, again.stderr).toBe(0);
    expect(storedLine(again.stdout)?.[1]).toBe(String(calls));
    expect(again.stdout).toContain('(32 of the 32 conversations need no new call)');
    expect(atMost(again.stdout)).toBe(0);
    expect(again.stdout).toContain('Nothing to call: the store holds every call of the plan.');
    expect(again.stdout).toContain('Total cost: about $0.00.');
    expect(snapshot(store)).toEqual(files);
    // What it said: a real run makes no call.
    const requestsBefore = server.requests.length;
    expect((await runCli(['run', ...design, '--run', 'second'])).code).toBe(0);
    expect(server.requests.length).toBe(requestsBefore);

    // --no-cache reuses nothing of an earlier run: every call is to be made again, as the run would.
    const uncached = await runCli(['run', ...design, '--no-cache', '--dry-run']);
    expect(uncached.stdout).toContain('Nothing in the store is reused: --no-cache reuses no call of an earlier run.');
    expect(atMost(uncached.stdout)).toBe(atMost(before.stdout));

    // Two more claims: the stored ones are free, the new ones are counted.
    const more = await runCli(['run', ...design.slice(0, 5), writeClaims(`${fresh('claims')}.jsonl`, 6), '--store', store, '--dry-run']);
    expect(storedLine(more.stdout)?.[1]).toBe(String(calls));
    expect(more.stdout).toContain('(32 of the 48 conversations need no new call)');
    expect(atMost(more.stdout)).toBe(atMost(before.stdout) / 2);
  }, 120_000);

  it('gives a lower bound and names the models without prices', async () => {
    const result = await runCli([
      'run',
      '--config',
      writeConfig(true),
      '--models',
      'alpha,beta',
      '--claims',
      writeClaims(`${fresh('claims')}.jsonl`, 2),
      '--store',
      `${fresh('store')}.db`,
      '--dry-run',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^Total cost: at least \$0\.\d\d \(no price for beta\)\. Set inputUsdPerMillion and outputUsdPerMillion for them under models: in the config\.$/m,
    );
    expect(result.stdout).not.toContain('unknown');
  });

  it('--resume --dry-run skips what the run holds, reuses its calls, and leaves the run as it was', async () => {
    const config = writeConfig();
    const store = `${fresh('store')}.db`;
    const design = ['--config', config, '--models', 'alpha,beta', '--claims', writeClaims(`${fresh('claims')}.jsonl`, 6), '--store', store];
    const made = server.requests.length;
    const running = spawnCli(['run', ...design, '--run', 'cut', '--concurrency', '2']);
    // Killed once a conversation is stored, whatever the machine's load (calls go earliest-first, so a
    // count of requests alone may find every conversation still under way).
    await waitFor(() => server.requests.length - made >= 40 && completedConversations(store) > 0);
    running.child.kill('SIGKILL');
    await running.done;

    const files = snapshot(store);
    const dry = await runCli(['run', '--store', store, '--resume', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const held = /run cut holds ([\d,]+) of the conversations already, skipped/.exec(dry.stdout)?.[1];
    expect(Number(held)).toBeGreaterThan(0);
    expect(Number(storedLine(dry.stdout)?.[1])).toBeGreaterThan(0);
    expect(snapshot(store)).toEqual(files);

    // The resume itself makes no more calls than the dry run said it could.
    const requestsBefore = server.requests.length;
    const resumed = await runCli(['run', '--store', store, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(server.requests.length - requestsBefore).toBeLessThanOrEqual(atMost(dry.stdout));
    expect(server.requests.length - requestsBefore).toBeGreaterThan(0);
  }, 120_000);
});
