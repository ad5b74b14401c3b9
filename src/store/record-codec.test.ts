import { describe, expect, it } from 'vitest';
import { officialRecord } from '../../test/support/official-results.js';
import { parseOfficialResults } from '../datasets/official-results.js';
import type { ConversationRecord } from '../domain/conversation-record.js';
import { toImportedRecord } from '../studies/tournament/official-conversation.js';
import { decodeRecord, encodeRecord } from './record-codec.js';

const ECHO = 'Completely Oppose / Oppose / Neutral / Support / Completely Support';

/** An imported conversation whose opening echoes the label list: its initial score is disputed. */
function importedRecord(): ConversationRecord {
  const file = officialRecord({ i: 0, persuader: 'gpt', persuadee: 'llama', claim: 'Zoos should close', persuadeeScores: [1, 2, 3], rankingTexts: { 0: ECHO } });
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

/** The record as pmiyc 0.1.0 stored it: its import block had no `disputedScores` yet. */
function asStoredBefore(record: ConversationRecord): ConversationRecord {
  const { disputedScores: _left, ...imported } = record.imported!;
  return { ...record, imported: imported as ConversationRecord['imported'] };
}

describe('decodeRecord', () => {
  it('gives an imported record its disputed scores back', () => {
    const record = importedRecord();
    expect(record.imported?.disputedScores).toEqual(['initial']);
    expect(decodeRecord(encodeRecord(record))).toEqual(record);
  });

  it('derives the disputed scores of a record imported before they were stored, compact or as JSON text', () => {
    const record = importedRecord();
    const before = asStoredBefore(record);
    expect(decodeRecord(encodeRecord(before))).toEqual(record);
    expect(decodeRecord(JSON.stringify(before))).toEqual(record);
  });
});
