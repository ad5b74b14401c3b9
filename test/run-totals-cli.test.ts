import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';
import { startFakeChatServer } from './support/fake-chat-server.js';
import { RESPONSE_SHAPES } from './support/fake-provider-server.js';
import { pathMaker, writeChatConfig, writeClaims } from './support/run-fixtures.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-totals-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const fresh = pathMaker(() => folder);
const PRICES = ', inputUsdPerMillion: 10, outputUsdPerMillion: 10';

/** Dollars as shown ("$0.0669") in ten-thousandths, so that sums are exact. */
const tenThousandths = (shown: string) => Math.round(Number(shown.replace(/^\$/, '')) * 1e4);
const number = (shown: string) => Number(shown.replace(/,/g, ''));

/** A row of the closing lines' totals table: [this session, whole run]. */
function totalsRow(stdout: string, label: string): [string, string] {
  const match = new RegExp(`^ *${label} {2,}(\\S(?:[^\\n]*?\\S)?) {2,}(\\S(?:[^\\n]*\\S)?)$`, 'm').exec(stdout);
  if (!match) throw new Error(`no "${label}" row in:\n${stdout}`);
  return [match[1]!, match[2]!];
}

/** The total row of the per-model table of calls made: calls and cost. */
function callsTableTotal(stdout: string): { calls: number; cost: string } {
  const match = /^total\s+([\d,]+)\s+.*\s(\$\d+\.\d{4})$/m.exec(stdout);
  if (!match) throw new Error(`no total row in:\n${stdout}`);
  return { calls: number(match[1]!), cost: match[2]! };
}

/** One run's row of `pmiyc runs`, by column. */
async function listedRun(store: string, run: string): Promise<Record<string, string>> {
  const listed = await runCli(['runs', '--store', store]);
  expect(listed.code, listed.stderr).toBe(0);
  const [header, , ...rows] = listed.stdout.trimEnd().split('\n');
  const columns = header!.trim().split(/\s{2,}/);
  const row = rows.map((line) => line.split(/\s{2,}/)).find((cells) => cells[0] === run);
  if (!row) throw new Error(`no run ${run} in:\n${listed.stdout}`);
  return Object.fromEntries(columns.map((column, index) => [column, row[index]!]));
}

