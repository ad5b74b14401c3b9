import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredDriftProbe, StoredTurnLabels } from '../../studies/analysis/analysis-results.js';
import { ResultStore } from '../result-store.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-analysis-table-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const persuaderTurn = (conversationId: string, turn: number, judge: string, techniques: string[]): StoredTurnLabels => ({
  conversationId,
  turn,
  judge,
  role: 'persuader',
  labels: { role: 'persuader', techniques, unethical: [], refused: false, leftRole: false },
  problem: null,
  attempts: 1,
  raw: JSON.stringify({ techniques, unethical: [], refused: false, leftRole: false }),
  callHash: `hash-${conversationId}-${turn}-${judge}`,
});

const unreadTurn: StoredTurnLabels = {
  conversationId: 'c1',
  turn: 2,
  judge: 'sim/judge',
  role: 'persuadee',
  labels: null,
  problem: 'the reply is not one JSON object',
  attempts: 3,
  raw: 'I think it stayed in role.',
  callHash: 'hash-c1-2',
};

describe('AnalysisTable', () => {
  it('keeps labels and probes across reopening, per study, in conversation, turn and judge order', () => {
    const path = join(folder, 'pmiyc.db');
    const store = ResultStore.open(path);
    const about = { seed: 0, packageVersion: '0.0.0' };
    store.createRun({ name: 'run-1', ...about, config: { command: 'run' } });
    const first = store.createRun({ name: 'analysis-1', ...about, config: { command: 'analyze', tournamentRun: 'run-1' } });
    const second = store.createRun({ name: 'analysis-2', ...about, config: { command: 'analyze', tournamentRun: 'run-1' } });
    const later = persuaderTurn('c1', 3, 'sim/judge', ['logos']);
    const earlier = persuaderTurn('c1', 1, 'sim/judge', ['pathos', 'ethos']);
    const otherJudge = persuaderTurn('c1', 1, 'openai/gpt-4o', []);
    store.analysis.saveLabels(first.id, { ...later, labels: { role: 'persuader', techniques: ['pathos'], unethical: [], refused: true, leftRole: false } });
    for (const labels of [later, unreadTurn, earlier, otherJudge]) store.analysis.saveLabels(first.id, labels);
    store.analysis.saveLabels(second.id, persuaderTurn('c9', 1, 'sim/judge', ['logos']));
    const probe: StoredDriftProbe = {
      conversationId: 'c1',
      model: 'sim/eloquent',
      score: 4,
      attempts: 1,
      raw: '<support_ranking>Support</support_ranking>',
      callHash: 'h',
    };
    store.analysis.saveProbe(first.id, probe);
    store.close();

    const reopened = ResultStore.openExisting(path);
    try {
      const { analysis } = reopened;
      expect([...analysis.labels(first.id)]).toEqual([otherJudge, earlier, unreadTurn, later]);
      expect(analysis.labelsOf(first.id, 'c1')).toHaveLength(4);
      expect(analysis.countLabels(second.id)).toBe(1);
      expect(analysis.hasLabels(first.id, { conversationId: 'c1', turn: 2, judge: 'sim/judge' })).toBe(true);
      expect(analysis.hasLabels(second.id, { conversationId: 'c1', turn: 2, judge: 'sim/judge' })).toBe(false);
      expect([...analysis.probes(first.id)]).toEqual([probe]);
      expect(analysis.hasProbe(second.id, 'c1')).toBe(false);
      const tagged = (tag: string) => {
        const database = new Database(path, { readonly: true });
        try {
          return database.prepare('SELECT conversation_id, turn_index, judge FROM turn_label_tags WHERE run_id = ? AND tag = ?').raw().all(first.id, tag);
        } finally {
          database.close();
        }
      };
      expect(tagged('technique:pathos')).toEqual([['c1', 1, 'sim/judge']]);
      expect(tagged('technique:logos')).toEqual([['c1', 3, 'sim/judge']]);
      expect(tagged('refused')).toEqual([]);
      expect(analysis.studyNames('run-1')).toEqual(['analysis-1', 'analysis-2']);
      expect(analysis.studyNames('run-2')).toEqual([]);
      expect(reopened.listRuns().find((run) => run.name === 'analysis-1')).toMatchObject({ kind: 'analyze', studyItems: 5 });
    } finally {
      reopened.close();
    }
  });

  it("stores a conversation's labels in one transaction: all of them, or none when one cannot be written", () => {
    const store = ResultStore.open(join(folder, 'pmiyc.db'));
    try {
      const about = { seed: 0, packageVersion: '0.0.0' };
      const study = store.createRun({ name: 'analysis-1', ...about, config: { command: 'analyze', tournamentRun: 'run-1' } });
      const turns = [persuaderTurn('c1', 1, 'sim/judge', ['logos']), unreadTurn, persuaderTurn('c1', 3, 'sim/judge', [])];
      store.analysis.saveConversationLabels(study.id, turns);
      expect([...store.analysis.labels(study.id)]).toEqual(turns);
      const broken = { ...persuaderTurn('c2', 2, 'sim/judge', []), raw: null as unknown as string };
      expect(() => store.analysis.saveConversationLabels(study.id, [persuaderTurn('c2', 1, 'sim/judge', []), broken])).toThrow();
      expect(store.analysis.labelsOf(study.id, 'c2')).toEqual([]);
    } finally {
      store.close();
    }
  });
});
