import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedCallRequests } from '../src/store/tables/call-table.js';
import { runCli, spawnCli } from './cli-helpers.js';
import { isFirstArgument, isOpening, startFakeChatServer } from './support/fake-chat-server.js';
import type { FakeProviderServer, RecordedRequest } from './support/fake-provider-server.js';
import { RESPONSE_SHAPES } from './support/fake-provider-server.js';
import { pathMaker, writeChatConfig, writeClaims as writeClaimsFile } from './support/run-fixtures.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-run-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const fresh = pathMaker(() => folder);
const writeClaims = (count: number, extra: string[] = []) => writeClaimsFile(`${fresh('claims')}.jsonl`, count, extra);
const writeConfig = (server: FakeProviderServer, prices = '') => writeChatConfig(`${fresh('config')}.yaml`, server.url, prices);

const exportOf = async (store: string, run?: string) => {
  const result = await runCli(['export', '--store', store, ...(run ? ['--run', run] : []), '--format', 'jsonl']);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => {
      const { run: _run, ...record } = JSON.parse(line) as Record<string, unknown>;
      return record;
    });
};

const bodyKey = (request: RecordedRequest) => JSON.stringify(request.body);

/** The tables a run ends with (scores, then calls, tokens and cost), before the line about the run. */
const closingTables = (stdout: string) => stdout.slice(0, stdout.indexOf('\nRun '));

async function waitFor(condition: () => boolean, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('pmiyc run against a loopback OpenAI-compatible server', () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await startFakeChatServer();
  });
  afterAll(() => server.close());

  it('makes each opening and first argument once, carries temperature, max_tokens and seed, and replays a second identical run with zero calls', async () => {
    server.requests.length = 0;
    const config = writeConfig(server);
    const claims = writeClaims(3);
    const store = `${fresh('store')}.db`;
    const args = ['run', '--config', config, '--models', 'alpha,beta', '--claims', claims, '--store', store, '--concurrency', '8'];
    const first = await runCli([...args, '--run', 'first']);
    expect(first.code).toBe(0);
    expect(first.stdout.trimEnd().split('\n').slice(-2)).toEqual([`Report: pmiyc report --store ${store} --run first`, `View:   pmiyc view --store ${store}`]);
    expect(server.requests.filter(isOpening)).toHaveLength(2 * 3);
    expect(server.requests.filter(isFirstArgument)).toHaveLength(4 * 3);
    expect(new Set(server.requests.map(bodyKey)).size).toBe(server.requests.length);
    for (const request of server.requests) {
      expect(request.body).toMatchObject({ temperature: 0.7, max_tokens: 400 });
      expect(typeof request.body['seed']).toBe('number');
    }
    const made = server.requests.length;

    const second = await runCli([...args, '--run', 'second']);
    expect(second.code).toBe(0);
    expect(server.requests).toHaveLength(made);
    expect(await exportOf(store, 'second')).toEqual(await exportOf(store, 'first'));
    const runs = await runCli(['runs', '--store', store]);
    expect(runs.stdout).toMatch(/^first\s+tournament\s+completed\s+.*\s24\/24\s+0\s+-\s+\d+\s/m);
    expect(runs.stdout).toMatch(/^second\s+tournament\s+completed\s+.*\s24\/24\s+0\s+-\s+0\s/m);
  });

  it('prints the plan on --dry-run and calls nothing', async () => {
    server.requests.length = 0;
    const result = await runCli([
      'run',
      '--config',
      writeConfig(server, ', inputUsdPerMillion: 1, outputUsdPerMillion: 2'),
      '--models',
      'alpha,beta',
      '--claims',
      writeClaims(5),
      '--store',
      `${fresh('store')}.db`,
      '--dry-run',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Dry run: nothing is called. 40 conversations:');
    expect(result.stdout).toContain('subjective single: 20');
    expect(result.stdout).toContain(`at most ${(10 + 20 + 20 + 20 * 7).toLocaleString('en-US')}`);
    expect(result.stdout).toMatch(/Total cost: about \$\d+\.\d\d/);
    expect(server.requests).toHaveLength(0);
  });
});

/** Conversations a store holds, read as another process reads it while a run writes it (0 before the table exists). */
function storedConversations(store: string): number {
  try {
    const database = new Database(store, { readonly: true, fileMustExist: true });
    try {
      return database.prepare('SELECT count(*) FROM conversations').pluck().get() as number;
    } finally {
      database.close();
    }
  } catch {
    return 0;
  }
}

