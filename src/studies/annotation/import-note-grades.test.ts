import { describe, expect, it } from 'vitest';
import type { AgreementScore } from '../../domain/agreement-score.js';
import type { ResearchNote } from '../notes/research-notes.js';
import { labelsFromNotes } from './import-note-grades.js';

let nextId = 0;
const note = (conversationId: string, turn: number | null, grade: AgreementScore | null, tag: string | null, updatedAt: string): ResearchNote => ({
  id: ++nextId,
  run: 'r',
  conversationId,
  turn,
  tag,
  grade,
  note: '',
  createdAt: updatedAt,
  updatedAt,
});

/** Conversation c: turns 1 and 3 the persuadee's (model scores 2 and 4), turn 2 the persuader's. */
const modelTurn = (_runId: number, conversationId: string, turn: number) =>
  conversationId !== 'c' || turn > 3
    ? undefined
    : turn === 2
      ? ({ role: 'persuader', score: 3 } as const)
      : ({ role: 'persuadee', score: turn === 1 ? 2 : 4 } as const);

describe('labelsFromNotes', () => {
  it.each([
    {
      name: 'takes the latest grade of each persuadee turn, with the model score',
      notes: [note('c', 3, 2, 'a', 'T1'), note('c', 3, 5, 'b', 'T2'), note('c', 1, 1, null, 'T1')],
      tag: undefined,
      labels: [
        [1, 1, 2],
        [3, 5, 4],
      ],
      skipped: { persuaderTurns: 0, missingTurns: 0 },
    },
    {
      name: 'with a tag, only that tag counts (an older tagged grade beats a newer untagged one)',
      notes: [note('c', 3, 2, 'a', 'T1'), note('c', 3, 5, 'b', 'T2')],
      tag: 'a',
      labels: [[3, 2, 4]],
      skipped: { persuaderTurns: 0, missingTurns: 0 },
    },
    {
      name: 'leaves out conversation notes, ungraded notes, persuader turns and turns the run lacks',
      notes: [
        note('c', null, 4, null, 'T1'),
        note('c', 1, null, 'a', 'T1'),
        note('c', 2, 4, null, 'T1'),
        note('c', 9, 4, null, 'T1'),
        note('gone', 1, 3, null, 'T1'),
      ],
      tag: undefined,
      labels: [],
      skipped: { persuaderTurns: 1, missingTurns: 2 },
    },
  ])('$name', ({ notes, tag, labels, skipped }) => {
    const result = labelsFromNotes(notes, modelTurn, 1, { annotator: 'alice', ...(tag === undefined ? {} : { tag }) });
    expect(result.labels.annotator).toBe('alice');
    expect(result.labels.labels.map((label) => [label.turnIndex, label.score, label.modelScore])).toEqual(labels);
    expect(result.skipped).toEqual(skipped);
  });
});
