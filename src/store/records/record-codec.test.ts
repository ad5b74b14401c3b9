import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { officialRecord } from '../../../test/support/official-results.js';
import { parseOfficialResults } from '../../datasets/official-results.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { toImportedRecord } from '../../studies/tournament/official-conversation.js';
import { decodeRecord, encodeRecord } from './record-codec.js';

const ECHO = 'Completely Oppose / Oppose / Neutral / Support / Completely Support';

/** An imported conversation whose opening echoes the label list: its initial score is disputed. */
function importedRecord(): ConversationRecord {
  const file = officialRecord({
    i: 0,
    persuader: 'gpt',
    persuadee: 'llama',
    claim: 'Zoos should close',
    persuadeeScores: [1, 2, 3],
    rankingTexts: { 0: ECHO },
  });
  const [record] = parseOfficialResults('results.json', JSON.stringify([file])).records;
  return toImportedRecord(record!, {
    run: 'official',
    conversationId: 'c1',
    claim: { index: 0, domain: 'subjective', claim: 'Zoos should close', origin: 'imported', license: 'unknown (imported)' },
    setting: 'multi',
    turnsPlanned: 5,
    repetition: 0,
    persuaderStance: null,
    file: '/data/results.json',
    sha256: 'cd'.repeat(32),
    labelMatch: 'strict',
  });
}

/** The record as pmiyc 0.1.0 stored it: 0 for every seed, and no `disputedScores` in its import block. */
function asStoredBefore(record: ConversationRecord): ConversationRecord {
  const { disputedScores: _left, ...imported } = record.imported!;
  const turns = record.turns.map((turn) => ({ ...turn, attempts: turn.attempts.map((attempt) => ({ ...attempt, seed: 0 })) }));
  return { ...record, runSeed: 0, turns, imported: imported as ConversationRecord['imported'] };
}

/** The JSON inside a compact stored record. */
const storedJson = (stored: Buffer) =>
  JSON.parse(inflateRawSync(stored.subarray(1)).toString('utf8')) as { runSeed: unknown; turns: Array<{ attempts: Array<{ seed: unknown }> }> };

describe('decodeRecord', () => {
  it('gives an imported record back with its disputed scores and no seeds, stored with 0 seeds as pmiyc 0.1.0 reads them', () => {
    const record = importedRecord();
    expect(record.imported?.disputedScores).toEqual(['initial']);
    expect(record.runSeed).toBeNull();
    expect(record.turns.flatMap((turn) => turn.attempts.map((attempt) => attempt.seed))).toEqual([null, null, null, null, null]);
    const stored = encodeRecord(record);
    expect(decodeRecord(stored)).toEqual(record);
    expect(storedJson(stored).runSeed).toBe(0);
    expect(new Set(storedJson(stored).turns.flatMap((turn) => turn.attempts.map((attempt) => attempt.seed)))).toEqual(new Set([0]));
  });

  it('reads a record imported before: no seeds, and its disputed scores derived from its turns, compact or as JSON text', () => {
    const record = importedRecord();
    const before = asStoredBefore(record);
    expect(decodeRecord(encodeRecord(before))).toEqual(record);
    expect(decodeRecord(JSON.stringify(before))).toEqual(record);
  });
});
