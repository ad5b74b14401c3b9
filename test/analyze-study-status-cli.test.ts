import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';

/**
 * What an analysis study's status says (issue 41): a study that read a tournament run another process was
 * still writing is interrupted, and says so; one whose every label failed is failed, not completed.
 */

const JUDGE = 'sim/judge';

let folder: string;
let store: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-analyze-status-'));
  store = join(folder, 'store.db');
  const run = await runCli(['run', '--models', 'sim/eloquent,sim/weak', '--setting', 'single', '--limit', '3', '--store', store, '--run', 'tournament']);
  expect(run.code, run.stderr).toBe(0);
}, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const analyze = (...args: string[]) => runCli(['analyze', '--store', store, '--run', 'tournament', ...args]);

/** The status `pmiyc runs` shows for a run. */
async function statusOf(run: string): Promise<string> {
  const runs = await runCli(['runs', '--store', store]);
  const line = runs.stdout.split('\n').find((text) => text.startsWith(`${run} `));
  if (!line) throw new Error(`no run ${run} in:\n${runs.stdout}`);
  return line;
}

/** Marks the tournament as being written by this (live) test process, as a `pmiyc run` would hold it; returns the release. */
function holdTournament(): () => void {
  const opened = openStore(store, { access: 'write' });
  const run = opened.findRun('tournament');
  const at = new Date().toISOString();
  const holder = { pid: process.pid, host: hostname(), command: 'pmiyc run --resume', acquiredAt: at, heartbeatAt: at };
  opened.takeLease(run.id, holder, () => undefined);
  opened.setRunStatus(run.id, 'running');
  opened.close();
  return () => {
    const reopened = openStore(store, { access: 'write' });
    reopened.releaseLease(run.id, holder);
    reopened.setRunStatus(run.id, 'completed');
    reopened.close();
  };
}

describe('pmiyc analyze: a status that says what the study is', () => {
  it('labels what a run still being written holds, says so, ends interrupted, and a resume after the run ended completes it', async () => {
    const release = holdTournament();
    let first: Awaited<ReturnType<typeof analyze>>;
    try {
      first = await analyze('--judge', JUDGE, '--study', 'live');
    } finally {
      release();
    }
    expect(first.code).toBe(1);
    expect(first.stderr).toContain(`run tournament is still being written by another process (\`pmiyc run --resume\`, pid ${process.pid} on ${hostname()})`);
    expect(first.stderr).toMatch(/only the \d+ conversations completed by then are labelled, and the study is interrupted, not completed/);
    expect(first.stderr).toContain(`pmiyc analyze --store ${store} --study live --resume`);
    expect(await statusOf('live')).toMatch(/interrupted \(its run was still being written\)/);

    const resumed = await analyze('--study', 'live', '--resume');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).not.toContain('still being written');
    expect(await statusOf('live')).toMatch(/\bcompleted\b/);
  }, 120_000);

  it('ends failed, not completed, when no turn got a usable label, and says why and what to do', async () => {
    const result = await analyze('--judge', 'sim/judge?malformed=1', '--max-attempts', '1', '--study', 'garbled');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /study garbled failed: no turn has a usable label from sim\/judge\?malformed=1 \[simulated\] \(\d+ answers could not be read\)/,
    );
    expect(result.stderr).toContain('start a new study with another judge');
    expect(await statusOf('garbled')).toMatch(/failed \(no usable label\)/);

    const report = await runCli([
      'report',
      '--store',
      store,
      '--run',
      'tournament',
      '--analysis',
      'garbled',
      '--format',
      'json',
      '--out',
      join(folder, 'garbled-report'),
    ]);
    expect(report.code, report.stderr).toBe(0);
  }, 120_000);

  it('a study with some usable labels is completed as before', async () => {
    const result = await analyze('--judge', 'sim/judge?malformed=0.3', '--max-attempts', '1', '--study', 'partly');
    expect(result.code).toBe(0);
    expect(await statusOf('partly')).toMatch(/\bcompleted\b/);
  }, 120_000);
});
