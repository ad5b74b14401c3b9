import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitRevisionOf } from './git-revision.js';

let project: string;
const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: project, stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'pmiyc-git-'));
  git('init', '-q');
  writeFileSync(join(project, 'README.md'), 'a project\n');
  git('add', 'README.md');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-qm', 'first');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('the git revision recorded with a run', () => {
  it('is the checkout of pmiyc when pmiyc runs from one', () => {
    expect(gitRevisionOf(project)).toBe(git('rev-parse', 'HEAD'));
  });

  it("is left out when pmiyc is installed inside someone else's project (not their revision)", () => {
    const installed = join(project, 'node_modules', 'pmiyc');
    mkdirSync(installed, { recursive: true });
    expect(gitRevisionOf(installed)).toBeUndefined();
  });

  it('is left out outside any checkout', () => {
    const bare = mkdtempSync(join(tmpdir(), 'pmiyc-no-git-'));
    try {
      expect(gitRevisionOf(bare)).toBeUndefined();
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
