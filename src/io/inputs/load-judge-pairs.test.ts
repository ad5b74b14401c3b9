import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { ANTHROPIC_PAIRS, type StoredJudgeDesign } from '../../studies/judge/judge-design.js';
import type { DataAccess } from './data-access.js';
import { loadJudgePairs } from './load-judge-pairs.js';

const REMEDY = 'or judge your own pairs with --pairs FILE (JSON lines: claim, a, b, better, difference)';
const DESIGN: StoredJudgeDesign = {
  judges: ['sim/a'],
  pairs: { source: ANTHROPIC_PAIRS },
  sampling: { temperature: 0, maxOutputTokens: 100, maxAttempts: 1 },
};

/** Data whose Anthropic ratings file fails with `error`. */
const failingWith = (error: Error): DataAccess => ({
  warn: () => undefined,
  files: () => ({
    location: '/data',
    read: async () => {
      throw error;
    },
  }),
});

describe('loadJudgePairs', () => {
  it('adds the --pairs remedy to a ratings file it cannot read, and keeps it a DatasetError naming the file', async () => {
    const cause = new DatasetError({ file: '/data/anthropic-persuasion/persuasion_data.csv', line: 3, column: 2 }, 'not valid UTF-8: save the file as UTF-8');
    const error = await loadJudgePairs(DESIGN, 1, failingWith(cause)).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(DatasetError);
    expect(error).toMatchObject({
      message: `/data/anthropic-persuasion/persuasion_data.csv:3: not valid UTF-8: save the file as UTF-8; ${REMEDY}`,
      file: '/data/anthropic-persuasion/persuasion_data.csv',
      line: 3,
      column: 2,
      cause,
    });
  });

  it('adds the remedy to a plain InputError (a download that failed) and leaves it one', async () => {
    const error = await loadJudgePairs(DESIGN, 1, failingWith(new InputError('could not download it'))).catch((thrown: unknown) => thrown);
    expect(error).not.toBeInstanceOf(DatasetError);
    expect(error).toMatchObject({ kind: 'input', message: `could not download it; ${REMEDY}` });
  });
});
