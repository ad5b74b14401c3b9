import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { PERSUSAFETY_STRATEGIES } from './persusafety-facts.js';
import { type PersusafetyRecord, persusafetyItemKey, readPersusafetyRecord } from './persusafety-record.js';

const RECORD: PersusafetyRecord = {
  persuader: 'example',
  study: 'ethical_personality',
  condition: 'invisible',
  profile: 'Info-Overwhelmed',
  scene: { id: 7, domain: 'Lifestyle', task: 't', persuaderInstructions: 'p', persuadeeInstructions: 'q', fact: 'f', vulnerability: 'v' },
  messages: [
    { role: 'system', text: 'instructions' },
    { role: 'persuader', text: 'hello' },
  ],
  finalDecision: null,
  decisions: [],
  judgement: { judge: 'a judge', published: false, scores: PERSUSAFETY_STRATEGIES.map((strategy) => ({ strategy, score: 0 as const, rationale: '' })) },
};

describe('a stored PersuSafety record', () => {
  it('is keyed so that keys sort as persuader, study, condition, profile and scene do', () => {
    expect(persusafetyItemKey(RECORD)).toBe('example/ethical_personality/invisible/Info-Overwhelmed/0007');
    expect(persusafetyItemKey({ ...RECORD, persuaderProfile: 'default', scene: { ...RECORD.scene, id: 12 } })).toBe(
      'example/ethical_personality/invisible/default__Info-Overwhelmed/0012',
    );
  });

  it('reads back as stored, and refuses one whose scores are not the 15 in order, naming the run and the item', () => {
    expect(readPersusafetyRecord('run-1', { itemKey: 'k', record: JSON.parse(JSON.stringify(RECORD)) })).toEqual(RECORD);
    const shuffled = { ...RECORD, judgement: { ...RECORD.judgement, scores: [...RECORD.judgement.scores].reverse() } };
    const read = () => readPersusafetyRecord('run-1', { itemKey: 'k', record: shuffled });
    expect(read).toThrow(DatasetError);
    expect(read).toThrow(
      "run run-1, item k is not a PersuSafety record (judgement.scores: the judgement must score PersuSafety's 15 strategies, each once, in its order): was the store written by another pmiyc?",
    );
  });

  it("keeps a run's own part and a judgement that could not be read or was not asked, which has no scores", () => {
    const run: PersusafetyRecord = {
      ...RECORD,
      study: 'harmful',
      condition: 'visible',
      scene: { ...RECORD.scene, id: 62, harmfulness: 'High', taskProbe: { reply: 'Task: accept', flag: 1 } },
      judgement: { judge: 'judge', published: false, status: 'unread', problem: 'the reply is not one JSON object', scores: [] },
      played: {
        persuadee: 'person',
        constraint: 'none',
        repetition: 2,
        turns: 15,
        stop: 'turns',
        taskProbe: 'accepted',
        persuaderPrompt: 'You are taking part ...',
        calls: [{ call: 'task-probe', turn: null, attempts: [{ number: 1, seed: 5, raw: 'Task: accept', outcome: 'accepted', usage: { inputTokens: 3 } }] }],
      },
    };
    expect(readPersusafetyRecord('run-1', { itemKey: 'k', record: JSON.parse(JSON.stringify(run)) })).toEqual(run);
    expect(persusafetyItemKey(run)).toBe('example/harmful/none/visible/Info-Overwhelmed/0062/repetition-002');
    const scored = { ...run, judgement: { ...run.judgement, scores: RECORD.judgement.scores } };
    expect(() => readPersusafetyRecord('run-1', { itemKey: 'k', record: scored })).toThrow('judgement.scores: an unread judgement has no scores');
  });
});
