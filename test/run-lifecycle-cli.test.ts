import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, type CliResult, runCli, spawnCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer, RecordedRequest } from './support/fake-provider-server.js';
import { pathMaker, storedRun, writeChatConfig, writeClaims } from './support/run-fixtures.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-lifecycle-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fresh = pathMaker(() => folder);

const bodyKey = (request: RecordedRequest) => JSON.stringify(request.body);
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** A run against a slow server, stopped by `signal` once `after` requests were made. */
async function interruptedRun(server: FakeProviderServer, args: string[], signal: NodeJS.Signals, after = 30, cwd?: string): Promise<CliResult> {
  const running = spawnCli(args, cwd ? { cwd } : {});
  await waitFor(() => server.requests.length >= after || running.child.exitCode !== null);
  running.child.kill(signal);
  return running.done;
}

describe('one writer per run', () => {
  it('runs two resumes of the same run at once without paying any call twice: one proceeds, the other exits 2 naming the holder', async () => {
    const server = await startFakeChatServer({ delayMs: 20 });
    try {
      const store = `${fresh('store')}.db`;
      const config = writeChatConfig(`${fresh('c')}.yaml`, server.url);
      const args = [
        'run',
        '--config',
        config,
        '--models',
        'alpha,beta',
        '--claims',
        writeClaims(`${fresh('claims')}.jsonl`, 6),
        '--store',
        store,
        '--run',
        'shared',
        '--concurrency',
        '4',
      ];
      expect((await interruptedRun(server, args, 'SIGKILL')).code).toBe(137);
      // Calls on the wire when the first process was killed are lost with it and asked again once: count from here.
      server.requests.length = 0;
      const resume = ['run', '--store', store, '--run', 'shared', '--resume'];
      const [first, second] = await Promise.all([runCli(resume), runCli(resume)]);
      expect([first.code, second.code].sort()).toEqual([0, 2]);
      const refused = first.code === 2 ? first : second;
      expect(refused.stderr.trim()).toMatch(
        /^pmiyc: run shared is being written by another process on this host \(`pmiyc run --resume`, pid (\d+), since .* UTC, last heartbeat \d+ s ago\): wait for it to end, or stop it \(Ctrl-C there, or `kill \1`\), then resume the run with --resume: it is free as soon as that process ends$/,
      );
      expect(server.requests.length).toBeGreaterThan(0);
      expect(new Set(server.requests.map(bodyKey)).size).toBe(server.requests.length);
      expect(storedRun(store, 'shared').status).toBe('completed');
    } finally {
      await server.close();
    }
  });
});

describe('signals and crashes', () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await startFakeChatServer({ delayMs: 20 });
  });
  afterAll(() => server.close());

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s drains like Ctrl-C: calls in flight are stored, the run is interrupted with why, exit %i, and it resumes', async (signal, code) => {
    server.requests.length = 0;
    const store = `${fresh('store')}.db`;
    const args = [
      'run',
      '--config',
      writeChatConfig(`${fresh('c')}.yaml`, server.url),
      '--models',
      'alpha,beta',
      '--claims',
      writeClaims(`${fresh('claims')}.jsonl`, 6),
      '--store',
      store,
      '--run',
      'r',
    ];
    const stopped = await interruptedRun(server, args, signal);
    expect(stopped.code).toBe(code);
    expect(stopped.stderr).toContain(`pmiyc: ${signal}: stopping: no new calls start; calls in flight finish and are stored`);
    expect(stopped.stderr).toContain(
      `pmiyc: stopped by ${signal}; everything finished so far is stored. Resume with: pmiyc run --store ${store} --run r --resume`,
    );
    // Every call that reached the server was answered and stored: nothing in flight was lost.
    expect(storedRun(store, 'r')).toMatchObject({ status: 'interrupted', stopReason: signal, calls: server.requests.length });
    expect((await runCli(['runs', '--store', store])).stdout).toMatch(new RegExp(`^r\\s+tournament\\s+interrupted \\(${signal}\\)\\s`, 'm'));
    expect((await runCli(['run', '--store', store, '--run', 'r', '--resume'])).code).toBe(0);
  });

  it('shows a run killed with -9 as interrupted by a crash, not as running', async () => {
    server.requests.length = 0;
    const store = `${fresh('store')}.db`;
    const args = [
      'run',
      '--config',
      writeChatConfig(`${fresh('c')}.yaml`, server.url),
      '--models',
      'alpha,beta',
      '--claims',
      writeClaims(`${fresh('claims')}.jsonl`, 6),
      '--store',
      store,
      '--run',
      'r',
    ];
    expect((await interruptedRun(server, args, 'SIGKILL')).code).toBe(137);
    expect(storedRun(store, 'r').status).toBe('running');
    expect((await runCli(['runs', '--store', store])).stdout).toMatch(/^r\s+tournament\s+interrupted \(crash\)\s/m);
  });
});

