import { describe, expect, it } from 'vitest';
import { officialNormalizedChange, officialRecord } from '../../../test/support/official-results.js';
import { type OfficialRecord, parseOfficialResults } from '../../datasets/official-results.js';
import type { AgreementScore } from '../../domain/agreement-score.js';
import type { Claim } from '../../domain/claim.js';
import { folderHints, type ImportPlacement, importedConversationId, plannedTurns, toImportedRecord } from './official-conversation.js';
import { type ClaimSeen, placeClaims } from './official-import-plan.js';

const ECHO = 'Completely Oppose / Oppose / Neutral / Support / Completely Support';

function read(...specs: Array<{ persuadeeScores: ReadonlyArray<AgreementScore | null>; rankingTexts?: Record<number, string> }>): OfficialRecord[] {
  const records = specs.map((spec, i) => officialRecord({ i, persuader: 'gpt-4o', persuadee: 'llama8b', claim: `Claim ${i}`, ...spec }));
  return [...parseOfficialResults('results.json', JSON.stringify(records)).records];
}

const claim: Claim = { index: 3, domain: 'subjective', claim: 'Claim 0', origin: 'imported', license: 'unknown (imported)' };
const placement = (overrides: Partial<ImportPlacement> = {}): ImportPlacement => ({
  run: 'official',
  conversationId: 'c0',
  claim,
  setting: 'multi',
  turnsPlanned: 9,
  repetition: 0,
  persuaderStance: 2,
  file: '/data/experiments/multi_turn_subj/gpt_llama_0/results.json',
  sha256: 'ab'.repeat(32),
  labelMatch: 'strict',
  ...overrides,
});

