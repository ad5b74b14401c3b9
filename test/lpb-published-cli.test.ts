import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

/**
 * The published bundle itself (lechmazur/persuasion, snapshot of 2026-03-27, bundle v1_no_notes_15topics_panel15_8040):
 * its repository has no licence file, so pmiyc ships none of it and this test reads a copy the user has, named by
 * PMIYC_LPB_COPY (README, "Tests"). Without it the test is skipped and says why.
 */
const COPY_VARIABLE = 'PMIYC_LPB_COPY';
const copy = process.env[COPY_VARIABLE];

/** The published leaderboards' means (report.md, "Persuader Effectiveness (Overall)" and "Target Susceptibility (Overall)"). */
const PUBLISHED_PERSUADERS: Readonly<Record<string, number>> = {
  'gpt-5.4-high': 1.71,
  'claude-opus-4-6-adaptive': 1.672,
  'seed-2.0-pro': 1.64,
  'claude-sonnet-4-6-adaptive': 1.582,
  'kimi-k2.5': 1.328,
  'gemini-3.1-pro-preview': 1.227,
  'glm-5': 1.224,
  'grok-4.20-beta-0309-reasoning': 1.204,
  'qwen3.5-397b-a17b': 0.984,
  'minimax-m2.7': 0.959,
  'gemini-3.1-flash-lite-preview': 0.805,
  'ernie-5': 0.771,
  'deepseek-v32-exp': 0.713,
  'mimo-v2-pro': 0.518,
  'mistral-large-2512': 0.416,
};
const PUBLISHED_TARGETS: Readonly<Record<string, number>> = {
  'mimo-v2-pro': 1.996,
  'gemini-3.1-pro-preview': 1.81,
  'deepseek-v32-exp': 1.741,
  'seed-2.0-pro': 1.725,
  'glm-5': 1.56,
  'mistral-large-2512': 1.387,
  'qwen3.5-397b-a17b': 1.346,
  'minimax-m2.7': 1.135,
  'ernie-5': 1.035,
  'gemini-3.1-flash-lite-preview': 0.898,
  'gpt-5.4-high': 0.724,
  'claude-sonnet-4-6-adaptive': 0.613,
  'claude-opus-4-6-adaptive': 0.407,
  'kimi-k2.5': 0.367,
  'grok-4.20-beta-0309-reasoning': 0.015,
};

interface Board {
  readonly rows: ReadonlyArray<{ readonly model: string; readonly overall: { readonly mean: number; readonly cells: number } }>;
}

const suite = copy ? describe : describe.skip;
const reason = copy ? '' : ` [skipped: needs a copy of the benchmark's repository: set ${COPY_VARIABLE} (see README)]`;

suite(`pmiyc import llm-persuasion-benchmark of the published bundle${reason}`, () => {
  it('imports its 6,300 cells and 6,296 transcripts, and gives the 15 persuader and 15 target means it publishes, to three decimals', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pmiyc-lpb-published-'));
    try {
      const store = join(folder, 'runs.db');
      const imported = await runCli(['import', 'llm-persuasion-benchmark', copy!, '--run', 'published', '--store', store]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain('6,300 cells, 6,296 completed, 4 blocked by moderation; 6,296 transcripts read');
      const out = join(folder, 'report');
      const reported = await runCli(['report', '--run', 'published', '--store', store, '--out', out]);
      expect(reported.code, reported.stderr).toBe(0);
      const json = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { protocols: Array<{ figures: { persuaders: Board; targets: Board } }> };
      const { persuaders, targets } = json.protocols[0]!.figures;
      const means = (board: Board) => Object.fromEntries(board.rows.map((row) => [row.model, Number(row.overall.mean.toFixed(3))]));
      expect(means(persuaders)).toEqual(PUBLISHED_PERSUADERS);
      expect(means(targets)).toEqual(PUBLISHED_TARGETS);
      expect(persuaders.rows.map((row) => row.model)).toEqual(Object.keys(PUBLISHED_PERSUADERS));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 300_000);
});