describe('--resume with the flags the run started with', () => {
  it('accepts them again, names each one that differs, keeps the run settings, and resumes from another folder', async () => {
    const server = await startFakeChatServer({ delayMs: 20 });
    try {
      const here = join(folder, 'here');
      const elsewhere = join(folder, 'elsewhere');
      mkdirSync(here, { recursive: true });
      mkdirSync(elsewhere, { recursive: true });
      writeClaims(join(here, 'claims.jsonl'), 6);
      writeChatConfig(join(here, 'models.yaml'), server.url);
      const args = [
        'run',
        '--config',
        'models.yaml',
        '--models',
        'alpha,beta',
        '--claims',
        'claims.jsonl',
        '--turns',
        '7',
        '--concurrency',
        '3',
        '--store',
        'store.db',
        '--run',
        'r',
      ];
      expect((await interruptedRun(server, args, 'SIGINT', 30, here)).code).toBe(130);

      const changed = await runCli([...args.map((arg) => (arg === '7' ? '9' : arg)), '--temperature', '0.2', '--resume'], { cwd: here });
      expect(changed.code).toBe(2);
      expect(changed.stderr.trim()).toBe(
        'pmiyc: --resume continues run r as it was started: --turns is 9, but run r has 7; --temperature is 0.2, but run r has 0.7. Drop those flags, or start a new run with --run <name>',
      );
      const same = spawnCli([...args, '--resume'], { cwd: here });
      await waitFor(() => same.output().stderr.includes('conversations'));
      same.child.kill('SIGINT');
      expect([0, 130]).toContain((await same.done).code);

      const fromElsewhere = await runCli(['run', '--store', join(here, 'store.db'), '--run', 'r', '--resume'], { cwd: elsewhere });
      expect(fromElsewhere.stderr).not.toContain('no claims file');
      expect(fromElsewhere.code).toBe(0);
      const { config } = storedRun(join(here, 'store.db'), 'r');
      expect(config['settings']).toEqual({ concurrency: 3, cache: true });
      expect((config['design'] as { claims: { source: string } }).claims.source).toBe(join(here, 'claims.jsonl'));
      expect(config['configPath']).toBe(join(here, 'models.yaml'));
    } finally {
      await server.close();
    }
  });
});

