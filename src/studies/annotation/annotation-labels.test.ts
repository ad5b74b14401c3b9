import { describe, expect, it } from 'vitest';
import { checkAnnotatorName, LabelBook, parseLabelsFile } from './annotation-labels.js';
import type { AnnotationTaskFile } from './annotation-tasks.js';

const TASKS: AnnotationTaskFile = {
  format: 'pmiyc-annotation-tasks',
  version: 1,
  taskSetId: 'tset',
  run: 'run-1',
  createdAt: '2026-12-01T00:00:00.000Z',
  selection: { setting: 'multi', seed: 0, perPair: 1, claimsPerDomain: null },
  annotationGuide: 'guide',
  conversations: ['ca', 'cb'].map((conversationId) => ({
    conversationId,
    domain: 'subjective' as const,
    claim: 'a claim',
    question: null,
    turns: [
      { index: 1, role: 'persuadee' as const, kind: 'opening' as const, message: 'no', toLabel: true },
      { index: 2, role: 'persuader' as const, kind: 'argument' as const, message: 'yes!', toLabel: false },
      { index: 3, role: 'persuadee' as const, kind: 'final' as const, message: 'maybe', toLabel: true },
    ],
  })),
};

const at = (second: number) => `2026-12-01T10:00:${String(second).padStart(2, '0')}.000Z`;

describe('LabelBook', () => {
  it('keeps the latest label of each turn, ignores older re-sends and clears on null', () => {
    const book = new LabelBook(TASKS, 'alice');
    expect(book.apply({ conversationId: 'cb', turnIndex: 3, score: 4, labelledAt: at(2) })).toBe(true);
    expect(book.apply({ conversationId: 'ca', turnIndex: 1, score: 2, labelledAt: at(1) })).toBe(true);
    expect(book.apply({ conversationId: 'cb', turnIndex: 3, score: 1, labelledAt: at(1) })).toBe(false);
    expect(book.list().map((label) => [label.conversationId, label.turnIndex, label.score])).toEqual([
      ['ca', 1, 2],
      ['cb', 3, 4],
    ]);
    expect(book.apply({ conversationId: 'cb', turnIndex: 3, score: null, labelledAt: at(3) })).toBe(true);
    expect(book.size).toBe(1);
    expect(book.turnsToLabel).toBe(4);
    expect(book.has('ca', 2)).toBe(false);
    expect(book.has('ca', 3)).toBe(true);
  });

  it('writes a labels file that reads back with line numbers', () => {
    const book = new LabelBook(TASKS, 'alice');
    book.apply({ conversationId: 'ca', turnIndex: 3, score: 5, labelledAt: at(4) });
    book.apply({ conversationId: 'ca', turnIndex: 1, score: 3, labelledAt: at(5) });
    const { header, labels } = parseLabelsFile(book.toJsonl(), 'alice.jsonl');
    expect(header).toEqual({ format: 'pmiyc-annotation-labels', version: 1, run: 'run-1', taskSetId: 'tset', annotator: 'alice' });
    expect(labels).toEqual([
      { conversationId: 'ca', turnIndex: 1, score: 3, labelledAt: at(5), line: 2 },
      { conversationId: 'ca', turnIndex: 3, score: 5, labelledAt: at(4), line: 3 },
    ]);
  });
});

describe('parseLabelsFile', () => {
  const header = JSON.stringify({ format: 'pmiyc-annotation-labels', version: 1, run: 'run-1', taskSetId: 'tset', annotator: 'bob' });
  const label = (fields: Record<string, unknown>) => JSON.stringify({ conversationId: 'ca', turnIndex: 1, score: 3, labelledAt: at(1), ...fields });

  it.each([
    ['', /bob.jsonl is empty/],
    ['{"format":"other"}', /bob.jsonl:1: not a pmiyc labels header \(format/],
    [`${header}\n${label({})}\nnot json`, /bob.jsonl:3: not JSON/],
    [`${header}\n${label({ score: 6 })}`, /bob.jsonl:2: not a label \(score/],
    [`${header}\n${label({ turnIndex: 0 })}`, /bob.jsonl:2: not a label \(turnIndex/],
    [`${header}\n${label({ labelledAt: 'yesterday' })}`, /bob.jsonl:2: not a label \(labelledAt/],
    [`${header}\n\n${label({})}\n${label({ score: 2 })}`, /bob.jsonl:4: conversation ca turn 1 is labelled again \(first at line 3\)/],
    [header.replace('"bob"', '"bob smith"'), /bob.jsonl:1: .*annotator/],
  ])('refuses %j, naming the line', (text, message) => {
    expect(() => parseLabelsFile(text, 'bob.jsonl')).toThrow(message);
  });

  it('accepts blank lines and Windows line ends', () => {
    expect(parseLabelsFile(`\r\n${header}\r\n${label({})}\r\n\r\n`, 'bob.jsonl').labels[0]!.line).toBe(3);
  });
});

describe('checkAnnotatorName', () => {
  it.each(['alice', 'Zoë', 'annotator_2', 'r.k-1'])('accepts %s', (name) => expect(checkAnnotatorName(name)).toBe(name));
  it.each(['', '-x', 'a b', '../etc', 'a/b', 'x'.repeat(65)])('refuses %j with an example of a good name', (name) => {
    expect(() => checkAnnotatorName(name)).toThrow(/e\.g\. --annotator alice/);
  });
});
