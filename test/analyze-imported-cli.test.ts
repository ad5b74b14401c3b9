import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';

/** Three whole records of the official code's results (see test/fixtures/README.md). */
const FIXTURE_TREE = fileURLToPath(new URL('./fixtures/official-results/experiments', import.meta.url));

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-analyze-imported-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('pmiyc analyze on a run imported from the official code', () => {
  it('labels every turn of the imported conversations like any other run', async () => {
    const store = join(folder, 'store.db');
    expect((await runCli(['import', 'official', FIXTURE_TREE, '--run', 'official', '--store', store])).code).toBe(0);
    const result = await runCli(['analyze', '--run', 'official', '--judge', 'sim/judge', '--taxonomy', 'techniques', '--store', store]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Analysis analysis-1 of run official: 3 completed conversations');
    expect(result.stdout).toContain('Report: pmiyc report --store');
    const opened = openStore(store, { access: 'read' });
    try {
      const conversations = [...opened.conversations(opened.findRun('official').id, 'completed')];
      const labels = [...opened.analysis.labels(opened.findRun('analysis-1').id)];
      expect(opened.analysis.studyNames('official')).toEqual(['analysis-1']);
      const turns = conversations.reduce((sum, record) => sum + record.turns.length, 0);
      expect(turns).toBeGreaterThan(0);
      expect(labels).toHaveLength(turns);
      // Real models' words carry no simulated marks: a simulated judge without error names nothing.
      expect(labels.every((label) => label.labels !== null && (label.labels.role === 'persuadee' || label.labels.techniques.length === 0))).toBe(true);
    } finally {
      opened.close();
    }
  }, 120_000);
});
