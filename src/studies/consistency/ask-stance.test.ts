import { describe, expect, it } from 'vitest';
import { EXAMPLE_CLAIMS } from '../../datasets/example-claims.js';
import { ModelCallError } from '../../models/model-call-error.js';
import { ScriptedChatModel } from '../../models/scripted-model.js';
import { RunGate } from '../../runner/run-gate.js';
import { askStance, type StanceOutcome, type StanceTask, stanceSeed } from './ask-stance.js';
import { planStanceTasks, runStanceTasks } from './stance-tasks.js';

const claim = EXAMPLE_CLAIMS[0]!;
const task: StanceTask = { model: 'm', claim, sampleIndex: 2 };
const sampling = { temperature: 0.7, maxOutputTokens: 16, maxAttempts: 3 };
const callError = (reason: 'api' | 'refusal') => new ModelCallError('provider said no', { provider: 'p', model: 'm', reason, retryable: false });

describe('askStance', () => {
  it('re-asks an unusable reply with a new seed and records how many were unusable', async () => {
    const model = new ScriptedChatModel('m', ['I think I support it.', { text: 'Support', finishReason: 'stop', callHash: 'h2' }]);
    const outcome = await askStance(model, task, sampling, 7);
    expect(outcome).toEqual({ status: 'answered', score: 4, attempts: 2, unusable: 1, raw: 'Support', callHash: 'h2' });
    expect(model.requests.map((request) => request.seed)).toEqual([stanceSeed(7, task, 1), stanceSeed(7, task, 2)]);
    expect(new Set(model.requests.map((request) => request.seed)).size).toBe(2);
    expect(model.requests[0]).toMatchObject({ temperature: 0.7, maxOutputTokens: 16 });
    expect(model.requests[1]!.messages).toEqual(model.requests[0]!.messages);
  });

  it('records an answer without a score when every attempt is unusable, keeping the last reply', async () => {
    const model = new ScriptedChatModel('m', ['Strongly agree', { text: 'Support', finishReason: 'content-filter' }, 'It depends.']);
    expect(await askStance(model, task, sampling, 7)).toEqual({
      status: 'answered',
      score: null,
      attempts: 3,
      unusable: 3,
      raw: 'It depends.',
      callHash: null,
    });
  });

  it("counts a provider's refusal as an unusable reply, and fails on any other call error", async () => {
    expect(await askStance(new ScriptedChatModel('m', [callError('refusal'), 'Oppose']), task, sampling, 7)).toMatchObject({
      status: 'answered',
      score: 2,
      unusable: 1,
    });
    expect(await askStance(new ScriptedChatModel('m', [callError('api')]), task, sampling, 7)).toEqual({
      status: 'failed',
      reason: 'api',
      detail: 'provider said no',
    });
  });

  it('derives seeds from the study seed, model, claim, answer and attempt, never anything else', () => {
    expect(stanceSeed(7, task, 1)).toBe(stanceSeed(7, { ...task }, 1));
    expect(
      new Set([
        stanceSeed(7, task, 1),
        stanceSeed(8, task, 1),
        stanceSeed(7, { ...task, model: 'n' }, 1),
        stanceSeed(7, { ...task, sampleIndex: 3 }, 1),
        stanceSeed(7, { ...task, claim: EXAMPLE_CLAIMS[1]! }, 1),
      ]).size,
    ).toBe(5);
  });
});

describe('runStanceTasks', () => {
  const tasks = [...planStanceTasks(['a', 'b'], EXAMPLE_CLAIMS.slice(0, 3), 2)];
  const answered: StanceOutcome = { status: 'answered', score: 3, attempts: 1, unusable: 0, raw: 'Neutral', callHash: null };

  it('plans claim by claim, answer by answer, model by model', () => {
    expect(tasks).toHaveLength(12);
    expect(tasks.slice(0, 4).map((entry) => [entry.claim.index, entry.sampleIndex, entry.model])).toEqual([
      [0, 0, 'a'],
      [0, 0, 'b'],
      [0, 1, 'a'],
      [0, 1, 'b'],
    ]);
  });

  it('asks only for answers not stored yet', async () => {
    const asked: StanceTask[] = [];
    const result = await runStanceTasks({
      tasks,
      ask: async (entry) => {
        asked.push(entry);
        return answered;
      },
      concurrency: 3,
      gate: new RunGate(),
      isDone: (entry) => entry.model === 'a',
      onOutcome: () => {},
    });
    expect(result).toEqual({ status: 'completed', answered: 6, failed: 0, skipped: 6, abandoned: 0 });
    expect(asked.every((entry) => entry.model === 'b')).toBe(true);
  });

  it('starts nothing new once stopped, and reports the answers that failed', async () => {
    const gate = new RunGate();
    let calls = 0;
    const result = await runStanceTasks({
      tasks,
      ask: async () => {
        calls += 1;
        if (calls === 2) gate.stop('interrupted');
        return calls === 1 ? { status: 'failed', reason: 'api', detail: 'down' } : answered;
      },
      concurrency: 1,
      gate,
      isDone: () => false,
      onOutcome: () => {},
    });
    expect(result).toEqual({ status: 'stopped', stopReason: 'interrupted', answered: 1, failed: 1, skipped: 0, abandoned: 0 });
  });

  it('rethrows a bug after stopping', async () => {
    const run = runStanceTasks({
      tasks,
      ask: async () => Promise.reject(new TypeError('bug')),
      concurrency: 2,
      gate: new RunGate(),
      isDone: () => false,
      onOutcome: () => {},
    });
    await expect(run).rejects.toThrow('bug');
  });
});
