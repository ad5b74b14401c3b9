import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './cli-helpers.js';
import { hasScript, runInPseudoTerminal } from './support/pseudo-terminal.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-no-size-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.skipIf(!hasScript)('pmiyc run on a terminal that says no size (some CI runners, tmux set-ups)', () => {
  it('prints plain progress lines with an ETA, not a block of blank lines', async () => {
    const args = ['run', '--models', 'sim/eloquent,sim/stubborn', '--setting', 'single', '--limit', '3', '--store', join(folder, 'store.db')];
    const { code, output, lines } = await runInPseudoTerminal(CLI, args, 0, 0);
    expect(code).toBe(0);
    // No redraw: nothing moves the cursor up or erases a line.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the terminal's escape sequences
    expect(output).not.toMatch(/\u001b\[\d*A|\u001b\[2K/);
    const progress = lines.filter((line) => line.startsWith('pmiyc: ') && line.includes(' conversations ('));
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.at(-1)).toMatch(/^pmiyc: 12\/12 conversations \(0 failed\) · .* · ETA done; calls \d+ made/);
    // Every line before the tables says something.
    const beforeTables = lines.slice(
      0,
      lines.findIndex((line) => line.startsWith('Effectiveness')),
    );
    expect(beforeTables.filter((line) => line.trim() === '')).toEqual([]);
  });
});