describe('the totals of a budget-stopped run and of its resume', () => {
  it('agree with pmiyc runs and with each other: the sessions add up to the whole run, and the table to the line under it', async () => {
    const server = await startFakeChatServer();
    try {
      const config = writeChatConfig(`${fresh('config')}.yaml`, server.url, PRICES);
      const store = `${fresh('store')}.db`;
      const args = ['run', '--config', config, '--models', 'alpha,beta', '--claims', writeClaims(`${fresh('claims')}.jsonl`, 4), '--store', store];
      const stopped = await runCli([...args, '--run', 'budget', '--concurrency', '2', '--max-cost', '0.1']);
      expect(stopped.code, stopped.stderr).toBe(1);
      const asked1 = server.requests.length;
      expect(stopped.stdout).toMatch(/^Run budget in \S+: interrupted \(budget\)\.$/m);
      const [calls1, wholeCalls1] = totalsRow(stopped.stdout, 'calls made');
      const [cost1, wholeCost1] = totalsRow(stopped.stdout, 'cost of the calls made');
      const [finished1, wholeFinished1] = totalsRow(stopped.stdout, 'conversations finished');
      // Calls made count every call asked, those of conversations left unfinished included: the server's requests.
      expect(number(calls1)).toBe(asked1);
      expect(wholeCalls1).toBe(calls1);
      expect(wholeCost1).toBe(cost1);
      expect(tenThousandths(cost1)).toBeGreaterThan(0);
      expect(wholeFinished1).toBe(`${finished1} of 32`);
      // The per-model table and the line under it count the same calls.
      expect(callsTableTotal(stopped.stdout)).toEqual({ calls: asked1, cost: cost1 });
      const listed1 = await listedRun(store, 'budget');
      expect(listed1).toMatchObject({
        status: 'interrupted (budget)',
        'conversations finished': `${finished1}/32`,
        'calls made': String(asked1),
        cost: cost1,
      });

      server.requests.length = 0;
      const resumed = await runCli(['run', '--store', store, '--run', 'budget', '--resume', '--max-cost', '100']);
      expect(resumed.code, resumed.stderr).toBe(0);
      const asked2 = server.requests.length;
      expect(resumed.stdout).toMatch(/^Run budget in \S+: completed\.$/m);
      const [calls2, wholeCalls2] = totalsRow(resumed.stdout, 'calls made');
      const [cost2, wholeCost2] = totalsRow(resumed.stdout, 'cost of the calls made');
      const [finished2, wholeFinished2] = totalsRow(resumed.stdout, 'conversations finished');
      expect(number(calls2)).toBe(asked2);
      // This session's figures and the first session's add up to the whole run's, and pmiyc runs lists the same whole.
      expect(number(wholeCalls2)).toBe(asked1 + asked2);
      expect(tenThousandths(wholeCost2)).toBe(tenThousandths(cost1) + tenThousandths(cost2));
      expect(wholeFinished2).toBe('32 of 32');
      expect(number(finished1) + number(finished2)).toBe(32);
      expect(callsTableTotal(resumed.stdout)).toEqual({ calls: asked1 + asked2, cost: wholeCost2 });
      expect(await listedRun(store, 'budget')).toMatchObject({
        status: 'completed',
        'conversations finished': '32/32',
        failed: '0',
        'calls made': String(asked1 + asked2),
        replayed: '0',
        cost: wholeCost2,
      });
    } finally {
      await server.close();
    }
  });
});

describe('a run that asks nothing of any model', () => {
  it('says so, and names --repeat, --seed and --no-cache as the ways to ask afresh', async () => {
    const server = await startFakeChatServer();
    try {
      const config = writeChatConfig(`${fresh('config')}.yaml`, server.url);
      const store = `${fresh('store')}.db`;
      const args = ['run', '--config', config, '--models', 'alpha,beta', '--claims', writeClaims(`${fresh('claims')}.jsonl`, 2), '--store', store];
      const first = await runCli([...args, '--run', 'first']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).not.toContain('Nothing was asked');
      const made = server.requests.length;

      server.requests.length = 0;
      const again = await runCli([...args, '--run', 'again']);
      expect(again.code, again.stderr).toBe(0);
      expect(server.requests).toHaveLength(0);
      expect(again.stdout).toMatch(/^calls made\s+0\s+0$/m);
      expect(again.stdout).toMatch(
        new RegExp(
          `^Nothing was asked of any model this session: all \\d+ answers came from the store, ${made} of them replayed from earlier runs \\(first: ${made}\\)\\.`,
          'm',
        ),
      );
      expect(again.stdout).toMatch(/--repeat N .*--seed N .*--no-cache/);
      expect(await listedRun(store, 'again')).toMatchObject({ 'calls made': '0', replayed: `${made} (first: ${made})` });
    } finally {
      await server.close();
    }
  });
});

