import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, spawnCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer } from './support/fake-provider-server.js';
import { pathMaker, storedRun, writeChatConfig, writeClaims } from './support/run-fixtures.js';

// A holder killed with -9 whose parent never reaps it stays a zombie: signal 0 still finds its pid. Such a
// holder is dead, and every command that writes a run takes the run from it at once.

const onLinux = process.platform === 'linux';
let folder: string;
/** The parents that never reap: `sh` exec'd into `sleep`, each with a killed child left a zombie. */
const parents: ChildProcess[] = [];
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-dead-holder-'));
});
afterAll(() => {
  // Their end hands the zombies to init, which reaps them.
  for (const parent of parents) parent.kill('SIGKILL');
  rmSync(folder, { recursive: true, force: true });
});
const fresh = pathMaker(() => folder);

async function waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const stateOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ').at(-1)!.charAt(0);

/**
 * Starts `command` (argv) as the child of a shell that then becomes `sleep`, which never waits for a child:
 * once the command is killed, nobody reaps it. Resolves with the command's pid.
 */
async function startUnreaped(command: readonly string[]): Promise<number> {
  const quoted = command.map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' ');
  const parent = spawn('sh', ['-c', `${quoted} >/dev/null 2>&1 & echo $!; exec sleep 1000`], { stdio: ['ignore', 'pipe', 'ignore'] });
  parents.push(parent);
  let output = '';
  parent.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(() => output.includes('\n'));
  return Number(output.trim());
}

/** A zombie: a process killed with -9 that its parent never reaps. */
async function zombie(): Promise<number> {
  const pid = await startUnreaped(['sleep', '1000']);
  process.kill(pid, 'SIGKILL');
  await waitFor(() => stateOf(pid) === 'Z');
  return pid;
}

/** Makes `pid` of this host the holder of `run`'s lease, with a heartbeat now (as a process killed a moment ago). */
function holdRun(store: string, run: string, pid: number): void {
  const database = new Database(store);
  try {
    const { id } = database.prepare('SELECT id FROM runs WHERE name = ?').get(run) as { id: number };
    const now = new Date().toISOString();
    database
      .prepare('INSERT OR REPLACE INTO run_leases (run_id, pid, host, command, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(id, pid, hostname(), 'pmiyc killed-holder', now, now);
    database.prepare("UPDATE runs SET status = 'running', stop_reason = NULL WHERE id = ?").run(id);
  } finally {
    database.close();
  }
}

describe.runIf(onLinux)('a holder killed with -9 and never reaped (a zombie)', () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await startFakeChatServer({ delayMs: 30 });
  });
  afterAll(() => server.close());

  it('run --resume takes the run at once from a killed `pmiyc run` that its parent never reaped, and completes it', async () => {
    const store = `${fresh('store')}.db`;
    const config = writeChatConfig(`${fresh('c')}.yaml`, server.url);
    const claims = writeClaims(`${fresh('claims')}.jsonl`, 6);
    server.requests.length = 0;
    const pid = await startUnreaped([
      process.execPath,
      CLI,
      'run',
      '--config',
      config,
      '--models',
      'alpha,beta',
      '--claims',
      claims,
      '--store',
      store,
      '--run',
      'r',
    ]);
    await waitFor(() => server.requests.length >= 20);
    process.kill(pid, 'SIGKILL');
    await waitFor(() => stateOf(pid) === 'Z');
    // Signal 0 still finds the zombie's pid; it holds the run's lease with a recent heartbeat.
    expect(() => process.kill(pid, 0)).not.toThrow();
    const resumed = await runCli(['run', '--store', store, '--run', 'r', '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`taking run r over from \`pmiyc run\` (pid ${pid} on ${hostname()}; process ${pid} is gone)`);
    expect(storedRun(store, 'r').status).toBe('completed');
    expect((await runCli(['runs', '--store', store])).stdout).toMatch(/^r\s+tournament\s+completed\s/m);
  }, 60_000);

  it('runs shows a run whose holder is a zombie as interrupted (crash), not running', async () => {
    const store = `${fresh('store')}.db`;
    expect((await runCli(['run', '--models', 'sim/a,sim/b', '--claims', 'examples', '--limit', '1', '--store', store, '--run', 'r'])).code).toBe(0);
    holdRun(store, 'r', await zombie());
    expect((await runCli(['runs', '--store', store])).stdout).toMatch(/^r\s+tournament\s+interrupted \(crash\)\s/m);
  });

  const pairs = () => {
    const path = `${fresh('pairs')}.jsonl`;
    const pair = (claim: string) => JSON.stringify({ claim, a: `For ${claim}.`, b: `Also for ${claim}, at length.`, better: 'b', difference: 2 });
    writeFileSync(path, `${pair('Cats are better than dogs')}\n${pair('Tea beats coffee')}\n`);
    return path;
  };
  const tournament = (store: string) => [
    'run',
    '--models',
    'sim/stubborn,sim/open-minded',
    '--claims',
    'examples',
    '--limit',
    '1',
    '--store',
    store,
    '--run',
    't',
  ];
  const studies: Array<[string, (store: string) => string[][], string[]]> = [
    [
      'analyze',
      (store) => [tournament(store), ['analyze', '--run', 't', '--judge', 'sim/judge', '--store', store, '--study', 'held']],
      ['analyze', '--resume'],
    ],
    [
      'consistency',
      (store) => [['consistency', '--models', 'sim/stubborn', '--claims', 'examples', '--limit', '2', '--answers', '1', '--store', store, '--study', 'held']],
      ['consistency', '--resume'],
    ],
    ['judge', (store) => [['judge', '--models', 'sim/a', '--pairs', pairs(), '--store', store, '--study', 'held']], ['judge', '--resume']],
  ];

  it.each(studies)(
    '%s --resume takes the study at once from a zombie holder',
    async (_name, start, resume) => {
      const store = `${fresh('store')}.db`;
      for (const args of start(store)) {
        const made = await runCli(args);
        expect(made.code, made.stderr).toBe(0);
      }
      const pid = await zombie();
      holdRun(store, 'held', pid);
      const taken = await runCli([...resume, '--store', store, '--study', 'held']);
      expect(taken.code, taken.stderr).toBe(0);
      expect(taken.stderr).toContain(`taking run held over from \`pmiyc killed-holder\` (pid ${pid} on ${hostname()}; process ${pid} is gone)`);
    },
    60_000,
  );

  it('people serve serves a study at once whose holder is a zombie', async () => {
    const store = `${fresh('store')}.db`;
    const serve = ['people', 'serve', '--role', 'persuadee', '--opponent', 'sim/eloquent', '--claims', 'examples', '--limit', '2', '--port', '0'];
    const serveUntilReady = async () => {
      const served = spawnCli([...serve, '--run', 'held', '--participants', '1', '--store', store], { cwd: folder });
      await waitFor(() => served.output().stdout.includes('Press Ctrl-C') || served.child.exitCode !== null);
      served.child.kill('SIGINT');
      return served.done;
    };
    expect((await serveUntilReady()).code).toBe(130);
    const pid = await zombie();
    holdRun(store, 'held', pid);
    const again = await serveUntilReady();
    expect(again.code, again.stderr).toBe(130);
    expect(again.stdout).toContain('(continued)');
    expect(again.stderr).toContain(`taking run held over from \`pmiyc killed-holder\` (pid ${pid} on ${hostname()}; process ${pid} is gone)`);
  }, 60_000);
});
