import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handRecord } from '../../../test/support/hand-records.js';
import { InputError } from '../../domain/errors/input-error.js';
import { ResultStore } from '../../store/result-store.js';
import type { CliContext } from '../terminal.js';
import { showCommand } from './show.js';

const completed = handRecord({ persuader: 'A', persuadee: 'B', claim: 'c1', turns: 5, persuadeeScores: [2, 3], final: 4, persuaderStance: 4 });
const failed = handRecord({
  persuader: 'B',
  persuadee: 'A',
  claim: 'c2',
  turns: 5,
  persuadeeScores: [3],
  failure: { reason: 'format', attempts: 3 },
  persuaderStance: 2,
});
/** A failure as a store written before issue 28 kept it: the server's escape sequences in its details. */
const ESCAPES = '\u001b]0;pwned\u0007\u001b[2J\u001b]52;c;aGVsbG8=\u0007';
const escaped = (() => {
  const record = handRecord({ persuader: 'A', persuadee: 'B', claim: 'c3', turns: 5, persuadeeScores: [3], failure: { reason: 'api', attempts: 1 } });
  return {
    ...record,
    failureDetail: `A: HTTP 500: upstream failed ${ESCAPES}`,
    failedAttempts: record.failedAttempts.map((attempt) => ({ ...attempt, detail: `A: HTTP 500: upstream failed ${ESCAPES}` })),
  };
})();

let folder: string;
let store: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-show-'));
  store = join(folder, 'show.db');
  const opened = ResultStore.open(store);
  for (const name of ['first', 'second']) {
    const run = opened.createRun({ name, seed: 1, packageVersion: 'test', config: {} });
    opened.saveConversation(run.id, { ...completed, run: name });
    if (name === 'first') opened.saveConversation(run.id, { ...failed, run: name });
    if (name === 'first') opened.saveConversation(run.id, { ...escaped, run: name });
  }
  opened.close();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function show(id: string, options: { run?: string; json?: boolean } = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => {
    out += chunk;
  });
  stderr.on('data', (chunk) => {
    err += chunk;
  });
  const context = { stdout, stderr, env: {}, now: () => new Date(), packageVersion: 'test' } as unknown as CliContext;
  const code = showCommand(id, { store, json: options.json ?? false, color: false, ...(options.run ? { run: options.run } : {}) }, context);
  return { code, out, err };
}

describe('pmiyc show', () => {
  it('prints a conversation turn by turn with both agents scores and how it ended, from the latest run that has it', () => {
    const { code, out, err } = show(completed.conversationId);
    expect(code).toBe(0);
    expect(out).toContain(`${completed.conversationId} · run second · subjective · multi-turn`);
    expect(out).toMatch(/1 {2}persuadee · opening · Oppose \(2\)/);
    expect(out).toMatch(/persuader · argument · own rating \w+ \(\d\), not shown to the persuadee/);
    expect(out).toContain('Completed: Oppose (2) -> Support (4)');
    expect(err).toBe(`pmiyc: showing run second; the same conversation id is also in first (choose with --run)\n`);
  });

  it('shows a failed conversation with its reason and every failed attempt', () => {
    const { out } = show(failed.conversationId);
    expect(out).toContain('Failed at turn');
    expect(out).toContain(': format.');
    expect(out.match(/attempt \d: format/g)).toHaveLength(3);
  });

  it("prints an older store's failure details without the server's escape sequences", () => {
    const { out } = show(escaped.conversationId);
    expect(out).toContain('api. A: HTTP 500: upstream failed \n');
    expect(out).toContain('attempt 1: api (A: HTTP 500: upstream failed )');
    expect(out).not.toContain('\u001b');
    expect(out).not.toContain('pwned');
  });

  it('takes the run asked for, and prints the export record with --json', () => {
    const { out, err } = show(completed.conversationId, { run: 'first', json: true });
    expect(err).toBe('');
    expect(JSON.parse(out)).toMatchObject({ run: 'first', conversationId: completed.conversationId, status: 'completed' });
  });

  it('says so, with exit 2, when the id or the run is not there', () => {
    expect(() => show('no-such-id')).toThrow(InputError);
    expect(() => show(failed.conversationId, { run: 'second' })).toThrow(`conversation ${failed.conversationId} is not in run second; it is in first`);
  });
});
