import { describe, expect, it } from 'vitest';
import { withExperiment } from './experiment-options.js';

const experiment = {
  models: ['alpha', 'beta'],
  persuaderVariants: ['default', 'emotional'],
  claims: { file: 'claims.jsonl', limit: 5 },
  settings: 'single' as const,
  sampling: { temperature: 0.2 },
  budget: { maxCostUsd: 3 },
  concurrency: 8,
};

describe('the experiment block and the command line', () => {
  it('fills in what no flag says, files relative to the config', () => {
    const options = withExperiment({ given: new Set<string>(), temperature: 0.7, setting: 'both' }, experiment, '/work/exp/pmiyc.yaml');
    expect(options).toMatchObject({
      models: ['alpha', 'beta'],
      persuaderVariants: ['default', 'emotional'],
      claims: '/work/exp/claims.jsonl',
      limit: 5,
      setting: 'single',
      temperature: 0.2,
      maxCost: 3,
      concurrency: 8,
    });
  });

  it('lets every typed flag win, and typed models replace the config’s whole choice of agents', () => {
    const given = new Set(['temperature', 'persuaders']);
    const options = withExperiment({ given, temperature: 1, persuaders: ['gamma'] }, experiment, '/work/pmiyc.yaml');
    expect(options.temperature).toBe(1);
    expect(options).not.toHaveProperty('models');
    expect(options.persuaders).toEqual(['gamma']);
    expect(options).toMatchObject({ persuaderVariants: ['default', 'emotional'], setting: 'single' });
  });

  it("fills in an APE run's options from a protocol: ape block, its topic file and data folder relative to the config", () => {
    const ape = {
      protocol: 'ape' as const,
      models: ['alpha'],
      persuadee: 'beta',
      evaluator: 'judge',
      refusalCheck: 'checker',
      categories: ['Conspiracy'],
      topics: { file: 'topics.jsonl', sample: 20, dataDir: 'data' },
      stateDegree: true,
      repetitions: 2,
    };
    expect(withExperiment({ given: new Set(['evaluator']), evaluator: 'typed' }, ape, '/work/exp/pmiyc.yaml')).toMatchObject({
      protocol: 'ape',
      models: ['alpha'],
      persuadee: 'beta',
      evaluator: 'typed',
      refusalCheck: 'checker',
      categories: ['Conspiracy'],
      topics: '/work/exp/topics.jsonl',
      sample: 20,
      dataDir: '/work/exp/data',
      stateDegree: true,
      repeat: 2,
    });
  });

  it('makes a sequential run of a sequential block, a typed option winning over its key', () => {
    const sequential = { ...experiment, sequential: { until: 'settled' as const, precision: 0.2, wave: 25 } };
    expect(withExperiment({ given: new Set<string>() }, sequential, '/work/pmiyc.yaml')).toMatchObject({ until: 'settled', precision: 0.2, wave: 25 });
    const typed = withExperiment({ given: new Set(['wave']), wave: 5 }, sequential, '/work/pmiyc.yaml');
    expect(typed).toMatchObject({ until: 'settled', wave: 5 });
    expect(typed).not.toHaveProperty('confidence');
  });

  it('changes nothing without a config', () => {
    const options = { given: new Set<string>(), temperature: 0.7 };
    expect(withExperiment(options, undefined, undefined)).toBe(options);
  });
});
