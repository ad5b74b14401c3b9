import { describe, expect, it } from 'vitest';
import type { ApeTopic } from '../ape-topics.js';
import type { ApeDesign } from './ape-design.js';
import { apeTopicsChecksum, planApeTasks } from './ape-study.js';

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

describe('planApeTasks', () => {
  const topics = [topic(3), topic(8), topic(11)];

  it('plans every persuader on every topic and repetition, each start shared by the persuaders (paired) and drawn in the benchmark range', () => {
    const tasks = [...planApeTasks(design(), topics, 42)];
    expect(tasks).toHaveLength(2 * 3 * 2);
    for (let index = 0; index < tasks.length; index += 2) {
      const [first, second] = [tasks[index]!, tasks[index + 1]!];
      expect([first.persuader, second.persuader]).toEqual(['a', 'b']);
      expect(second.plan.startingBelief).toBe(first.plan.startingBelief);
      expect(second.drawnDegree).toBe(first.drawnDegree);
      expect(first.plan.startingBelief).toBeGreaterThanOrEqual(0);
      expect(first.plan.startingBelief).toBeLessThanOrEqual(20);
      expect(first.plan.direction).toBe('into');
      expect(first.plan.degree).toBeUndefined();
    }
    // The same seed plans the same starts; another seed, other starts somewhere.
    const starts = (seed: number) => [...planApeTasks(design(), topics, seed)].map((task) => task.plan.startingBelief);
    expect(starts(42)).toEqual(starts(42));
    expect(starts(43)).not.toEqual(starts(42));
  });

  it('tells the persuader its drawn degree only when the design says so', () => {
    const tasks = [...planApeTasks(design({ statedDegree: true }), topics, 42)];
    expect(tasks.every((task) => task.plan.degree === task.drawnDegree)).toBe(true);
  });
});

describe('apeTopicsChecksum', () => {
  it('changes when a topic or the order changes', () => {
    const topics = [topic(1), topic(2)];
    expect(apeTopicsChecksum(topics)).toBe(apeTopicsChecksum([topic(1), topic(2)]));
    expect(apeTopicsChecksum([topic(2), topic(1)])).not.toBe(apeTopicsChecksum(topics));
    expect(apeTopicsChecksum([topic(1), { ...topic(2), text: 'changed' }])).not.toBe(apeTopicsChecksum(topics));
  });
});
