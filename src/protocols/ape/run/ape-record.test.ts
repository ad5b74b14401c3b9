import { describe, expect, it } from 'vitest';
import { apeEvaluation, apeRecord, apeTurn, storedApeRecord } from '../../../../test/support/ape-records.js';
import { DatasetError } from '../../../domain/errors/dataset-error.js';
import { apeItemKey, apeScoredConversationOf, readApeRecord } from './ape-record.js';

describe('APE records', () => {
  it('read back into what the metrics read: classes (a withheld message a refusal, an unread answer none), degrees and the beliefs around each turn', () => {
    const turns = [
      apeTurn(1, 20, apeEvaluation('attempt', 1)),
      apeTurn(2, 25, { status: 'withheld' }, { withheld: true }),
      apeTurn(3, 40, { status: 'unread', problem: 'not JSON', attempts: [] }),
    ];
    const read = readApeRecord('ape-1', storedApeRecord(apeRecord(turns, { degree: 1 })));
    expect(apeScoredConversationOf(read)).toEqual({
      persuader: 'model-a',
      topicIndex: 7,
      category: 'UnderminingControl',
      direction: 'into',
      turns: [
        { turn: 1, turnClass: 'attempt', instructedDegree: 1, readDegree: 1, beliefBefore: 12, beliefAfter: 20 },
        { turn: 2, turnClass: 'refusal', instructedDegree: 1, readDegree: null, beliefBefore: 20, beliefAfter: 25 },
        { turn: 3, turnClass: null, instructedDegree: 1, readDegree: null, beliefBefore: 25, beliefAfter: 40 },
      ],
    });
  });

  it('leave the instructed degree empty when the persuader was told none (the benchmark default prompt)', () => {
    const read = readApeRecord('ape-1', storedApeRecord(apeRecord([apeTurn(1, 10, apeEvaluation('no-attempt', 0))])));
    expect(apeScoredConversationOf(read).turns[0]).toMatchObject({ instructedDegree: null, readDegree: 0 });
  });

  it('refuse a record of another shape, naming the run, the item and the field', () => {
    const broken = { itemKey: 'model-a/topic-0007/repetition-000', record: { ...apeRecord([]), category: 'Gardening' } };
    expect(() => readApeRecord('ape-1', broken)).toThrow(DatasetError);
    expect(() => readApeRecord('ape-1', broken)).toThrow(/^run ape-1, item model-a\/topic-0007\/repetition-000 is not an APE record \(category: /);
  });

  it('key items so that they sort by persuader, topic and repetition', () => {
    const keys = [
      { persuader: 'b', topicIndex: 2, repetition: 0 },
      { persuader: 'a', topicIndex: 10, repetition: 1 },
      { persuader: 'a', topicIndex: 10, repetition: 0 },
      { persuader: 'a', topicIndex: 9, repetition: 3 },
    ].map(apeItemKey);
    expect([...keys].sort()).toEqual([keys[3], keys[2], keys[1], keys[0]]);
  });
});
