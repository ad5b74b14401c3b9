import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handRecord } from '../../test/support/hand-records.js';
import { EXAMPLE_CLAIMS } from '../datasets/example-claims.js';
import { type ConversationRecord, toConversationRecord } from '../domain/conversation-record.js';
import { InputError } from '../domain/errors/input-error.js';
import { runConversation } from '../engine/run-conversation.js';
import { SimulatedAgent } from '../models/sim/simulated-agent.js';
import { PMIYC_APPLICATION_ID, SCHEMA_VERSION } from './migrations.js';
import { ResultStore } from './result-store.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-store-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

async function recordFor(claimIndex: number, run = 'r') {
  const spec = { claim: EXAMPLE_CLAIMS[claimIndex]!, persuaderModel: 'sim/a', persuadeeModel: 'sim/b', turns: 3, repetition: 0, runSeed: 1 };
  const outcome = await runConversation({ spec, persuader: new SimulatedAgent('sim/a'), persuadee: new SimulatedAgent('sim/b') });
  return toConversationRecord(run, spec, outcome, { persuader: true, persuadee: true });
}

describe('ResultStore', () => {
  it('keeps runs and conversations across reopening, and streams them back intact', async () => {
    const path = join(folder, 'pmiyc.db');
    const store = ResultStore.open(path);
    const run = store.createRun({ name: 'r', createdAt: '2026-01-01T00:00:00Z', seed: 1, packageVersion: '0.0.0', config: { models: ['sim/a'] } });
    const records = [await recordFor(0), await recordFor(1), await recordFor(12)];
    for (const record of records) store.saveConversation(run.id, record);
    store.close();

    const reopened = ResultStore.openExisting(path);
    expect(reopened.findRun()).toMatchObject({ name: 'r', seed: 1, storedConfig: { models: ['sim/a'] } });
    expect([...reopened.conversations(run.id)]).toEqual(records);
    expect(reopened.countConversations(run.id)).toBe(3);
    reopened.close();
  });

  it("reads each conversation's scores from its columns, as its record has them and in the order of its records", () => {
    const store = ResultStore.open(join(folder, 'scores.db'));
    const run = store.createRun({ name: 'r', createdAt: 'now', seed: 1, packageVersion: '0', config: {} });
    const records = [
      handRecord({ persuader: 'b', persuadee: 'a', claim: 'claim 2', turns: 3, persuadeeScores: [2], final: 4 }),
      handRecord({ persuader: 'a', persuadee: 'b', claim: 'claim 1', turns: 5, persuadeeScores: [3, 3], final: 1 }),
      handRecord({
        persuader: 'a',
        persuadee: 'b',
        claim: 'claim 7',
        domain: 'misinformation',
        question: 'Is it so?',
        turns: 3,
        persuadeeScores: [1],
        final: 1,
      }),
      handRecord({ persuader: 'a', persuadee: 'a', claim: 'claim 1', turns: 5, persuadeeScores: [4], failure: { reason: 'format', attempts: 3 } }),
      handRecord({ persuader: 'a', persuadee: 'b', claim: 'claim 2', turns: 3, persuadeeScores: [5], final: 5 }),
    ];
    for (const record of records) store.saveConversation(run.id, record);
    const scoreOf = ({ domain, setting, status, persuader, persuadee, claim, question, normalizedChange, failureReason }: ConversationRecord) => ({
      domain,
      setting,
      status,
      persuader,
      persuadee,
      claim,
      question,
      normalizedChange,
      failureReason,
    });
    const expected = [...store.conversations(run.id)].map(scoreOf);
    expect(expected.map((score) => score.status)).toContain('failed');
    expect(expected.map((score) => score.failureReason)).toContain('format');
    expect(expected.some((score) => score.question === 'Is it so?')).toBe(true);
    expect([...store.conversationScores(run.id)]).toEqual(expected);
    // A wave's claims only: the same scores as the whole run's, for those claims.
    const wave = [...store.conversations(run.id)]
      .filter((record) => record.claim !== 'claim 1')
      .map((record) => ({ index: record.claimIndex, domain: record.domain, claim: record.claim, ...(record.question ? { question: record.question } : {}) }));
    const onlyWave = expected.filter((score) => score.claim !== 'claim 1');
    expect(onlyWave.length).toBeGreaterThan(0);
    const waveScores = [...store.claimScores(run.id, [...new Map(wave.map((claim) => [claim.index, claim])).values()])];
    expect(waveScores).toHaveLength(onlyWave.length);
    expect(waveScores).toEqual(expect.arrayContaining(onlyWave));
    expect([...store.claimScores(run.id, wave.slice(0, 1))].length).toBeLessThan(expected.length);
    store.close();
  });

  it('replaces a conversation saved twice instead of duplicating it', async () => {
    const store = ResultStore.open(join(folder, 'a.db'));
    const run = store.createRun({ name: 'r', createdAt: 'now', seed: 1, packageVersion: '0', config: {} });
    const record = await recordFor(0);
    store.saveConversation(run.id, record);
    store.saveConversation(run.id, record);
    expect(store.countConversations(run.id)).toBe(1);
    store.close();
  });

  it('names runs prefix-1, prefix-2, ... and finds the latest', () => {
    const store = ResultStore.open(join(folder, 'b.db'));
    const names = [1, 2, 3].map(() => {
      const name = store.nextRunName('demo');
      store.createRun({ name, createdAt: 'now', seed: 0, packageVersion: '0', config: {} });
      return name;
    });
    expect(names).toEqual(['demo-1', 'demo-2', 'demo-3']);
    expect(store.findRun().name).toBe('demo-3');
    expect(() => store.findRun('nope')).toThrow('has no run named "nope": it has demo-1, demo-2, demo-3');
    store.close();
  });

  it('says what to do when there is no store or no run', () => {
    expect(() => ResultStore.openExisting(join(folder, 'missing.db'))).toThrow(InputError);
    const store = ResultStore.open(join(folder, 'empty.db'));
    expect(() => store.findRun()).toThrow('has no runs yet');
    store.close();
  });

  it('refuses a store written by a newer pmiyc, with a one-line input error', () => {
    const path = join(folder, 'future.db');
    const database = new Database(path);
    database.pragma(`application_id = ${PMIYC_APPLICATION_ID}`);
    database.pragma('user_version = 999');
    database.close();
    for (const open of [ResultStore.open, ResultStore.openExisting, ResultStore.openReadOnly]) {
      expect(() => open(path)).toThrow(InputError);
      expect(() => open(path)).toThrow(`${path} was written by a newer pmiyc (store schema 999, this one knows ${SCHEMA_VERSION}): upgrade pmiyc`);
    }
  });
});