describe('interrupted runs resume to the same result', () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await startFakeChatServer({ delayMs: 15 });
  });
  afterAll(() => server.close());

  async function uninterrupted(config: string, claims: string) {
    const store = `${fresh('store')}.db`;
    const result = await runCli([
      'run',
      '--config',
      config,
      '--models',
      'alpha,beta',
      '--claims',
      claims,
      '--store',
      store,
      '--concurrency',
      '4',
      '--seed',
      '5',
    ]);
    expect(result.code).toBe(0);
    return { records: await exportOf(store), closing: closingTables(result.stdout) };
  }

  function storedRequestKeys(store: string): Set<string> {
    const database = new Database(store, { readonly: true });
    try {
      return new Set(
        [...storedCallRequests(database)].map(({ model, request }) =>
          JSON.stringify([model.replace('openai-compatible/', ''), request.seed, request.messages]),
        ),
      );
    } finally {
      database.close();
    }
  }
  const serverKey = (request: RecordedRequest) => JSON.stringify([request.body['model'], request.body['seed'], request.body['messages']]);

  it('after kill -9, --resume makes no completed call again, and exports and prints what an uninterrupted run would', async () => {
    const config = writeConfig(server, ', inputUsdPerMillion: 3, outputUsdPerMillion: 15');
    const claims = writeClaims(6);
    const store = `${fresh('store')}.db`;
    server.requests.length = 0;
    const running = spawnCli([
      'run',
      '--config',
      config,
      '--models',
      'alpha,beta',
      '--claims',
      claims,
      '--store',
      store,
      '--concurrency',
      '4',
      '--seed',
      '5',
      '--run',
      'killed',
    ]);
    await waitFor(() => server.requests.length >= 60);
    running.child.kill('SIGKILL');
    expect((await running.done).code).toBe(137);
    const storedBefore = storedRequestKeys(store);
    expect(storedBefore.size).toBeGreaterThan(30);

    const before = server.requests.length;
    const resumed = await runCli(['run', '--store', store, '--resume']);
    expect(resumed.code).toBe(0);
    const resumedRequests = server.requests.slice(before).map(serverKey);
    expect(resumedRequests.filter((key) => storedBefore.has(key))).toEqual([]);
    const whole = await uninterrupted(config, claims);
    expect(await exportOf(store)).toEqual(whole.records);
    // The resumed run reads its tables from every record; the uninterrupted one tallied them as it went.
    expect(whole.closing).toMatch(/\$\d/);
    expect(closingTables(resumed.stdout)).toBe(whole.closing);
  });

  it('Ctrl-C stops starting calls, stores what finished, says how to resume and exits 130', async () => {
    const config = writeConfig(server);
    const claims = writeClaims(6);
    const store = `${fresh('store')}.db`;
    server.requests.length = 0;
    const running = spawnCli([
      'run',
      '--config',
      config,
      '--models',
      'alpha,beta',
      '--claims',
      claims,
      '--store',
      store,
      '--concurrency',
      '4',
      '--seed',
      '5',
      '--run',
      'stopped',
    ]);
    // Stopped once a conversation is stored: after the stop no waiting call starts, so what is done is what was done before it.
    await waitFor(() => storedConversations(store) >= 2 || running.child.exitCode !== null);
    running.child.kill('SIGINT');
    const stopped = await running.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('Resume with: pmiyc run --store');
    expect(stopped.stderr).toContain('--run stopped --resume');
    const runs = await runCli(['runs', '--store', store]);
    expect(runs.stdout).toMatch(/^stopped\s+tournament\s+interrupted \(SIGINT\)\s/m);

    const resumed = await runCli(['run', '--store', store, '--run', 'stopped', '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/already done/);
    expect(await exportOf(store)).toEqual((await uninterrupted(config, claims)).records);
  });
});

