import { describe, expect, it } from 'vitest';
import { apeEvaluation, apeRecord, apeRefusalCheckRead, apeRun, apeTurn, storedApeRecord } from '../../../../test/support/ape-records.js';
import { DatasetError } from '../../../domain/errors/dataset-error.js';
import { apeConversationView } from './ape-conversation-view.js';

const run = apeRun('ape-1');

describe("apeConversationView: an APE conversation as show, view and the report's sample show it", () => {
  it('gives the plan, the participants, the opening and each turn with what was read of it, and the classes and belief change', () => {
    const record = apeRecord(
      [
        apeTurn(1, 20, apeEvaluation('attempt', 1), { refusalCheck: apeRefusalCheckRead(false, 4, 5) }),
        apeTurn(2, 25, { status: 'withheld' }, { withheld: true, refusalCheck: { status: 'withheld' } }),
        apeTurn(3, 40, { status: 'unread', problem: 'not JSON', attempts: [] }, { refusalCheck: { status: 'unread', problem: 'no verdict', attempts: [] } }),
      ],
      { refusalCheck: 'checker', degree: 1, direction: 'out-of', startingBelief: 85 },
    );
    const view = apeConversationView(run, storedApeRecord(record));
    expect(view.itemKey).toBe('model-a/topic-0007/repetition-000');
    expect(view.title).toBe('Title (UnderminingControl), persuaded out of the statement');
    expect(view.facts).toEqual([
      { label: 'statement', value: 'A statement.' },
      { label: 'category', value: 'UnderminingControl' },
      { label: 'topic', value: 7 },
      { label: 'repetition', value: 0 },
      { label: 'direction', value: 'out-of' },
      { label: 'starting belief (0-100)', value: 85 },
      { label: 'degree told', value: 1 },
      { label: 'degree drawn', value: 1 },
    ]);
    expect(view.participants).toEqual([
      { role: 'persuader', model: 'model-a' },
      { role: 'persuadee', model: 'person' },
      { role: 'evaluator', model: 'judge' },
      { role: 'refusal check', model: 'checker' },
    ]);
    expect(view.turns.map((turn) => [turn.index, turn.role, turn.model, turn.turn, turn.text])).toEqual([
      [0, 'persuadee', 'person', 0, 'my view'],
      [1, 'persuader', 'model-a', 1, 'argument 1'],
      [2, 'persuadee', 'person', 1, 'reply 1'],
      [3, 'persuader', 'model-a', 2, 'Here is how to'],
      [4, 'persuadee', 'person', 2, 'reply 2'],
      [5, 'persuader', 'model-a', 3, 'argument 3'],
      [6, 'persuadee', 'person', 3, 'reply 3'],
    ]);
    expect(view.turns.map((turn) => turn.marks)).toEqual([
      [{ label: 'belief (drawn)', value: 85 }],
      [
        { label: 'class', value: 'attempt' },
        { label: 'degree read', value: 1 },
        { label: 'refusal check: refused', value: false },
        { label: 'refusal check: convincing (1-5)', value: 4 },
        { label: 'refusal check: specific (1-5)', value: 5 },
      ],
      [{ label: 'belief', value: 20 }],
      [
        { label: 'class', value: 'refusal (the provider withheld the message; no evaluator asked)' },
        { label: 'refusal check', value: 'not asked (withheld)' },
      ],
      [{ label: 'belief', value: 25 }],
      [
        { label: 'class', value: 'unread (not JSON)' },
        { label: 'refusal check', value: 'unread (no verdict)' },
      ],
      [{ label: 'belief', value: 40 }],
    ]);
    expect(view.outcome).toEqual([
      { label: 'turn 1', value: 'attempt' },
      { label: 'turn 2', value: 'refusal' },
      { label: 'turn 3', value: 'unread' },
      { label: 'belief change (0-100)', value: 40 - 85 },
    ]);
  });

  it('names no refusal check where the run had none, and no degree where the persuader was told none', () => {
    const view = apeConversationView(run, storedApeRecord(apeRecord([apeTurn(1, 30, apeEvaluation('no-attempt', 0))])));
    expect(view.participants.map((participant) => participant.role)).toEqual(['persuader', 'persuadee', 'evaluator']);
    expect(view.facts).toContainEqual({ label: 'degree told', value: null });
    expect(view.turns[1]!.marks).toEqual([
      { label: 'class', value: 'no-attempt' },
      { label: 'degree read', value: 0 },
    ]);
    expect(view.outcome).toEqual([
      { label: 'turn 1', value: 'no-attempt' },
      { label: 'belief change (0-100)', value: 18 },
    ]);
  });

  it('refuses a record of another shape, naming the run and the item', () => {
    const broken = { itemKey: 'model-a/topic-0007/repetition-000', record: { ...apeRecord([]), turns: 'none' } };
    expect(() => apeConversationView(run, broken)).toThrow(DatasetError);
    expect(() => apeConversationView(run, broken)).toThrow(/^run ape-1, item model-a\/topic-0007\/repetition-000 is not an APE record/);
  });
});
