import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAnalysisStudy } from '../../../test/support/analysis-study.js';
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

function show(id: string, options: { run?: string; json?: boolean; analysis?: string } = {}, path = store) {
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
  const code = showCommand(
    id,
    {
      store: path,
      json: options.json ?? false,
      color: false,
      ...(options.run ? { run: options.run } : {}),
      ...(options.analysis ? { analysis: options.analysis } : {}),
    },
    context,
  );
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

describe('pmiyc show with an analysis study', () => {
  let labelledStore: string;
  beforeAll(() => {
    labelledStore = join(folder, 'labelled.db');
    const opened = ResultStore.open(labelledStore);
    const run = opened.createRun({ name: 'tour', seed: 1, packageVersion: 'test', config: {} });
    opened.saveConversation(run.id, { ...completed, run: 'tour' });
    opened.createRun({ name: 'plain', seed: 1, packageVersion: 'test', config: {} });
    addAnalysisStudy(opened, {
      name: 'first-look',
      tournamentRun: 'tour',
      judges: ['sim/judge'],
      labelsOf: (_record, turn) =>
        turn.role === 'persuader'
          ? { role: 'persuader', techniques: ['ethos'], unethical: [], refused: false, leftRole: false }
          : { role: 'persuadee', leftRole: false },
    });
    addAnalysisStudy(opened, {
      name: 'second-look',
      tournamentRun: 'tour',
      judges: ['sim/judge', 'openai/gpt-4o'],
      problem: `no JSON object ${ESCAPES}`,
      labelsOf: (_record, turn, judge) => {
        if (judge === 'openai/gpt-4o' && turn.index === 2) return undefined;
        if (turn.role === 'persuadee') return { role: 'persuadee', leftRole: turn.index === 3 };
        return turn.index === 2
          ? { role: 'persuader', techniques: ['logos', 'pathos'], unethical: ['deception'], refused: false, leftRole: false }
          : { role: 'persuader', techniques: [], unethical: [], refused: true, leftRole: false };
      },
    });
    // A conversation the studies never labelled (as one left out of a study's sample).
    opened.saveConversation(run.id, { ...failed, run: 'tour' });
    opened.close();
  });

  it("prints each turn's tags from the latest study under it, each judge on its line, and says which study and judges", () => {
    const { code, out } = show(completed.conversationId, {}, labelledStore);
    expect(code).toBe(0);
    expect(out).toContain(
      "Tags from analysis study second-look (taxonomy rhetoric), judge sim/judge [simulated]; also judges openai/gpt-4o (each judge's tags on its own line). A judge's labels are its reading, not ground truth.",
    );
    const afterTurn = (index: number) => `${out.split(new RegExp(`\\n {1,2}${index} {2}`))[1]!.split('\n\n')[0]!}\n`;
    expect(afterTurn(2)).toContain('     tags, sim/judge [simulated]: Logos (logos), Pathos (pathos) · unethical: Deception (deception)\n');
    // The judge's reason, as a store might hold a server's words, printed without its escape sequences.
    expect(afterTurn(2)).toContain('     tags, openai/gpt-4o: not labelled: no JSON object \n');
    expect(out).not.toContain('\u001b');
    expect(afterTurn(3)).toContain('     tags, sim/judge [simulated]: left its role\n');
    expect(afterTurn(4)).toContain('     tags, sim/judge [simulated]: refused\n');
    expect(afterTurn(1)).toContain('     tags, openai/gpt-4o: in role\n');
  });

  it('takes the study asked for with --analysis, and refuses one the run does not have', () => {
    const { out } = show(completed.conversationId, { analysis: 'first-look' }, labelledStore);
    expect(out).toContain('Tags from analysis study first-look (taxonomy rhetoric), judge sim/judge [simulated]. A judge');
    expect(out).toContain('     tags: Ethos (ethos)\n');
    expect(() => show(completed.conversationId, { analysis: 'nope' }, labelledStore)).toThrow(
      'nope is not an analysis study of run tour: its studies are first-look, second-look',
    );
    // A name that is a run, but of another kind, is said to be one.
    expect(() => show(completed.conversationId, { analysis: 'plain' }, labelledStore)).toThrow(
      'plain is a tournament run, not an analysis study: its studies are first-look, second-look',
    );
  });

  it('says so for a conversation the study did not label', () => {
    const { out } = show(failed.conversationId, {}, labelledStore);
    expect(out).toContain('Analysis study second-look has no label of this conversation (it analysed a sample, or has not reached it yet).');
    expect(out).not.toContain('tags');
  });

  it('prints no tags for a run without analysis', () => {
    const { out } = show(completed.conversationId);
    expect(out).not.toContain('tags');
  });
});