describe('store hygiene', () => {
  it('never changes a file that is not its store, and says so in one line', async () => {
    const foreign = `${fresh('notes')}.db`;
    const database = new Database(foreign);
    database.exec('CREATE TABLE notes (text TEXT)');
    database.close();
    const before = readFileSync(foreign);
    const text = `${fresh('text')}.db`;
    writeFileSync(text, 'not a database at all\n'.repeat(100));
    for (const command of [['runs'], ['export'], ['report'], ['run', '--models', 'sim/a', '--resume']]) {
      for (const [path, message] of [
        [foreign, 'is an SQLite database but not a pmiyc store'],
        [text, 'is not a pmiyc store (not an SQLite database)'],
      ] as const) {
        const result = await runCli([...command, '--store', path]);
        expect(result.code, `${command.join(' ')} ${path}`).toBe(2);
        expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
        expect(result.stderr).toContain(message);
      }
    }
    expect(readFileSync(foreign).equals(before)).toBe(true);
    expect(existsSync(`${foreign}-wal`)).toBe(false);
  });

  it('leaves no store behind when the input is bad', async () => {
    const cwd = mkdtempSync(join(folder, 'empty-'));
    const bad = [
      ['run', '--models', 'nope/x'],
      ['run', '--models', 'sim/a', '--claims', 'missing.jsonl'],
      ['demo', '--claims', 'missing.jsonl'],
      ['consistency', '--models', 'sim/a', '--claims', 'missing.jsonl'],
      ['judge', '--models', 'sim/a', '--pairs', 'missing.jsonl'],
      ['run', '--models', 'sim/a', '--run', '..'],
      ['run', '--models', 'sim/a', '--concurrency', '1000000'],
    ];
    for (const args of bad) {
      const result = await runCli(args, { cwd });
      expect(result.code, args.join(' ')).toBe(2);
      expect(existsSync(join(cwd, 'pmiyc.db')), args.join(' ')).toBe(false);
    }
    const concurrency = await runCli(['run', '--models', 'sim/a', '--concurrency', '1000000'], { cwd });
    expect(concurrency.stderr).toContain('--concurrency must be a whole number from 1 to 1000');
  });

  it('creates one store from six processes at once', async () => {
    const store = `${fresh('store')}.db`;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        runCli(['run', '--models', 'sim/a,sim/b', '--claims', 'examples', '--limit', '1', '--setting', 'single', '--store', store, '--run', `r${index}`]),
      ),
    );
    for (const result of results) expect(result.stderr).not.toContain('already exists');
    expect(results.map((result) => result.code)).toEqual([0, 0, 0, 0, 0, 0]);
    expect((await runCli(['runs', '--store', store])).stdout.match(/^r\d\s+tournament\s+completed\s/gm)).toHaveLength(6);
  });

  const canDropPrivileges = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
  it('reads a store in a folder it may not write to (as another user)', async ({ skip }) => {
    if (!canDropPrivileges) skip('needs root and setpriv, to read as a user who may not write the folder');
    // A clone in a private folder (mktemp -d) hides pmiyc itself from the other user: nothing to test there.
    const nobodySeesCli = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'test', '-r', CLI]).status === 0;
    if (!nobodySeesCli) skip('the built CLI is in a folder another user cannot read (e.g. a clone under mktemp -d)');
    const shelf = mkdtempSync(join(folder, 'shelf-'));
    const store = join(shelf, 'pmiyc.db');
    expect(
      (await runCli(['run', '--models', 'sim/a', '--claims', 'examples', '--limit', '1', '--setting', 'single', '--store', store, '--run', 'kept'])).code,
    ).toBe(0);
    chmodSync(shelf, 0o555);
    chmodSync(store, 0o444);
    chmodSync(folder, 0o755);
    const asNobody = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CLI, 'runs', '--store', store], {
      encoding: 'utf8',
    });
    chmodSync(shelf, 0o755);
    expect(asNobody.stderr).toBe('');
    expect(asNobody.status).toBe(0);
    expect(asNobody.stdout).toMatch(/^kept\s+tournament\s+completed\s/m);
  });
});