describe('toImportedRecord', () => {
  it("maps entries to turns as they happened: the persuadee's first score is the initial one, its final decision the final one", () => {
    const [record] = read({ persuadeeScores: [2, 3, 3, 4, 4] });
    const imported = toImportedRecord(record!, placement());
    expect(imported.turns.map((turn) => [turn.index, turn.role, turn.kind, turn.score])).toEqual([
      [1, 'persuadee', 'opening', 2],
      [2, 'persuader', 'argument', 4],
      [3, 'persuadee', 'reply', 3],
      [4, 'persuader', 'argument', 4],
      [5, 'persuadee', 'reply', 3],
      [6, 'persuader', 'argument', 4],
      [7, 'persuadee', 'reply', 4],
      [8, 'persuader', 'argument', 4],
      [9, 'persuadee', 'final', 4],
    ]);
    expect(imported).toMatchObject({ status: 'completed', initialScore: 2, finalScore: 4, earlyStopped: false, absoluteChange: 2, persuaderStance: 2 });
    expect(imported.normalizedChange).toBe(officialNormalizedChange(2, 4));
    // The reply as the file kept it is the turn's raw text and its one accepted attempt.
    expect(imported.turns[2]!.raw).toBe('<message> Persuadee on claim 0, entry 2. </message>\n<support_ranking> Neutral </support_ranking>\n');
    expect(imported.turns[2]!.attempts).toEqual([{ number: 1, seed: null, raw: imported.turns[2]!.raw, outcome: 'accepted' }]);
    // The file keeps no seeds: none is made up.
    expect(imported.runSeed).toBeNull();
    expect(imported.imported).toEqual({
      format: 'pmiyc-official',
      file: '/data/experiments/multi_turn_subj/gpt_llama_0/results.json',
      sha256: 'ab'.repeat(32),
      recordIndex: 0,
      claimNumber: 0,
      labelMatch: 'strict',
      differences: [],
      disputedScores: [],
    });
  });

  it('marks an early stop (the final decision right after a 5) and scores the final decision, whatever it is', () => {
    const [record] = read({ persuadeeScores: [3, 4, 5, 2] });
    const imported = toImportedRecord(record!, placement());
    expect(imported.turns.map((turn) => turn.kind)).toEqual(['opening', 'argument', 'reply', 'argument', 'reply', 'final']);
    expect(imported).toMatchObject({ earlyStopped: true, initialScore: 3, finalScore: 2 });
    expect(imported.normalizedChange).toBe(officialNormalizedChange(3, 2));
  });

  it("lists the turns pmiyc's parser reads differently from the recorded score; the recorded score stays", () => {
    const [record] = read({ persuadeeScores: [1, 1, 2], rankingTexts: { 0: ECHO, 2: 'Supportive' } });
    const strict = toImportedRecord(record!, placement());
    expect(strict.turns.map((turn) => turn.score)).toEqual([1, 4, 1, 4, 2]);
    expect(strict.imported?.differences).toEqual([
      { turn: 1, recordedScore: 1, readScore: null, detail: expect.stringMatching(/^the ranking "Completely Oppose \/ Oppose .* is ambiguous$/) },
      { turn: 5, recordedScore: 2, readScore: null, detail: '"Supportive" is not one of the five labels' },
    ]);
    // Read as the official code read it, the echoed list is its first label; "Supportive" is Support, not the recorded 2.
    const first = toImportedRecord(record!, placement({ labelMatch: 'first' }));
    expect(first.imported?.differences).toEqual([{ turn: 5, recordedScore: 2, readScore: 4, detail: null }]);
    // Both scores of its NC rest on a disputed turn when read strictly; only the final one when read as the official code did.
    expect(strict.imported?.disputedScores).toEqual(['initial', 'final']);
    expect(first.imported?.disputedScores).toEqual(['final']);
  });

  it('says no score is disputed when only replies in between (or persuader turns) are read differently', () => {
    const [record] = read({ persuadeeScores: [2, 3, 3, 4, 4], rankingTexts: { 1: ECHO, 3: ECHO } });
    const imported = toImportedRecord(record!, placement());
    expect(imported.imported?.differences.map((difference) => difference.turn)).toEqual([3, 7]);
    expect(imported.imported?.disputedScores).toEqual([]);
  });
});

describe('plannedTurns', () => {
  it("is a full conversation's length, and for one that stopped early its file's full length (else the paper's 9)", () => {
    const [full, stopped] = read({ persuadeeScores: [2, 3, 3, 4, 4] }, { persuadeeScores: [4, 5, 5] });
    expect(plannedTurns(full!.entries, undefined)).toBe(9);
    expect(plannedTurns(stopped!.entries, 15)).toBe(15);
    expect(plannedTurns(stopped!.entries, undefined)).toBe(9);
  });
});

describe('importedConversationId', () => {
  it('depends on what the conversation is, not on where the file put it', () => {
    const [first, second] = read({ persuadeeScores: [2, 3, 4] }, { persuadeeScores: [2, 3, 5] });
    const moved = { ...first!, recordIndex: 12, claimNumber: 40 };
    expect(importedConversationId(moved, 'subjective')).toBe(importedConversationId(first!, 'subjective'));
    expect(importedConversationId({ ...second!, claim: first!.claim }, 'subjective')).not.toBe(importedConversationId(first!, 'subjective'));
    expect(importedConversationId(first!, 'misinformation')).not.toBe(importedConversationId(first!, 'subjective'));
    expect(importedConversationId(first!, 'subjective')).toMatch(/^c[0-9a-z]{11}$/);
  });
});

describe('folderHints', () => {
  it.each([
    ['/runs/experiments/multi_turn_subj/mistral_mistral_0/results.json', { setting: 'multi', domain: 'subjective', folder: 'multi_turn_subj' }],
    ['experiments/single_turn_misinfo/a_b_1/results.json', { setting: 'single', domain: 'misinformation', folder: 'single_turn_misinfo' }],
    ['logs/Multi-Turn/results.json', { setting: 'multi', folder: 'Multi-Turn' }],
    // The nearest such folder counts; other words that merely contain "subj" say nothing.
    [
      '/home/subjects/single_turn_subj/multi_turn_misinformation/x/results.json',
      { setting: 'multi', domain: 'misinformation', folder: 'multi_turn_misinformation' },
    ],
    ['/home/subjective-work/results.json', {}],
  ])('reads %s', (path, hints) => {
    expect(folderHints(path)).toEqual(hints);
  });
});

describe('placeClaims', () => {
  const seen = (text: string, claimNumber: number | null): ClaimSeen => ({ domain: 'subjective', claim: text, question: null, claimNumber });
  const key = (text: string) => `subjective\u0000${text}`;
  const known: Claim = { index: 5, domain: 'subjective', claim: 'Known', origin: 'perspectrum', license: 'CC BY-SA 4.0' };

  it("takes a known set's item, else the record's number when free, else a free index", () => {
    const claims = new Map([
      [key('Mine'), seen('Mine', 5)],
      [key('Known'), seen('Known', 0)],
      [key('Other'), seen('Other', 2)],
      [key('Stored'), seen('Stored', 9)],
    ]);
    const stored = {
      byKey: new Map([[key('Stored'), { index: 2, domain: 'subjective', claim: 'Stored', origin: 'imported', license: 'unknown (imported)' } as Claim]]),
      usedByDomain: new Map([['subjective' as const, new Set([2])]]),
    };
    const placed = placeClaims(claims, stored, (claim) => (claim.claim === 'Known' ? known : undefined));
    expect(placed.get(key('Known'))).toBe(known);
    expect(placed.get(key('Stored'))?.index).toBe(2);
    // "Mine" wanted 5, which the known claim has; "Other" wanted 2, which the stored claim has.
    expect(placed.get(key('Mine'))).toMatchObject({ index: 6, origin: 'imported', license: 'unknown (imported)' });
    expect(placed.get(key('Other'))?.index).toBe(7);
  });
});
