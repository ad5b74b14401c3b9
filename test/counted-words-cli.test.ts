import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-counted-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('one of a thing is said in the singular', () => {
  it('pmiyc claims of one claim says "1 claim"', async () => {
    const listed = await runCli(['claims', 'examples', '--limit', '1']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^1 claim\. Licences: 1 from /m);
    expect(listed.stdout).not.toContain('1 claims');
  });

  it('pmiyc report of one conversation says "Report of 1 conversation"', async () => {
    const store = join(folder, 'one.db');
    const run = await runCli(['run', '--models', 'sim/eloquent', '--setting', 'single', '--limit', '1', '--store', store]);
    expect(run.code, run.stderr).toBe(0);
    const report = await runCli(['report', '--store', store, '--format', 'md', '--out', join(folder, 'report')]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/^Report of 1 conversation written to /);
    const resumed = await runCli(['run', '--store', store, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/: completed; 1 conversation was already done\.$/m);
  });
});