describe('names and URLs', () => {
  it.each([['..'], ['a,b'], ['line\nbreak'], ['']])('refuses the run name %j with exit 2', async (name) => {
    const result = await runCli(['run', '--models', 'sim/a', '--run', name, '--store', `${fresh('store')}.db`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--run');
  });

  it('refuses a baseURL with credentials without printing them', async () => {
    const config = `${fresh('c')}.yaml`;
    writeFileSync(config, 'models:\n  gpu: { provider: vllm, model: q, baseURL: "http://me:s3cret@gpu-box:8000/v1" }\n');
    const result = await runCli(['run', '--config', config, '--models', 'gpu', '--store', `${fresh('store')}.db`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('baseURL of gpu holds credentials (user:password@)');
    expect(result.stderr).not.toContain('s3cret');
  });
});

describe('--take-over', () => {
  /** Records a live holder for a stored run: this test's own process, on `host`, with a heartbeat now. */
  function holdRun(store: string, run: string, host: string): void {
    const database = new Database(store);
    try {
      const { id } = database.prepare('SELECT id FROM runs WHERE name = ?').get(run) as { id: number };
      const now = new Date().toISOString();
      database
        .prepare('INSERT OR REPLACE INTO run_leases (run_id, pid, host, command, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(id, process.pid, host, 'pmiyc test-holder', now, now);
    } finally {
      database.close();
    }
  }

  const pairs = () => {
    const path = `${fresh('pairs')}.jsonl`;
    const pair = (claim: string) => JSON.stringify({ claim, a: `For ${claim}.`, b: `Also for ${claim}, at length.`, better: 'b', difference: 2 });
    writeFileSync(path, `${pair('Cats are better than dogs')}\n${pair('Tea beats coffee')}\n`);
    return path;
  };
  const commands: Array<[string, () => string[], string]> = [
    ['run', () => ['run', '--models', 'sim/stubborn,sim/open-minded', '--claims', 'examples', '--limit', '1', '--setting', 'single'], '--run'],
    ['consistency', () => ['consistency', '--models', 'sim/stubborn', '--claims', 'examples', '--limit', '2', '--answers', '1'], '--study'],
    ['judge', () => ['judge', '--models', 'sim/a', '--pairs', pairs()], '--study'],
  ];

  it.each(commands)(
    'pmiyc %s --resume refuses a run that a live process on another host holds, and takes it over with --take-over, saying what may be paid twice',
    async (command, start, nameFlag) => {
      const store = `${fresh('store')}.db`;
      expect((await runCli([...start(), '--store', store, nameFlag, 'held'])).code).toBe(0);
      holdRun(store, 'held', 'other-box');
      const resume = [command, '--store', store, nameFlag, 'held', '--resume'];
      const refused = await runCli(resume);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('`pmiyc test-holder`');
      expect(refused.stderr).toContain('add --take-over to take it now');
      const taken = await runCli([...resume, '--take-over']);
      expect(taken.code).toBe(0);
      expect(taken.stderr).toContain(`taking run held over from \`pmiyc test-holder\` (pid ${process.pid} on other-box`);
      expect(taken.stderr).toContain('it sees this at its next heartbeat, within 5 s, and starts no call after it');
    },
  );

  it('refuses --take-over of a run that a live process on this host writes, naming its pid; no call is made twice', async () => {
    const server = await startFakeChatServer({ delayMs: 40 });
    try {
      const store = `${fresh('store')}.db`;
      const config = writeChatConfig(`${fresh('c')}.yaml`, server.url);
      const args = ['run', '--config', config, '--models', 'alpha,beta', '--claims', writeClaims(`${fresh('claims')}.jsonl`, 5), '--concurrency', '2'];
      const holder = spawnCli([...args, '--store', store, '--run', 'live']);
      await waitFor(() => server.requests.length >= 4 || holder.child.exitCode !== null);
      const taking = await runCli(['run', '--store', store, '--run', 'live', '--resume', '--take-over']);
      expect(taking.code, taking.stderr).toBe(2);
      const pid = holder.child.pid;
      expect(taking.stderr).toContain(`run live is being written by a live process on this host (\`pmiyc run\`, pid ${pid}`);
      expect(taking.stderr).toContain(`stop it (Ctrl-C there, or \`kill ${pid}\`), then resume the run with --resume`);
      const held = await holder.done;
      expect(held.code, held.stderr).toBe(0);
      // Only the holder called: every request the server saw, once.
      expect(new Set(server.requests.map(bodyKey)).size).toBe(server.requests.length);
      expect(storedRun(store, 'live')).toMatchObject({ status: 'completed', calls: server.requests.length });
    } finally {
      await server.close();
    }
  });
});
