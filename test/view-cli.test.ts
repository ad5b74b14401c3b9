import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './cli-helpers.js';
import { servedUrl } from './support/cli-in-process.js';

let folder: string;
let store: string;

describe('pmiyc view on the command line', () => {
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-view-cli-'));
    store = join(folder, 'demo.db');
    expect((await runCli(['demo', '--store', store], { cwd: folder })).code).toBe(0);
  }, 60_000);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('serves the store read-only until Ctrl-C, which ends it at once with 130', async () => {
    const viewer = spawnCli(['view', '--store', store, '--port', '0', '--no-open']);
    try {
      const url = await servedUrl(() => viewer.output().stdout);
      const runs = (await (await fetch(`${url}api/runs`)).json()) as { runs: Array<{ name: string; completed: number }> };
      expect(runs.runs.map((run) => [run.name, run.completed])).toEqual([['demo-1', 576]]);
      viewer.child.kill('SIGINT');
      const ended = await viewer.done;
      expect(ended.code).toBe(130);
      expect(ended.stderr).not.toContain('no new calls start');
    } finally {
      viewer.child.kill('SIGKILL');
    }
  });

  it('says what to do when the port is taken or the store is missing, with exit code 2', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const busy = await runCli(['view', '--store', store, '--port', String(port), '--no-open']);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain(`port ${port} on 127.0.0.1 is in use: pass --port with another number`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    const missing = await runCli(['view', '--store', join(folder, 'missing.db'), '--no-open']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no store at');
  });
});
