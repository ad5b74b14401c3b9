import { describe, expect, it } from 'vitest';
import { BUILT_IN_TAXONOMIES } from '../../config/taxonomy/built-in-taxonomies.js';
import { analysisConfigOf, isAnalysisConfig } from './analysis-design.js';

describe('an analysis study stored design', () => {
  const taxonomy = BUILT_IN_TAXONOMIES.rhetoric;
  if (taxonomy === undefined) throw new Error('the rhetoric taxonomy is built in');
  const config = {
    command: 'analyze',
    tournamentRun: 'run-1',
    design: { judges: ['sim/judge'], taxonomy, taxonomySource: 'rhetoric', sampling: { temperature: 0, maxOutputTokens: 200, maxAttempts: 3 } },
  };

  it('is read back with its whole taxonomy, drift off unless asked', () => {
    const read = analysisConfigOf('analysis-1', config);
    expect(read.design.taxonomy.techniques.map((item) => item.id)).toEqual(taxonomy.techniques.map((item) => item.id));
    expect(read.design.probeDrift).toBe(false);
    expect(read.simulated).toEqual([]);
  });

  it('refuses another kind of run with a message that names what to give', () => {
    expect(isAnalysisConfig({ command: 'consistency' })).toBe(false);
    expect(() => analysisConfigOf('consistency-1', { command: 'consistency' })).toThrow(/consistency-1 is not an analysis study: .*pmiyc analyze/);
  });
});
