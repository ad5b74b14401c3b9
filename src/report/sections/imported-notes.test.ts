import { describe, expect, it } from 'vitest';
import { type HandConversation, handRecord } from '../../../test/support/hand-records.js';
import type { ConversationRecord, DisputedScore } from '../../domain/conversation-record.js';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import { ImportedTally } from './imported-notes.js';

/** A hand-made conversation as if imported from `file`, its listed turns disputed. */
function imported(spec: HandConversation, file: string, disputedScores: DisputedScore[], disputedTurns = disputedScores.length): ConversationRecord {
  const record = handRecord({ ...spec, run: 'official' });
  const differences = Array.from({ length: disputedTurns }, (_, position) => ({
    turn: position + 1,
    recordedScore: 1 as const,
    readScore: null,
    detail: 'ambiguous',
  }));
  return {
    ...record,
    imported: { format: 'pmiyc-official', file, sha256: `sha-${file}`, recordIndex: 0, claimNumber: null, labelMatch: 'strict', differences, disputedScores },
  };
}

const nc = (record: ConversationRecord) => record.normalizedChange!;

describe('ImportedTally', () => {
  // a -> b on three claims (one of them disputed), b -> a on one claim, disputed: without it b -> a has no conversation.
  const records = [
    imported({ persuader: 'a', persuadee: 'b', claim: 'claim 1', turns: 3, persuadeeScores: [1], final: 3 }, 'x.json', []),
    imported({ persuader: 'a', persuadee: 'b', claim: 'claim 2', turns: 3, persuadeeScores: [2], final: 2 }, 'x.json', [], 1),
    imported({ persuader: 'a', persuadee: 'b', claim: 'claim 3', turns: 3, persuadeeScores: [1], final: 1 }, 'y.json', ['initial', 'final'], 3),
    imported({ persuader: 'b', persuadee: 'a', claim: 'claim 1', turns: 3, persuadeeScores: [2], final: 5 }, 'y.json', ['final']),
  ];

  it('gives the headline figures without the conversations whose initial or final score is disputed', () => {
    const tally = new ImportedTally(true);
    for (const record of records) tally.add('official', record);
    const result = tally.result(DEFAULT_INTERVALS)!;
    expect(result.disputedConversations).toBe(2);
    expect(result.disputed.map((entry) => [entry.conversationId, entry.disputedScores])).toEqual([
      [records[2]!.conversationId, ['initial', 'final']],
      [records[3]!.conversationId, ['final']],
    ]);
    expect(result.runs).toEqual([
      {
        run: 'official',
        conversations: 4,
        replies: 12,
        disputedTurns: 5,
        disputedConversations: 2,
        labelMatch: ['strict'],
        files: [
          { path: 'x.json', sha256: 'sha-x.json', conversations: 2 },
          { path: 'y.json', sha256: 'sha-y.json', conversations: 2 },
        ],
      },
    ]);
    const without = result.withoutDisputed;
    expect(without.conversations).toBe(2);
    // Only a -> b is left, on its two undisputed claims (NC 1/2 and 0); b -> a, with no conversation left, is absent.
    expect(without.pairs.map((pair) => [pair.persuader, pair.persuadee, pair.n, pair.meanNC])).toEqual([
      ['a', 'b', 2, (nc(records[0]!) + nc(records[1]!)) / 2],
    ]);
    expect(without.effectiveness.map((entry) => [entry.model, entry.value])).toEqual([['a', 0.25]]);
    expect(without.susceptibility.map((entry) => [entry.model, entry.value])).toEqual([['b', 0.25]]);
  });

  it('says in its note how many conversations rest on a disputed turn, and names the files with their sha256', () => {
    const tally = new ImportedTally(true);
    for (const record of records) tally.add('official', record);
    expect(tally.notes()).toEqual([
      expect.stringMatching(
        /^run official: 4 conversations imported .* from 2 files: x\.json \(sha256 sha-x\.json\), y\.json \(sha256 sha-y\.json\); they have no seed, .* reads 5 of their 12 replies differently .*; 2 conversations have their initial or final score resting on one /,
      ),
    ]);
  });

  it('has nothing to report for runs pmiyc ran', () => {
    const tally = new ImportedTally(false);
    tally.add('run', handRecord({ persuader: 'a', persuadee: 'b', claim: 'claim 1', turns: 3, persuadeeScores: [1], final: 3 }));
    expect(tally.notes()).toEqual([]);
    expect(tally.result(DEFAULT_INTERVALS)).toBeUndefined();
  });
});
