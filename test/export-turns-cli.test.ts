import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationRecord } from '../src/domain/conversation-record.js';
import { readTechniqueMark } from '../src/models/sim/sim-techniques.js';
import { ResultStore } from '../src/store/result-store.js';
import { runCli } from './cli-helpers.js';
import { addAnalysisStudy } from './support/analysis-study.js';
import { handRecord } from './support/hand-records.js';

let folder: string;
let storePath: string;
const PERSUADERS = 'sim/tech-a?technique.logos=0.6:0.3&technique.pathos=0.4:0.1,sim/tech-b?technique.ethos=0.5:0.2';

type Row = Record<string, string>;
const rowsOf = (text: string): Row[] => parse(text, { columns: true }) as Row[];
const exportOf = async (...args: string[]) => {
  const result = await runCli(['export', '--store', storePath, ...args], { cwd: folder });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
};

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-export-turns-'));
  storePath = join(folder, 'turns.db');
  const args = ['run', '--persuaders', PERSUADERS, '--persuadees', 'sim/mid?susceptibility=0.5', '--limit', '3', '--setting', 'multi', '--turns', '5'];
  const run = await runCli([...args, '--store', storePath, '--run', 'tech'], { cwd: folder });
  expect(run.code, run.stderr).toBe(0);
  const store = ResultStore.openExisting(storePath);
  addAnalysisStudy(store, { name: 'tech-analysis', tournamentRun: 'tech', judges: ['sim/judge', 'sim/second'] });
  // A run that recorded no models, whose turns carry tokens and cost (one re-sample on the first argument).
  const bare = store.createRun({ name: 'bare', seed: 1, packageVersion: 'test', config: {} });
  const record = handRecord({
    persuader: 'A',
    persuadee: 'B',
    claim: 'c1',
    turns: 3,
    persuadeeScores: [2],
    final: 4,
    argumentResamples: 1,
    usage: { inputTokens: 100, outputTokens: 20, costUsd: 0.5 },
    message: (index) => `line one of ${index}\nline two, "quoted"`,
  });
  store.saveConversation(bare.id, { ...record, run: 'bare' });
  store.setRunStatus(bare.id, 'completed');
  store.close();
}, 120_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('pmiyc export: the CSV columns for analysis', () => {
  it("names each agent's base model, variant, provider and model id as the run recorded them", async () => {
    const rows = rowsOf(await exportOf('--run', 'tech', '--format', 'csv'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row['persuaderBaseModel']).toBe(row['persuader']);
      expect(row['persuaderVariant']).toBe('default');
      expect(row['persuaderProvider']).toBe('sim');
      expect(row['persuadeeProvider']).toBe('sim');
      // A simulated agent's model id is its name after "sim/".
      expect(row['persuaderModelId']).toBe(row['persuader']!.slice('sim/'.length));
      expect(row['persuadeeModelId']).toBe(row['persuadee']!.slice('sim/'.length));
    }
    // A run that recorded no models leaves provider and model id empty rather than guessing.
    const [bare] = rowsOf(await exportOf('--run', 'bare', '--format', 'csv'));
    expect([bare!['persuaderProvider'], bare!['persuaderModelId'], bare!['persuaderBaseModel']]).toEqual(['', '', 'A']);
  });

  it("writes one row per turn with its score and the first judge's technique tags from the latest analysis study", async () => {
    const records = (await exportOf('--run', 'tech', '--format', 'jsonl'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ConversationRecord);
    const rows = rowsOf(await exportOf('--run', 'tech', '--format', 'turns-csv'));
    expect(rows).toHaveLength(records.reduce((total, record) => total + record.turns.length, 0));
    const byTurn = new Map(rows.map((row) => [`${row['conversationId']} ${row['turn']}`, row]));
    let tagged = 0;
    for (const record of records) {
      for (const turn of record.turns) {
        const row = byTurn.get(`${record.conversationId} ${turn.index}`)!;
        expect(row['role']).toBe(turn.role);
        expect(row['score']).toBe(String(turn.score));
        expect(row['message']).toBe(turn.message);
        expect(row['agent']).toBe(turn.role === 'persuader' ? record.persuader : record.persuadee);
        expect(row['analysis']).toBe('tech-analysis');
        expect(row['judge']).toBe('sim/judge');
        expect(row['labelled']).toBe('true');
        // The simulated judge reads exactly the techniques the simulated persuader marked.
        const marked = turn.role === 'persuader' ? (readTechniqueMark(turn.message) ?? []).map((technique) => technique.id) : [];
        expect(row['techniques']!.split(';').filter(Boolean).sort()).toEqual([...marked].sort());
        if (marked.length > 0) tagged += 1;
      }
    }
    expect(tagged).toBeGreaterThan(0);
  });

  it('sums tokens and cost over every attempt of a turn, and leaves the tag columns empty without an analysis study', async () => {
    const rows = rowsOf(await exportOf('--run', 'bare', '--format', 'turns-csv'));
    expect(rows.map((row) => row['turn'])).toEqual(['1', '2', '3']);
    const argument = rows[1]!;
    expect([argument['attempts'], argument['inputTokens'], argument['outputTokens'], argument['costUsd']]).toEqual(['2', '200', '40', '1']);
    expect(rows[0]!['inputTokens']).toBe('100');
    expect(argument['message']).toBe('line one of 2\nline two, "quoted"');
    for (const row of rows) expect([row['analysis'], row['labelled'], row['techniques']]).toEqual(['', '', '']);
  });

  it('refuses an unknown format with exit code 2 and the formats it has', async () => {
    const result = await runCli(['export', '--store', storePath, '--format', 'turns'], { cwd: folder });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('jsonl, csv, turns-csv');
  });
});
