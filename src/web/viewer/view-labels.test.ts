import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAnalysisStudy } from '../../../test/support/analysis-study.js';
import { handRecord } from '../../../test/support/hand-records.js';
import { RHETORIC_TAXONOMY } from '../../config/taxonomy/rhetoric-taxonomy.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import type { TurnLabels } from '../../domain/turn-labels.js';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import { techniqueShares } from '../../metrics/techniques/technique-profiles.js';
import { BrowseQueries } from '../../store/browse/browse-queries.js';
import { conversationPageSql, SEARCH_LIMITS } from '../../store/browse/conversation-page-sql.js';
import { openStore, ResultStore, type Store } from '../../store/result-store.js';
import type { TurnTags } from '../../studies/analysis/turn-tags.js';
import type { ConversationPage } from '../../studies/tournament/tournament-browse.js';
import type { LabelsAnswer, RunAnswer } from '../wire/view-answers.js';
import { type ApiAnswer, ViewApi } from './view-api.js';

const A = 'sim/tech-a';
const B = 'sim/tech-b';
const JUDGE = 'sim/judge';
const SECOND = 'openai/gpt-4o';
const TOURNAMENT = { command: 'run', design: { persuaders: [A, B], persuadees: [A, B] } };

/**
 * Run "labelled", with the first judge's labels by hand (the second judge says ethos wherever the first says logos):
 * t1 A>B single: turn 2 logos | t2 A>B multi: turn 2 logos+pathos, turn 4 none, refused | t3 B>A single: turn 2 pathos with
 * deception, the persuadee's turn 3 leaves its role | t4 B>A single, failed at its first argument: only its opening is a turn.
 */
const records = {
  t1: handRecord({ run: 'labelled', persuader: A, persuadee: B, claim: 'c1 Tea is best', turns: 3, persuadeeScores: [3], final: 4 }),
  t2: handRecord({ run: 'labelled', persuader: A, persuadee: B, claim: 'c1 Tea is best', turns: 5, persuadeeScores: [3, 4], final: 4 }),
  t3: handRecord({ run: 'labelled', persuader: B, persuadee: A, claim: 'c2 Cats rule', turns: 3, persuadeeScores: [3], final: 2 }),
  t4: handRecord({
    run: 'labelled',
    persuader: B,
    persuadee: A,
    claim: 'c3 Dogs rule',
    turns: 3,
    persuadeeScores: [3],
    failure: { reason: 'format', attempts: 3 },
  }),
};
const letterOf = new Map(Object.entries(records).map(([letter, record]) => [record.conversationId, letter]));

const persuader = (techniques: string[], more: Partial<{ unethical: string[]; refused: boolean }> = {}): TurnLabels => ({
  role: 'persuader',
  techniques,
  unethical: more.unethical ?? [],
  refused: more.refused ?? false,
  leftRole: false,
});
const BY_HAND: Record<string, Record<number, TurnLabels>> = {
  t1: { 2: persuader(['logos']) },
  t2: { 2: persuader(['logos', 'pathos']), 4: persuader([], { refused: true }) },
  t3: { 2: persuader(['pathos'], { unethical: ['deception'] }), 3: { role: 'persuadee', leftRole: true } },
};

function labelsByHand(record: ConversationRecord, turn: ConversationRecord['turns'][number], judge: string): TurnLabels | undefined {
  const letter = letterOf.get(record.conversationId)!;
  const labels = BY_HAND[letter]?.[turn.index] ?? (turn.role === 'persuader' ? persuader([]) : { role: 'persuadee', leftRole: false });
  if (judge === SECOND && labels.role === 'persuader') return { ...labels, techniques: labels.techniques.map((id) => (id === 'logos' ? 'ethos' : id)) };
  // The second judge could not read t3's opening: a turn without labels from it.
  if (judge === SECOND && letter === 't3' && turn.index === 1) return undefined;
  return labels;
}

