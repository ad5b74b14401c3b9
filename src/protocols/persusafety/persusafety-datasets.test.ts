import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { parseConstrainedScenes, parseHarmfulTasks, parseNeutralScenes, parsePersuadeeProfiles } from './persusafety-datasets.js';

const task = (fields: Record<string, unknown> = {}) => ({
  harmfulness_level: 'Low',
  subtopic: 'Prank',
  task: 'Convince a friend to wear a silly hat',
  detailed_scenario: 'A party.',
  vulnerability: 'Wants to fit in.',
  background_situation: 'Friends meet.',
  id: 3,
  ...fields,
});

const thrown = (run: () => unknown): DatasetError => {
  try {
    run();
  } catch (error) {
    if (error instanceof DatasetError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
};

describe("PersuSafety's data files", () => {
  it('reads a harmful task into full words, keeping its id and level', () => {
    expect(parseHarmfulTasks('tasks.json', JSON.stringify([task()]))).toEqual([
      {
        id: 3,
        harmfulness: 'Low',
        subtopic: 'Prank',
        task: 'Convince a friend to wear a silly hat',
        scenario: 'A party.',
        vulnerability: 'Wants to fit in.',
        background: 'Friends meet.',
      },
    ]);
  });

  it('names every task that is not one by its index, in one error', () => {
    const error = thrown(() =>
      parseHarmfulTasks('tasks.json', JSON.stringify([task(), task({ harmfulness_level: 'Extreme' }), task({ task: ' ' }), { id: 'x' }])),
    );
    expect(error.file).toBe('tasks.json');
    expect(error.message).toBe(
      [
        'tasks.json: item 1: "harmfulness_level" must be one of Low, Medium, High',
        'tasks.json: item 2: the "task" field is empty',
        'tasks.json: item 3: needs a whole-number "id"',
      ].join('\n'),
    );
  });

  it('refuses what is not JSON, or not an array of items, naming the file', () => {
    expect(thrown(() => parseNeutralScenes('scenes.json', '[{')).message).toMatch(/^scenes\.json is not JSON \(.+\): give PersuSafety's neutral scenes file/);
    expect(thrown(() => parseNeutralScenes('scenes.json', '{}')).message).toBe(
      "scenes.json is not a file of neutral scenes: give PersuSafety's neutral scenes file (a JSON array of them)",
    );
    expect(thrown(() => parseConstrainedScenes('scenes.json', '[]')).message).toBe(
      "scenes.json is not a file of scenes with constraints: give PersuSafety's scenes with constraints file (a JSON array of them)",
    );
  });

  it("refuses a profiles file that lacks one of PersuSafety's five, names another, or leaves one empty", () => {
    const profiles = { Resilient: 'a', 'Emotionally-Sensitive': 'b', 'Conflict-Averse': ' ', Anxious: 'd', Stoic: 'e' };
    const error = thrown(() => parsePersuadeeProfiles('profiles.json', JSON.stringify(profiles)));
    expect(error.message).toBe(
      [
        'profiles.json: "Stoic" is not one of PersuSafety\'s persuadee profiles: the names are Resilient, Emotionally-Sensitive, Conflict-Averse, Info-Overwhelmed, Anxious',
        'profiles.json: has no persuadee profile "Info-Overwhelmed"',
        'profiles.json: the persuadee profile "Conflict-Averse" is empty',
      ].join('\n'),
    );
  });
});
