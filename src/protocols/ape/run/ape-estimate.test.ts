import { describe, expect, it } from 'vitest';
import type { ApeTopic } from '../ape-topics.js';
import type { ApeDesign } from './ape-design.js';
import { type ApeEstimateAssumptions, estimateApeRun } from './ape-estimate.js';
import { planApeTasks } from './ape-study.js';

const topic = (index: number): ApeTopic => ({ index, category: 'Conspiracy', shortTitle: `t${index}`, text: `statement ${index}`, subject: 's' });

const design = (fields: Partial<ApeDesign> = {}): ApeDesign => ({
  persuaders: ['a', 'b'],
  persuadee: 'p',
  evaluator: 'e',
  topics: { source: { kind: 'pinned' }, selection: {} },
  repetitions: 2,
  turns: 3,
  statedDegree: false,
  sampling: { temperature: 0.5, maxOutputTokens: 400, maxAttempts: 3 },
  ...fields,
});

const assumptions: ApeEstimateAssumptions = {
  messageTokens: 200,
  answerTokens: 80,
  prices: (model) => (model === 'e' ? undefined : { inputUsdPerMillion: 1, outputUsdPerMillion: 2 }),
};

const topics = [topic(1), topic(2), topic(3)];
const callsOf = (estimate: ReturnType<typeof estimateApeRun>) => Object.fromEntries(estimate.byModel.map((model) => [model.model, model.calls]));

describe('estimateApeRun', () => {
  it('counts one opening per topic and repetition, and per persuader turn the persuader, the evaluator, the refusal check and the persuadee', () => {
    const plain = estimateApeRun(design(), planApeTasks(design(), topics, 7), assumptions);
    // 3 topics x 2 repetitions = 6 openings; 2 persuaders x 6 starts = 12 conversations of 3 turns.
    expect(callsOf(plain)).toEqual({ p: 6 + 36, a: 18, b: 18, e: 36 });
    const checked = design({ refusalCheck: 'r' });
    expect(callsOf(estimateApeRun(checked, planApeTasks(checked, topics, 7), assumptions))).toEqual({ p: 42, a: 18, b: 18, e: 36, r: 36 });
  });

  it('prices input from the requests themselves, which grow turn by turn, and names a model with no prices rather than count it free', () => {
    const one = design({ persuaders: ['a'], repetitions: 1, turns: 1 });
    const two = design({ persuaders: ['a'], repetitions: 1, turns: 2 });
    const short = estimateApeRun(one, planApeTasks(one, topics, 7), assumptions);
    const long = estimateApeRun(two, planApeTasks(two, topics, 7), assumptions);
    const persuader = (estimate: ReturnType<typeof estimateApeRun>) => estimate.byModel.find((model) => model.model === 'a')!;
    // The second turn's request is the first's and the first exchange (the persuader's message, the persuadee's reply), on each of the 3 topics.
    expect(persuader(long).inputTokens).toBe(2 * persuader(short).inputTokens + 3 * 2 * 200);
    expect(persuader(short).outputTokens).toBe(3 * 200);
    expect(short.unpricedModels).toEqual(['e']);
    const priced = short.byModel.filter((model) => model.costUsd !== undefined);
    expect(short.costUsd).toBeCloseTo(
      priced.reduce((sum, model) => sum + (model.inputTokens + 2 * model.outputTokens) / 1e6, 0),
      5,
    );
  });

  it('leaves out what the store holds: a whole conversation, a stored opening, stored turns', () => {
    const one = design({ persuaders: ['a'], repetitions: 1 });
    const tasks = [...planApeTasks(one, topics, 7)];
    const estimate = estimateApeRun(one, tasks, assumptions, (task) => {
      if (task.topicIndex === 1) return { complete: true, openingStored: true, storedTurns: 3 };
      if (task.topicIndex === 2) return { complete: false, openingStored: true, storedTurns: 2 };
      return { complete: false, openingStored: false, storedTurns: 0 };
    });
    // Topic 2: its last turn (3 calls); topic 3: its opening and 3 turns.
    expect(callsOf(estimate)).toEqual({ p: 1 + 1 + 3, a: 1 + 3, e: 1 + 3 });
    expect(estimate.calls).toBe(13);
  });
});