describe('status words', () => {
  it('a run through its plan with failed conversations is completed with its failed count (exit 1); a --max-failures stop is failed', async () => {
    const server = await startFakeChatServer({
      respond: (request) =>
        JSON.stringify(request.body).includes('FRAGILE')
          ? { status: 400, body: RESPONSE_SHAPES.openaiError('Invalid request', 'invalid_request_error', null) }
          : undefined,
    });
    try {
      const config = writeChatConfig(`${fresh('config')}.yaml`, server.url);
      const store = `${fresh('store')}.db`;
      const claims = writeClaims(`${fresh('claims')}.jsonl`, 3, [JSON.stringify({ claim: 'A FRAGILE claim' })]);
      const args = ['run', '--config', config, '--models', 'alpha,beta', '--claims', claims, '--store', store, '--setting', 'single'];
      const through = await runCli([...args, '--run', 'through']);
      expect(through.code).toBe(1);
      expect(through.stdout).toMatch(/^Run through in \S+: completed \(4 failed\)\.$/m);
      expect(through.stderr).toContain('pmiyc: 4 conversations failed (api: 4)');
      expect(await listedRun(store, 'through')).toMatchObject({ status: 'completed (4 failed)', 'conversations finished': '16/16', failed: '4' });

      const limited = await runCli([...args, '--run', 'limited', '--max-failures', '0', '--no-cache', '--concurrency', '1']);
      expect(limited.code).toBe(1);
      expect(limited.stdout).toMatch(/^Run limited in \S+: failed \(--max-failures\)\.$/m);
      expect((await listedRun(store, 'limited'))['status']).toBe('failed (--max-failures)');
    } finally {
      await server.close();
    }
  });

  it('reads the statuses an earlier pmiyc stored in these words', async () => {
    const store = `${fresh('store')}.db`;
    const claims = writeClaims(`${fresh('claims')}.jsonl`, 2);
    for (const run of ['old-through', 'old-stopped', 'old-limit'])
      expect((await runCli(['run', '--models', 'sim/a,sim/b', '--claims', claims, '--setting', 'single', '--store', store, '--run', run])).code).toBe(0);
    const database = new Database(store);
    // Before: `failed` without a reason for a run through its plan with failures, `interrupted (failures)` for
    // a --max-failures stop; older still, a tournament's `failed` for such a stop, told by fewer stored than planned.
    database.prepare("UPDATE runs SET status = 'failed', stop_reason = NULL WHERE name IN ('old-through', 'old-stopped')").run();
    database.prepare("UPDATE runs SET planned_conversations = 20 WHERE name = 'old-stopped'").run();
    database.prepare("UPDATE runs SET status = 'interrupted', stop_reason = 'failures' WHERE name = 'old-limit'").run();
    database.close();
    expect((await listedRun(store, 'old-through'))['status']).toBe('completed');
    expect((await listedRun(store, 'old-stopped'))['status']).toBe('failed (--max-failures)');
    expect((await listedRun(store, 'old-limit'))['status']).toBe('failed (--max-failures)');
  });
});

describe('a start refused before any work', () => {
  it('leaves no run behind, for pmiyc run, consistency and judge', async () => {
    const store = `${fresh('store')}.db`;
    const claims = writeClaims(`${fresh('claims')}.jsonl`, 2);
    expect((await runCli(['run', '--models', 'sim/a,sim/b', '--claims', claims, '--setting', 'single', '--store', store, '--run', 'kept'])).code).toBe(0);
    // The model's file is only read once the run's session starts (its content hash is the call identity).
    const missing = `llama/${join(folder, 'missing.gguf')}`;
    const pairs = `${fresh('pairs')}.jsonl`;
    writeFileSync(pairs, JSON.stringify({ claim: 'C', a: 'short', b: 'a longer argument', better: 'b', difference: 2 }));
    const refused = [
      ['run', '--models', `${missing},sim/a`, '--claims', claims, '--store', store],
      ['consistency', '--models', missing, '--claims', claims, '--answers', '2', '--store', store],
      ['judge', '--models', missing, '--pairs', pairs, '--store', store],
    ];
    for (const args of refused) {
      const result = await runCli(args);
      expect(result.code, result.stdout).toBe(2);
      expect(result.stderr).toContain('no GGUF file at');
    }
    const listed = await runCli(['runs', '--store', store]);
    expect(listed.stdout.trimEnd().split('\n').slice(2, -1)).toEqual([expect.stringMatching(/^kept\s+tournament\s+completed\s/)]);
    // The name the refused run had is free again.
    expect((await runCli(['run', '--models', 'sim/a,sim/b', '--claims', claims, '--setting', 'single', '--store', store])).stdout).toContain('Run run-1 in');
  });
});
