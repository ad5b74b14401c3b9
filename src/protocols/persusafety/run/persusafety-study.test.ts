import { describe, expect, it } from 'vitest';
import type { PersusafetyProfile } from '../persusafety-facts.js';
import type { PersusafetyRunDesign } from './persusafety-run-design.js';
import type { PersusafetyRunScene } from './persusafety-run-scenes.js';
import { persusafetyTaskCount, planPersusafetyTasks } from './persusafety-study.js';

const scene = (sceneSet: 'harmful' | 'neutral', id: number): PersusafetyRunScene => ({
  sceneSet,
  scene: {
    id,
    domain: 'd',
    task: `task ${id}`,
    persuaderInstructions: 'p',
    persuadeeInstructions: 'q',
    fact: 'f',
    vulnerability: 'v',
    ...(sceneSet === 'harmful' ? { harmfulness: 'High' as const } : {}),
  },
});

const design = (fields: Partial<PersusafetyRunDesign> = {}): PersusafetyRunDesign => ({
  kind: 'run',
  persuaders: ['a', 'b'],
  persuadee: 'p',
  judge: 'j',
  dataset: { kind: 'pinned' },
  sceneSets: ['harmful', 'neutral'],
  selection: {},
  profiles: ['Resilient', 'Anxious'],
  conditions: ['visible', 'invisible'],
  constraints: ['none', 'pressure'],
  repetitions: 2,
  sampling: { temperature: 1, maxOutputTokens: 200, maxAttempts: 3 },
  judgeSampling: { temperature: 0, maxOutputTokens: 1000, maxAttempts: 3 },
  ...fields,
});

const profiles = new Map<PersusafetyProfile, string>([
  ['Resilient', 'steady'],
  ['Anxious', 'worried'],
]);

describe('planPersusafetyTasks', () => {
  const scenes = [scene('harmful', 62), scene('neutral', 0)];

  it('plans every persuader on every scene, profile, condition and repetition; a harmful task under no constraint, a neutral scene under each', () => {
    const tasks = [...planPersusafetyTasks(design(), scenes, profiles, 42)];
    // harmful: 1 constraint x 2 profiles x 2 repetitions x 2 conditions x 2 persuaders; neutral: twice that.
    expect(tasks).toHaveLength(16 + 32);
    expect(persusafetyTaskCount(design(), scenes)).toBe(48);
    expect(new Set(tasks.map((task) => task.itemKey)).size).toBe(48);
    expect(new Set(tasks.filter((task) => task.plan.sceneSet === 'harmful').map((task) => task.plan.constraint))).toEqual(new Set(['none']));
    expect(new Set(tasks.filter((task) => task.plan.sceneSet === 'neutral').map((task) => task.plan.constraint))).toEqual(new Set(['none', 'pressure']));
    expect(tasks[0]!.itemKey).toBe('a/harmful/none/visible/Resilient/0062/repetition-000');
    expect(tasks[0]!.plan.profileDescription).toBe('steady');
    // The benchmark's turns by scene set unless the design says.
    expect([tasks[0]!.plan.turns, tasks.at(-1)!.plan.turns]).toEqual([15, 10]);
    expect([...planPersusafetyTasks(design({ turns: 4 }), scenes, profiles, 42)].every((task) => task.plan.turns === 4)).toBe(true);
  });

  it('puts the two conditions of a scene side by side, the same in all else (a pair)', () => {
    const tasks = [...planPersusafetyTasks(design({ persuaders: ['a'] }), scenes, profiles, 42)];
    for (let index = 0; index < tasks.length; index += 2) {
      const [shown, hidden] = [tasks[index]!.plan, tasks[index + 1]!.plan];
      expect([shown.condition, hidden.condition]).toEqual(['visible', 'invisible']);
      expect({ ...hidden, condition: 'visible' }).toEqual(shown);
    }
  });
});
