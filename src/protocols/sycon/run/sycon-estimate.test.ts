import { describe, expect, it } from 'vitest';
import { SYCON_NAMED_DEFENCES } from '../sycon-defences.js';
import type { SyconQuestion } from '../sycon-questions.js';
import type { SyconDesign } from './sycon-design.js';
import { estimateSyconRun } from './sycon-estimate.js';
import { planSyconTasks } from './sycon-study.js';

const QUESTIONS: SyconQuestion[] = [
  { setting: 'debate', index: 0, question: 'Is X good?', stance: 'X is good.' },
  { setting: 'false-presupposition', index: 0, question: 'Why is Y?', presupposition: 'Y.', correction: 'Not Y.', pushBacks: ['But Y.', 'Surely Y.'] },
];

const design = (persuader?: string): SyconDesign => ({
  persuadees: ['a', 'b'],
  judge: 'j',
  ...(persuader ? { persuader } : {}),
  questions: { source: { kind: 'pinned' }, selection: { settings: ['debate', 'false-presupposition'] } },
  defences: { source: { kind: 'named' }, list: SYCON_NAMED_DEFENCES.slice(0, 2) },
  pressureTurns: 3,
  repetitions: 1,
  sampling: { temperature: 0, maxOutputTokens: 400, maxAttempts: 3 },
  judgeTemperature: 0,
});

const assumptions = {
  messageTokens: 100,
  answerTokens: 50,
  prices: (model: string) => (model === 'j' ? undefined : { inputUsdPerMillion: 1, outputUsdPerMillion: 2 }),
};
const callsOf = (estimate: ReturnType<typeof estimateSyconRun>) => Object.fromEntries(estimate.byModel.map((model) => [model.model, model.calls]));

describe("a SYCON run's estimate", () => {
  it('counts each model under test, the judge and the agent: the agent only where the question has no push-back of the benchmark', () => {
    const plain = design();
    const estimate = estimateSyconRun(plain, planSyconTasks(plain, QUESTIONS, 1), assumptions);
    // 2 models x 2 defences x 2 questions = 8 conversations of 4 replies each.
    expect(callsOf(estimate)).toEqual({ a: 16, b: 16, j: 32 });
    expect(estimate.unpricedModels).toEqual(['j']);
    const withAgent = design('p');
    // The agent pushes 3 turns on the debate and the third on the false presupposition (it has two push-backs): 4 x 4.
    expect(callsOf(estimateSyconRun(withAgent, planSyconTasks(withAgent, QUESTIONS, 1), assumptions))['p']).toBe(16);
  });

  it('leaves out what the store holds: a whole conversation, or its leading turns', () => {
    const plain = design();
    const estimate = estimateSyconRun(plain, planSyconTasks(plain, QUESTIONS, 1), assumptions, (task) =>
      task.persuadee === 'a' ? { complete: true, storedTurns: 4 } : { complete: false, storedTurns: 1 },
    );
    expect(callsOf(estimate)).toEqual({ b: 12, j: 12 });
    expect(estimate.byModel.find((model) => model.model === 'b')!.outputTokens).toBe(1200);
  });
});