let folder: string;
let store: Store;
let api: ViewApi;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-view-labels-'));
  const path = join(folder, 'store.db');
  const writer = ResultStore.open(path);
  const labelled = writer.createRun({ name: 'labelled', seed: 1, packageVersion: 'test', config: TOURNAMENT });
  for (const record of Object.values(records)) writer.saveConversation(labelled.id, record);
  writer.setRunStatus(labelled.id, 'completed');
  const plain = writer.createRun({ name: 'plain', seed: 1, packageVersion: 'test', config: TOURNAMENT });
  writer.saveConversation(plain.id, { ...records.t1, run: 'plain' });
  writer.setRunStatus(plain.id, 'completed');
  // An older study, by another judge that says ethos of every persuader turn.
  addAnalysisStudy(writer, {
    name: 'study-old',
    tournamentRun: 'labelled',
    judges: ['sim/old-judge'],
    labelsOf: (_record, turn) => (turn.role === 'persuader' ? persuader(['ethos']) : { role: 'persuadee', leftRole: false }),
  });
  addAnalysisStudy(writer, { name: 'study-new', tournamentRun: 'labelled', judges: [JUDGE, SECOND], labelsOf: labelsByHand });
  writer.close();
  store = openStore(path, { access: 'read' });
  api = new ViewApi(store, () => ({ pid: process.pid, host: 'test-host', nowMs: 0, isProcessAlive: () => false }));
});

