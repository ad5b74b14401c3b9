import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer, RecordedRequest } from './support/fake-provider-server.js';
import { pathMaker, writeChatConfig, writeClaims } from './support/run-fixtures.js';

let folder: string;
let server: FakeProviderServer;
let busyLoop: ChildProcess;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-kill-window-'));
  // Replies at once: the call rate is as high as this machine allows, so replies pile up for the spaced commits.
  server = await startFakeChatServer();
  // A loaded machine: a second process keeps a core busy while the run is killed.
  busyLoop = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
});
afterAll(async () => {
  busyLoop.kill('SIGKILL');
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});
const fresh = pathMaker(() => folder);
const bodyKey = (request: RecordedRequest) => JSON.stringify(request.body);

const exportOf = async (store: string) => {
  const result = await runCli(['export', '--store', store, '--format', 'jsonl']);
  expect(result.code).toBe(0);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => {
      const { run: _run, ...record } = JSON.parse(line) as Record<string, unknown>;
      return record;
    });
};

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('the kill -9 window', () => {
  it('repeats at most 2 x --concurrency calls per kill -9 under load, and the resumed run equals an uninterrupted one', async () => {
    const concurrency = 1;
    const config = writeChatConfig(`${fresh('config')}.yaml`, server.url);
    const claims = writeClaims(`${fresh('claims')}.jsonl`, 10);
    const store = `${fresh('store')}.db`;
    const runArgs = (into: string) => [
      'run',
      '--config',
      config,
      '--models',
      'alpha,beta',
      '--claims',
      claims,
      '--store',
      into,
      '--concurrency',
      String(concurrency),
      '--seed',
      '3',
    ];
    const args = runArgs(store);
    server.requests.length = 0;
    /** The requests each session sent (index: session). */
    const sessions: string[][] = [];
    const killPoints: number[] = [];
    let exitCode: number | null = null;
    for (let session = 0; exitCode !== 0; session++) {
      const first = server.requests.length;
      const running = spawnCli(session === 0 ? args : ['run', '--store', store, '--resume']);
      if (session < 3) {
        const killAfter = 20 + Math.floor(Math.random() * 100);
        killPoints.push(killAfter);
        await waitFor(() => server.requests.length - first >= killAfter || running.child.exitCode !== null);
        // A request goes out when a commit frees its conversation: kill at a random moment after it, not on it.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
        running.child.kill('SIGKILL');
      }
      exitCode = (await running.done).code;
      sessions.push(server.requests.slice(first).map(bodyKey));
      expect(session, 'the run never completed').toBeLessThan(10);
    }
    const repeatedPerKill = sessions.slice(0, -1).map((asked, session) => {
      const later = new Set(sessions.slice(session + 1).flat());
      return new Set(asked.filter((body) => later.has(body))).size;
    });
    // Stated in docs/design/run-ownership.md: the calls on the wire plus the replies awaiting their commit.
    for (const repeated of repeatedPerKill)
      expect(repeated, `repeated per kill ${repeatedPerKill} (killed after ${killPoints} requests)`).toBeLessThanOrEqual(2 * concurrency);

    const whole = `${fresh('store')}.db`;
    expect((await runCli(runArgs(whole))).code).toBe(0);
    expect(await exportOf(store)).toEqual(await exportOf(whole));
  }, 180_000);
});
