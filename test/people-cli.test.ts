import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_EXPERIMENT } from '../src/studies/people/experiment-text.js';
import { runCli, spawnCli } from './cli-helpers.js';

let folder: string;
const SERVE = ['people', 'serve', '--role', 'persuadee', '--opponent', 'sim/eloquent', '--claims', 'examples', '--limit', '2', '--port', '0'];

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-people-cli-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Serves until the admin address is printed, then sends SIGINT; the whole output and the exit code. */
async function serveUntilReady(args: readonly string[]) {
  const served = spawnCli([...SERVE, ...args], { cwd: folder });
  while (!served.output().stdout.includes('Press Ctrl-C')) {
    if (served.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  served.child.kill('SIGINT');
  return served.done;
}

describe('pmiyc people serve', () => {
  it('prints a link per participant and an admin address, stops on Ctrl-C with 130, and a restart keeps the links and adds only new ones', async () => {
    const store = join(folder, 'study.db');
    const first = await serveUntilReady(['--run', 's', '--participants', '2', '--store', store]);
    expect(first.code).toBe(130);
    expect(first.stdout).toContain('reachable from this machine only');
    expect(first.stdout.match(/ p-[0-9a-f]{6} {2}http:\/\/127\.0\.0\.1:\d+\/p\/[A-Za-z0-9_-]{43}/g)).toHaveLength(2);
    expect(first.stdout).toMatch(/Admin page \(this session only\): http:\/\/127\.0\.0\.1:\d+\/admin\/[A-Za-z0-9_-]{43}/);
    expect(first.stderr).toContain('starter text');

    const again = await serveUntilReady(['--run', 's', '--participants', '3', '--store', store]);
    expect(again.code).toBe(130);
    expect(again.stdout).toContain('(continued)');
    expect(again.stdout).toContain('The 2 links printed before still work');
    expect(again.stdout.match(/ p-[0-9a-f]{6} {2}http:/g)).toHaveLength(1);

    const otherRole = await runCli([...SERVE.map((arg) => (arg === 'persuadee' ? 'persuader' : arg)), '--run', 's', '--participants', '3', '--store', store], {
      cwd: folder,
    });
    expect(otherRole.code).toBe(2);
    expect(otherRole.stderr).toContain('--role persuadee');
  }, 60_000);

  it('refuses unclear input with exit 2 and a way out', async () => {
    const both = await runCli([...SERVE, '--run', 'x', '--participants', '2', '--open', '5', '--store', join(folder, 'x.db')], { cwd: folder });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--participants N (a link each) or --open N');
    const exposed = await runCli([...SERVE, '--run', 'x', '--participants', '2', '--host', '0.0.0.0', '--store', join(folder, 'x.db')], { cwd: folder });
    expect(exposed.code).toBe(2);
    expect(exposed.stderr).toContain('--host 0.0.0.0 also needs --public-url');
    const even = await runCli([...SERVE, '--run', 'x', '--participants', '2', '--turns', '8', '--store', join(folder, 'x.db')], { cwd: folder });
    expect(even.code).toBe(2);
    writeFileSync(join(folder, 'bad.yaml'), STARTER_EXPERIMENT.replace('minMessageChars: 20', 'minMessageChars: none'));
    const bad = await runCli([...SERVE, '--run', 'x', '--participants', '1', '--experiment', 'bad.yaml', '--store', join(folder, 'x.db')], { cwd: folder });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('minMessageChars');
  }, 60_000);

  it('checks the models before the store is opened: an opponent that is no model leaves no empty store behind', async () => {
    const store = join(folder, 'no-model.db');
    const args = SERVE.map((arg) => (arg === 'sim/eloquent' ? 'nosuch-model' : arg));
    const refused = await runCli([...args, '--run', 'x', '--participants', '1', '--store', store], { cwd: folder });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('"nosuch-model" is not a model name');
    expect(existsSync(store)).toBe(false);
  }, 60_000);

  it('serves an open link and says so', async () => {
    writeFileSync(join(folder, 'experiment.yaml'), STARTER_EXPERIMENT);
    const served = await serveUntilReady(['--run', 'o', '--open', '10', '--experiment', 'experiment.yaml', '--store', join(folder, 'open.db')]);
    expect(served.code).toBe(130);
    expect(served.stdout).toMatch(/Open link \(admits at most 10; not stored, copy it now\): http:\/\/127\.0\.0\.1:\d+\/join\/[A-Za-z0-9_-]{43}/);
    expect(served.stderr).not.toContain('starter text');
  }, 60_000);

  it("pmiyc runs counts a people study's conversations as conversations, not as study samples", async () => {
    const store = join(folder, 'counted.db');
    const served = spawnCli([...SERVE, '--run', 'counted', '--participants', '1', '--compare', 'sim/stubborn', '--store', store], { cwd: folder });
    // The model compared on the people's side argues both claims at once; the participant never comes.
    while (!served.output().stderr.includes('--compare: 2 of 2 model conversations stored')) {
      if (served.child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    served.child.kill('SIGINT');
    expect((await served.done).code).toBe(130);

    const runs = await runCli(['runs', '--store', store]);
    expect(runs.code).toBe(0);
    const header = runs.stdout.split('\n')[0]!;
    const row = runs.stdout.split('\n').find((line) => line.startsWith('counted '))!;
    const cell = (column: string) =>
      row
        .slice(0, header.indexOf(column) + column.length)
        .trim()
        .split(/\s{2,}/)
        .at(-1);
    expect(row).toContain('people serve');
    expect(cell('conversations finished')).toBe('2');
    expect(cell('failed')).toBe('0');
    expect(cell('samples/trials')).toBe('-');
  }, 60_000);
});
