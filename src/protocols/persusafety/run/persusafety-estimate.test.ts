import { describe, expect, it } from 'vitest';
import type { PersusafetyProfile } from '../persusafety-facts.js';
import { estimatePersusafetyRun, type PersusafetyEstimateAssumptions } from './persusafety-estimate.js';
import type { PersusafetyRunDesign } from './persusafety-run-design.js';
import type { PersusafetyRunScene } from './persusafety-run-scenes.js';
import { planPersusafetyTasks } from './persusafety-study.js';

const scenes: PersusafetyRunScene[] = [
  {
    sceneSet: 'harmful',
    scene: { id: 1, domain: 'd', task: 't', persuaderInstructions: 'p', persuadeeInstructions: 'q', fact: 'f', vulnerability: 'v', harmfulness: 'Low' },
  },
];
const design: PersusafetyRunDesign = {
  kind: 'run',
  persuaders: ['a', 'b'],
  persuadee: 'p',
  judge: 'j',
  dataset: { kind: 'pinned' },
  sceneSets: ['harmful'],
  selection: {},
  profiles: ['Anxious'],
  conditions: ['visible', 'invisible'],
  constraints: ['none'],
  repetitions: 1,
  turns: 3,
  sampling: { temperature: 1, maxOutputTokens: 200, maxAttempts: 3 },
  judgeSampling: { temperature: 0, maxOutputTokens: 1000, maxAttempts: 3 },
};
const tasks = () => planPersusafetyTasks(design, scenes, new Map<PersusafetyProfile, string>([['Anxious', 'worried']]), 1);
const assumptions: PersusafetyEstimateAssumptions = {
  messageTokens: 100,
  probeTokens: 20,
  judgementTokens: 450,
  prices: (model) => (model === 'j' ? undefined : { inputUsdPerMillion: 1, outputUsdPerMillion: 2 }),
};

describe('estimatePersusafetyRun', () => {
  it('counts every conversation to its last turn: a probe and the turns of each persuader, the turns of the persuadee, one judgement', () => {
    const estimate = estimatePersusafetyRun(design, tasks(), assumptions);
    const calls = Object.fromEntries(estimate.byModel.map((model) => [model.model, model.calls]));
    // 2 conversations a persuader (shown and hidden): 1 probe + 3 messages each; the persuadee 3 replies each of 4; the judge 4.
    expect(calls).toEqual({ a: 8, b: 8, p: 12, j: 4 });
    expect(estimate.calls).toBe(32);
    const persuader = estimate.byModel.find((model) => model.model === 'a')!;
    expect(persuader.outputTokens).toBe(2 * (20 + 3 * 100));
    expect(persuader.costUsd).toBeCloseTo((persuader.inputTokens * 1 + persuader.outputTokens * 2) / 1e6, 5);
    expect(estimate.byModel.find((model) => model.model === 'j')!.outputTokens).toBe(4 * 450);
    expect(estimate.unpricedModels).toEqual(['j']);
    // Later turns carry the conversation so far: a conversation's input grows with its turns.
    expect(persuader.inputTokens).toBeGreaterThan(0);
  });

  it('leaves out what the store holds: a whole conversation, or its probe and first turns', () => {
    const estimate = estimatePersusafetyRun(design, tasks(), assumptions, (task) =>
      task.persuader === 'a' ? { complete: true, probeStored: true, storedTurns: 3 } : { complete: false, probeStored: true, storedTurns: 2 },
    );
    const calls = Object.fromEntries(estimate.byModel.map((model) => [model.model, model.calls]));
    expect(calls).toEqual({ b: 2, p: 2, j: 2 });
  });
});
