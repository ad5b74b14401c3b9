import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer } from './support/fake-provider-server.js';
import { pathMaker, storedRun, writeChatConfig, writeClaims } from './support/run-fixtures.js';

// A stop (SIGTERM, Ctrl-C, SIGHUP) against a server whose replies hang: after the first signal no request may
// leave (no call waiting for a slot starts, no timed-out call is tried again); a second ends the calls in flight.

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-stop-hanging-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fresh = pathMaker(() => folder);

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A config whose models hang on a server that never answers: default retries, a short per-call timeout. */
function hangingConfig(server: FakeProviderServer, timeoutMs: number): string {
  return writeChatConfig(`${fresh('c')}.yaml`, server.url, `, maxRetries: 6, timeoutMs: ${timeoutMs}`);
}

function writePairs(count: number): string {
  const path = `${fresh('pairs')}.jsonl`;
  const pair = (index: number) =>
    JSON.stringify({ claim: `Test claim number ${index}`, a: `For claim ${index}.`, b: `Also for claim ${index}, at length.`, better: 'b', difference: 2 });
  writeFileSync(path, `${Array.from({ length: count }, (_, index) => pair(index)).join('\n')}\n`);
  return path;
}

/** A finished tournament of simulated agents, for analyze to label with a judge that hangs. */
async function simulatedTournament(store: string): Promise<void> {
  const made = await runCli(['run', '--models', 'sim/stubborn,sim/open-minded', '--claims', 'examples', '--limit', '3', '--store', store, '--run', 't']);
  expect(made.code, made.stderr).toBe(0);
}

interface Study {
  readonly name: string;
  /** The command's arguments, at `concurrency` calls in flight; `store` may be prepared first. */
  readonly args: (config: string, store: string, concurrency: number) => Promise<string[]>;
  /** The run's name in the store. */
  readonly run: string;
}

const STUDIES: readonly Study[] = [
  {
    name: 'run',
    run: 'r',
    args: async (config, store, concurrency) => [
      'run',
      '--config',
      config,
      '--models',
      'alpha,beta',
      '--claims',
      writeClaims(`${fresh('claims')}.jsonl`, 12),
      '--concurrency',
      String(concurrency),
      '--store',
      store,
      '--run',
      'r',
    ],
  },
  {
    name: 'analyze',
    run: 'labels',
    args: async (config, store, concurrency) => {
      await simulatedTournament(store);
      return ['analyze', '--config', config, '--run', 't', '--judge', 'alpha', '--concurrency', String(concurrency), '--store', store, '--study', 'labels'];
    },
  },
  {
    name: 'consistency',
    run: 'stances',
    args: async (config, store, concurrency) => [
      'consistency',
      '--config',
      config,
      '--models',
      'alpha,beta',
      '--claims',
      writeClaims(`${fresh('claims')}.jsonl`, 12),
      '--answers',
      '2',
      '--concurrency',
      String(concurrency),
      '--store',
      store,
      '--study',
      'stances',
    ],
  },
  {
    name: 'judge',
    run: 'trials',
    args: async (config, store, concurrency) => [
      'judge',
      '--config',
      config,
      '--models',
      'alpha,beta',
      '--pairs',
      writePairs(12),
      '--concurrency',
      String(concurrency),
      '--store',
      store,
      '--study',
      'trials',
    ],
  },
];

/** Starts `study` against a hanging server and waits until every call slot hangs on the wire; the requests then. */
async function startHanging(study: Study, server: FakeProviderServer, concurrency: number, timeoutMs: number) {
  const store = `${fresh('store')}.db`;
  const args = await study.args(hangingConfig(server, timeoutMs), store, concurrency);
  server.requests.length = 0;
  const running = spawnCli(args);
  await waitFor(() => server.requests.length >= concurrency || running.child.exitCode !== null);
  // Every slot is held by a hanging call: nothing else can go out until one ends.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { running, store, before: server.requests.length };
}

describe.each([1, 6])('at --concurrency %i, a stop while calls hang', (concurrency) => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await startFakeChatServer({ respond: () => 'hang' });
  });
  afterAll(() => server.close());

  it.each(STUDIES)(
    '$name: the first SIGTERM lets no request leave: no waiting call starts, no timed-out call is tried again',
    async (study) => {
      const { running, store, before } = await startHanging(study, server, concurrency, 1_500);
      expect(before).toBe(concurrency);
      running.child.kill('SIGTERM');
      const stopped = await running.done;
      expect(stopped.code, stopped.stderr).toBe(143);
      expect(server.requests.length - before, 'requests the server received after the signal').toBe(0);
      expect(storedRun(store, study.run)).toMatchObject({ status: 'interrupted', stopReason: 'SIGTERM' });
    },
    60_000,
  );

  it.each(STUDIES)(
    '$name: a second SIGTERM ends the calls in flight at once; nothing of them is stored',
    async (study) => {
      const { running, store, before } = await startHanging(study, server, concurrency, 60_000);
      const signalledAt = Date.now();
      running.child.kill('SIGTERM');
      await waitFor(() => running.output().stderr.includes('stopping: no new calls start'));
      running.child.kill('SIGTERM');
      const stopped = await running.done;
      expect(Date.now() - signalledAt, 'time from the first signal to the exit (the calls hang for 60 s)').toBeLessThan(10_000);
      expect(stopped.code, stopped.stderr).toBe(143);
      expect(stopped.stderr).toContain('abandoning calls in flight');
      expect(server.requests.length - before).toBe(0);
      expect(storedRun(store, study.run)).toMatchObject({ status: 'interrupted', stopReason: 'SIGTERM', calls: 0 });
    },
    60_000,
  );
});

describe('people serve with --compare', () => {
  it('the first SIGTERM lets no request of its model conversations (--compare) leave', async () => {
    const server = await startFakeChatServer({ respond: () => 'hang' });
    try {
      const store = `${fresh('store')}.db`;
      const config = hangingConfig(server, 1_500);
      const serve = [
        'people',
        'serve',
        '--config',
        config,
        '--role',
        'persuadee',
        '--opponent',
        'alpha',
        '--compare',
        'beta',
        '--claims',
        writeClaims(`${fresh('claims')}.jsonl`, 24),
        '--participants',
        '1',
        '--port',
        '0',
        '--store',
        store,
        '--run',
        'people',
      ];
      const served = spawnCli(serve, { cwd: folder });
      // The study's session holds 16 calls at a time: 24 model conversations leave 8 waiting.
      await waitFor(() => server.requests.length >= 16 || served.child.exitCode !== null);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const before = server.requests.length;
      expect(before).toBe(16);
      served.child.kill('SIGTERM');
      const stopped = await served.done;
      expect(stopped.code, stopped.stderr).toBe(143);
      expect(server.requests.length - before).toBe(0);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('a stopped study resumes', () => {
  it('run: after the stop, --resume against a server that answers completes the run', async () => {
    let hanging = true;
    const server = await startFakeChatServer({ respond: () => (hanging ? 'hang' : undefined) });
    try {
      const { running, store } = await startHanging(STUDIES[0]!, server, 6, 1_500);
      running.child.kill('SIGTERM');
      expect((await running.done).code).toBe(143);
      hanging = false;
      const resumed = await runCli(['run', '--store', store, '--run', 'r', '--resume']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(storedRun(store, 'r').status).toBe('completed');
    } finally {
      await server.close();
    }
  }, 60_000);
});
