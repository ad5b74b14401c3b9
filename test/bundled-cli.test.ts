import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from './cli-helpers.js';

/** The chunks Node loads before the CLI runs anything: dist/cli/main.js and its static imports, recursively. */
function chunksLoadedAtStart(): Map<string, string> {
  const loaded = new Map<string, string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    const text = readFileSync(file, 'utf8');
    loaded.set(file, text);
    for (const match of text.matchAll(/^import (?:[^;]*? from )?"(\.\/[^"]+)"/gm)) visit(join(dirname(file), match[1]!));
  };
  visit(CLI);
  return loaded;
}

/** The revision of the checkout the tests run in, if git can tell. */
function checkoutRevision(): string | undefined {
  try {
    return (
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dirname(CLI), stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() || undefined
    );
  } catch {
    return undefined;
  }
}

describe('the bundled CLI (docs/design/bundled-cli.md)', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'pmiyc-bundle-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("loads no command's code at start: the dynamic imports stay separate chunks", () => {
    // rolldown marks where each source module starts; `// src/cli/program.ts` shows the markers are there.
    const text = [...chunksLoadedAtStart().values()].join('\n');
    expect(text).toContain('// src/cli/program.ts');
    expect(text.match(/^\/\/ src\/cli\/commands\/.*$/gm) ?? []).toEqual([]);
  });

  it('loads no SQLite at start: commands that never open a store do not pay for it', () => {
    const text = [...chunksLoadedAtStart().values()].join('\n');
    expect(text).not.toMatch(/from "better-sqlite3"/);
  });

  it('prints the version of package.json, read relative to the bundle', async () => {
    const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(packageJson.version);
  });

  const revision = checkoutRevision();
  it.skipIf(revision === undefined)('records the git revision of the checkout the bundle was built in', async () => {
    writeFileSync(join(folder, 'claims.jsonl'), `${JSON.stringify({ claim: 'Cats are better pets than dogs.' })}\n`);
    const store = join(folder, 'store.db');
    const run = await runCli(['run', '--persuaders', 'sim/eloquent', '--persuadees', 'sim/stubborn', '--claims', 'claims.jsonl', '--store', store], {
      cwd: folder,
    });
    expect(run.code, run.stderr).toBe(0);
    const report = await runCli(['report', '--store', store, '--out', join(folder, 'report'), '--format', 'json']);
    expect(report.code, report.stderr).toBe(0);
    const document = JSON.parse(readFileSync(join(folder, 'report', 'report.json'), 'utf8')) as { meta: { runs: Array<{ gitRevision?: string }> } };
    expect(document.meta.runs.map((entry) => entry.gitRevision)).toEqual([revision]);
  });
});
