import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-naming-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('flags that say what they do', () => {
  it('pmiyc judge --help shows the options of the study it runs', async () => {
    const help = await runCli(['judge', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Options of `pmiyc judge` (that is, `pmiyc judge run`):');
    expect(help.stdout).toContain('--models <a,b>');
    expect(help.stdout).toContain('--study <name>      name of a new study (judge-N when not given)');
  });

  it('consistency asks --answers times per claim; the old --samples still works, with a note', async () => {
    const store = join(folder, 'consistency.db');
    const base = ['consistency', '--models', 'sim/stubborn', '--claims', 'examples', '--limit', '2', '--store', store];
    const old = await runCli([...base, '--samples', '2', '--study', 'old']);
    expect(old.code).toBe(0);
    expect(old.stderr).toContain('pmiyc: --samples is now --answers');
    const help = await runCli(['consistency', '--help']);
    expect(help.stdout).toContain('--answers <n>');
    expect(help.stdout).not.toContain('--samples');
  });

  it('says aloud that --turns does nothing in a single-turn run', async () => {
    const result = await runCli(['run', '--models', 'sim/weak', '--setting', 'single', '--turns', '7', '--limit', '1', '--store', join(folder, 'turns.db')]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('pmiyc: --turns 7 has no effect with --setting single: a single-turn conversation always has 3 turns');
  });
});