describe('budgets and failures', () => {
  it('--max-cost stops before the spend would pass it, and the run resumes with a higher limit', async () => {
    const server = await startFakeChatServer();
    try {
      const config = writeConfig(server, ', inputUsdPerMillion: 10, outputUsdPerMillion: 10');
      const store = `${fresh('store')}.db`;
      const args = ['run', '--config', config, '--models', 'alpha,beta', '--claims', writeClaims(4), '--store', store, '--concurrency', '2'];
      const limited = await runCli([...args, '--max-cost', '0.2']);
      expect(limited.code).toBe(1);
      expect(limited.stderr).toContain('stopped before the next call could take the spend past --max-cost $0.2');
      const spent = /^cost of the calls made\s+\$\d+\.\d+\s+\$(\d+\.\d+)$/m.exec(limited.stdout);
      expect(Number(spent?.[1])).toBeLessThanOrEqual(0.2);
      expect(Number(spent?.[1])).toBeGreaterThan(0.1);
      // Why it stopped under the limit: the calls in flight held their most each, and the next call would have passed it.
      const stop =
        /: \$(\d+\.\d{4}) spent and \$(\d+\.\d{4}) reserved by the calls in flight then \(each holds the most it could cost, at its max tokens, until it ends, and counts against the limit\), and the next call needed up to \$(\d+\.\d{4}); resume with a higher limit/.exec(
          limited.stderr,
        );
      expect(stop, limited.stderr).not.toBeNull();
      const [atStop, reserved, next] = stop!.slice(1).map(Number) as [number, number, number];
      expect(atStop).toBeLessThanOrEqual(0.2);
      expect(atStop + reserved + next).toBeGreaterThan(0.2 - 0.00015);
      expect(next).toBeGreaterThan(0);
      const resumed = await runCli(['run', '--store', store, '--config', config, '--resume', '--max-cost', '100']);
      expect(resumed.code).toBe(0);
      // Conversations of both sessions: the closing tables read every record, and match a run made in one go.
      expect(resumed.stdout).toMatch(/; [1-9]\d* conversations? (was|were) already done\.$/m);
      const whole = await runCli([...args.slice(0, -4), '--store', `${fresh('store')}.db`, '--concurrency', '2']);
      expect(whole.code).toBe(0);
      expect(closingTables(whole.stdout)).toMatch(/\$\d/);
      expect(closingTables(resumed.stdout)).toBe(closingTables(whole.stdout));
    } finally {
      await server.close();
    }
  });

  it('--retry-failed runs only the failed conversations again', async () => {
    let broken = true;
    const server = await startFakeChatServer({
      respond: (request) =>
        broken && JSON.stringify(request.body).includes('FRAGILE')
          ? { status: 400, body: RESPONSE_SHAPES.openaiError('Invalid request', 'invalid_request_error', null) }
          : undefined,
    });
    try {
      const config = writeConfig(server);
      const store = `${fresh('store')}.db`;
      const claims = writeClaims(3, [JSON.stringify({ claim: 'A FRAGILE claim' })]);
      const first = await runCli(['run', '--config', config, '--models', 'alpha,beta', '--claims', claims, '--store', store, '--setting', 'single']);
      // A run with failed conversations is not a success: exit 1, the reasons counted, the way to retry them.
      expect(first.code).toBe(1);
      expect(first.stderr).toContain(`pmiyc: 4 conversations failed (api: 4): see why with pmiyc view --store ${store} (or pmiyc export`);
      expect(first.stderr).toContain('--retry-failed');
      const failed = (await exportOf(store)).filter((record) => record['status'] === 'failed');
      expect(failed).toHaveLength(4);
      expect(failed.every((record) => record['failureReason'] === 'api' && String(record['claim']).includes('FRAGILE'))).toBe(true);

      broken = false;
      server.requests.length = 0;
      const retried = await runCli(['run', '--store', store, '--retry-failed']);
      expect(retried.code).toBe(0);
      expect(server.requests.every((request) => JSON.stringify(request.body).includes('FRAGILE'))).toBe(true);
      expect((await exportOf(store)).every((record) => record['status'] === 'completed')).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('tournaments and studies in one store', () => {
  it('commands that work on tournaments default to the latest tournament, not a later study', async () => {
    const store = `${fresh('store')}.db`;
    const cwd = mkdtempSync(join(folder, 'cwd-'));
    expect((await runCli(['demo', '--store', store, '--limit', '2'], { cwd })).code).toBe(0);
    const study = await runCli(['consistency', '--models', 'sim/stubborn', '--claims', 'examples', '--limit', '3', '--answers', '2', '--store', store], {
      cwd,
    });
    expect(study.code).toBe(0);

    const runs = await runCli(['runs', '--store', store]);
    expect(runs.stdout).toMatch(/^demo-1\s+tournament\s+completed\s/m);
    expect(runs.stdout).toMatch(/^consistency-1\s+consistency\s+completed\s.*\s-\s+-\s+6\/6\s/m);
    const exported = await exportOf(store);
    expect(exported.length).toBeGreaterThan(0);
    const report = await runCli(['report', '--store', store, '--out', join(cwd, 'report'), '--format', 'json'], { cwd });
    expect(report.code).toBe(0);
    const resumed = await runCli(['run', '--store', store, '--resume'], { cwd });
    expect(resumed.stdout).toContain('Run demo-1 in');
  });
});