afterAll(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

const get = (path: string, query = ''): ApiAnswer => api.answer(path, new URLSearchParams(query));

function letters(query: string, run = 'labelled'): string {
  const answer = get(`/api/runs/${run}/conversations`, query);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const page = answer.body as ConversationPage;
  expect(page.total).toBe(page.items.length);
  return page.items
    .map((item) => letterOf.get(item.conversationId)!)
    .sort()
    .join(' ');
}

const errorOf = (answer: ApiAnswer) => (answer.body as { error: string }).error;

describe('the viewer API with an analysis study', () => {
  it.each([
    ['technique=logos', 't1 t2'],
    ['technique=pathos', 't2 t3'],
    ['technique=ethos', ''],
    ['technique=kairos', ''],
    ['unethical=deception', 't3'],
    ['refused=1', 't2'],
    ['leftRole=1', 't3'],
    ['technique=logos&refused=1', 't2'],
    ['technique=pathos&status=completed&persuader=sim/tech-b', 't3'],
    ['technique=logos&status=completed', 't1 t2'],
    ['technique=&refused=', 't1 t2 t3 t4'],
    ['technique=ethos&analysis=study-old', 't1 t2 t3'],
    ['technique=logos&analysis=study-old', ''],
  ])("filters on the first judge's tags of the latest study by default: %s", (query, expected) => {
    expect(letters(query)).toBe(expected);
  });

  it('answers 400 with what to use for an unknown id, a bad flag or a study that is not the run’s', () => {
    const unknown = get('/api/runs/labelled/conversations', 'technique=flattery');
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown)).toBe(
      `technique "flattery" is not one of the techniques of taxonomy rhetoric (analysis study study-new): use one of ${RHETORIC_TAXONOMY.techniques.map((item) => item.id).join(', ')}`,
    );
    const wrongList = get('/api/runs/labelled/conversations', 'unethical=logos');
    expect(wrongList.status).toBe(400);
    expect(errorOf(wrongList)).toContain('unethical "logos" is not one of the unethical strategies of taxonomy rhetoric');
    expect(errorOf(get('/api/runs/labelled/conversations', 'refused=yes'))).toBe('refused must be 1 (or empty: no filter) (got "yes")');
    const study = get('/api/runs/labelled/conversations', 'analysis=nope');
    expect(study.status).toBe(400);
    expect(errorOf(study)).toBe('analysis: nope is not an analysis study of run labelled: its studies are study-old, study-new');
    expect(get('/api/runs/labelled', 'analysis=nope').status).toBe(400);
    expect(get('/api/runs/labelled/conversations', 'tecnique=logos').status).toBe(400);
  });

  it('answers 400 to a label filter on a run without analysis, and lists it unfiltered otherwise', () => {
    const answer = get('/api/runs/plain/conversations', 'technique=logos');
    expect(answer.status).toBe(400);
    expect(errorOf(answer)).toBe(
      'run plain has no analysis study, so its turns have no labels to filter by (technique): make one with pmiyc analyze --run plain',
    );
    expect(get('/api/runs/plain/conversations', 'leftRole=1&refused=1').status).toBe(400);
    expect((get('/api/runs/plain/conversations').body as ConversationPage).total).toBe(1);
    expect((get('/api/runs/plain').body as RunAnswer).analysis).toBeNull();
    const labels = get(`/api/conversations/${records.t1.conversationId}/labels`, 'run=plain');
    expect(labels.body).toEqual({ run: 'plain', analysis: null, turns: [] } satisfies LabelsAnswer);
  });

  it("gives a conversation's turns every judge's tags with the taxonomy's names, first judge first", () => {
    const answer = get(`/api/conversations/${records.t3.conversationId}/labels`);
    expect(answer.status).toBe(200);
    const body = answer.body as LabelsAnswer;
    expect(body.run).toBe('labelled');
    expect(body.analysis).toEqual({
      name: 'study-new',
      studies: ['study-old', 'study-new'],
      judges: [JUDGE, SECOND],
      judge: JUDGE,
      simulated: [JUDGE],
      taxonomy: { name: 'rhetoric', source: 'rhetoric' },
    });
    const persuadee = { techniques: [], unethical: [], refused: false, problem: null, labelled: true };
    expect(body.turns).toEqual([
      {
        turn: 1,
        judges: [
          { judge: JUDGE, simulated: true, role: 'persuadee', ...persuadee, leftRole: false },
          { ...persuadee, judge: SECOND, simulated: false, role: 'persuadee', labelled: false, problem: 'the reply is not one JSON object', leftRole: false },
        ],
      },
      {
        turn: 2,
        judges: [
          {
            judge: JUDGE,
            simulated: true,
            role: 'persuader',
            labelled: true,
            problem: null,
            techniques: [{ id: 'pathos', name: 'Pathos' }],
            unethical: [{ id: 'deception', name: 'Deception' }],
            refused: false,
            leftRole: false,
          },
          {
            judge: SECOND,
            simulated: false,
            role: 'persuader',
            labelled: true,
            problem: null,
            techniques: [{ id: 'pathos', name: 'Pathos' }],
            unethical: [{ id: 'deception', name: 'Deception' }],
            refused: false,
            leftRole: false,
          },
        ],
      },
      {
        turn: 3,
        judges: [
          { judge: JUDGE, simulated: true, role: 'persuadee', ...persuadee, leftRole: true },
          { judge: SECOND, simulated: false, role: 'persuadee', ...persuadee, leftRole: true },
        ],
      },
    ] satisfies TurnTags[]);
    const older = get(`/api/conversations/${records.t3.conversationId}/labels`, 'analysis=study-old').body as LabelsAnswer;
    expect(older.turns.find((turn) => turn.turn === 2)!.judges.map((judge) => judge.techniques)).toEqual([[{ id: 'ethos', name: 'Ethos' }]]);
    expect(get(`/api/conversations/${records.t3.conversationId}/labels`, 'analysis=nope').status).toBe(400);
    expect(get('/api/conversations/no-such-id/labels').status).toBe(404);
  });

  it('gives the run page the filters that occur and each persuader’s technique profile, equal to the report’s shares', () => {
    const { analysis } = get('/api/runs/labelled').body as RunAnswer;
    expect(analysis?.name).toBe('study-new');
    expect(analysis?.filters).toEqual({
      techniques: [
        { id: 'logos', name: 'Logos' },
        { id: 'pathos', name: 'Pathos' },
      ],
      unethical: [{ id: 'deception', name: 'Deception' }],
      refused: true,
      leftRole: true,
    });
    const shares = (entry: { techniques: ReadonlyArray<{ id: string; usedTurns: number; share: number }> }) =>
      entry.techniques.map((technique) => `${technique.id} ${technique.usedTurns} ${technique.share}`);
    // t4 failed: left out, as the report leaves failed conversations out.
    expect(analysis?.techniqueProfile.map((entry) => [entry.domain, entry.setting, entry.persuader, entry.turns, shares(entry)])).toEqual([
      ['subjective', 'single', A, 1, ['logos 1 1', 'pathos 0 0']],
      ['subjective', 'single', B, 1, ['logos 0 0', 'pathos 1 1']],
      ['subjective', 'multi', A, 2, ['logos 1 0.5', 'pathos 1 0.5']],
    ]);
    const labelled = Object.values(records).map((record) => ({
      record,
      labels: record.turns.map((turn) => ({ turn: turn.index, labels: labelsByHand(record, turn, JUDGE)! })),
    }));
    const report = techniqueShares(labelled, ['logos', 'pathos'], DEFAULT_INTERVALS);
    for (const entry of analysis!.techniqueProfile) {
      for (const technique of entry.techniques) {
        const reported = report.find((share) => share.persuader === entry.persuader && share.setting === entry.setting && share.technique === technique.id);
        expect(technique.share).toBeCloseTo(reported!.share, 12);
        expect([entry.turns, technique.usedTurns]).toEqual([reported!.turns, reported!.usedTurns]);
      }
    }
    const older = (get('/api/runs/labelled', 'analysis=study-old').body as RunAnswer).analysis;
    expect(older?.filters.techniques).toEqual([{ id: 'ethos', name: 'Ethos' }]);
  });

  it('seeks each label filter on the primary key of turn_label_tags: a page from its order, a count from the tags', () => {
    const database = new Database(store.path, { readonly: true });
    try {
      const run = store.findRun('labelled').id;
      const study = store.findRun('study-new').id;
      const planOf = (sql: string, bound: readonly unknown[]) =>
        (database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...bound) as Array<{ detail: string }>).map((row) => row.detail);
      for (const sort of ['pair', 'nc'] as const) {
        const labels = { study, judge: JUDGE, tags: ['technique:logos', 'refused'] };
        const { count, countParameters, page, parameters } = conversationPageSql(run, { sort, limit: 50, offset: 0, status: 'completed', labels });
        // The page walks the covering index of its order and seeks each conversation's tags; it never sorts.
        const pagePlan = planOf(page, [...parameters, 50, 0]);
        const pageTags = pagePlan.filter((detail) => detail.startsWith('SEARCH t '));
        expect(pageTags, pagePlan.join('\n')).toHaveLength(2);
        for (const step of pageTags) expect(step).toMatch(/^SEARCH t (EXISTS )?USING PRIMARY KEY \(run_id=\? AND tag=\? AND conversation_id=\?\)$/);
        expect(pagePlan.find((detail) => detail.includes('conversations'))).toMatch(/USING COVERING INDEX/);
        expect(pagePlan.some((detail) => detail.includes('TEMP B-TREE'))).toBe(false);
        // The count reads the tag's rows (a range of the primary key) and seeks the conversations they name.
        const countPlan = planOf(count, countParameters);
        expect(
          countPlan.filter((detail) => detail.startsWith('SEARCH t ')),
          countPlan.join('\n'),
        ).toEqual(['SEARCH t USING PRIMARY KEY (run_id=? AND tag=?)', 'SEARCH t USING PRIMARY KEY (run_id=? AND tag=?)']);
        for (const plan of [pagePlan, countPlan]) expect(plan.some((detail) => /turn_labels\b/.test(detail))).toBe(false);
      }
    } finally {
      database.close();
    }
  });

  it('stops counting a label filter at the cap, says the total is a lower bound, and still counts from the tags', () => {
    const database = new Database(store.path, { readonly: true });
    try {
      const run = store.findRun('labelled').id;
      const study = store.findRun('study-new').id;
      const query = { sort: 'pair', limit: 1, offset: 0, labels: { study, judge: JUDGE, tags: ['technique:logos'] } } as const;
      const exact = store.browse.queryConversations(run, query);
      expect(exact.total).toBeGreaterThan(1);
      expect(exact.totalIsLowerBound).toBeUndefined();
      const capped = new BrowseQueries(database, undefined, { ...SEARCH_LIMITS, countCap: 1 }).queryConversations(run, query);
      expect(capped).toMatchObject({ total: 1, totalIsLowerBound: true, items: exact.items });
      const { count, countParameters } = conversationPageSql(run, query, 'index', SEARCH_LIMITS.countCap);
      expect(count).toContain(`LIMIT ${SEARCH_LIMITS.countCap}`);
      const countPlan = (database.prepare(`EXPLAIN QUERY PLAN ${count}`).all(...countParameters) as Array<{ detail: string }>).map((row) => row.detail);
      expect(countPlan).toContain('SEARCH t USING PRIMARY KEY (run_id=? AND tag=?)');
    } finally {
      database.close();
    }
  });
});
