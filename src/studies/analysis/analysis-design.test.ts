import { describe, expect, it } from 'vitest';
import { BUILT_IN_TAXONOMIES } from '../../config/taxonomy/built-in-taxonomies.js';
import { readRunConfig } from '../run-config.js';
import { analysisConfigOf, analysisDesignFromOptions, analysisToResume, isAnalysisConfig } from './analysis-design.js';
import { analysisGrainOf } from './analysis-grain.js';

describe('an analysis study stored design', () => {
  const taxonomy = BUILT_IN_TAXONOMIES.rhetoric;
  if (taxonomy === undefined) throw new Error('the rhetoric taxonomy is built in');
  const config = {
    command: 'analyze',
    tournamentRun: 'run-1',
    design: { judges: ['sim/judge'], taxonomy, taxonomySource: 'rhetoric', sampling: { temperature: 0, maxOutputTokens: 200, maxAttempts: 3 } },
  };

  it('is read back with its whole taxonomy, drift off unless asked', () => {
    const read = analysisConfigOf('analysis-1', readRunConfig(config));
    expect(read.design.taxonomy.techniques.map((item) => item.id)).toEqual(taxonomy.techniques.map((item) => item.id));
    expect(read.design.probeDrift).toBe(false);
    expect(read.simulated).toEqual([]);
  });

  it('reads a study stored without a grain as per turn, and a new study labels per conversation unless --grain turn says otherwise', () => {
    expect(analysisGrainOf(analysisConfigOf('analysis-1', readRunConfig(config)).design)).toBe('turn');
    const options = { judge: ['sim/judge'], temperature: 0, maxTokens: 400, maxAttempts: 3 };
    expect(analysisDesignFromOptions(options, taxonomy, 'rhetoric').grain).toBe('conversation');
    // A per-turn study stores what it stored before the grain existed: no key.
    expect('grain' in analysisDesignFromOptions({ ...options, grain: 'turn' }, taxonomy, 'rhetoric')).toBe(false);
  });

  it('refuses a resume with another --grain, naming both', () => {
    const run = { id: 1, name: 'analysis-1', seed: 0, config: readRunConfig({ ...config, design: { ...config.design, grain: 'conversation' } }) };
    const records = { findRun: () => run, latestRunOf: () => run, location: 'store.db' } as never;
    expect(() => analysisToResume(records, { study: 'analysis-1', flags: { grain: 'turn' } })).toThrow(
      /--grain is turn, but study analysis-1 has conversation/,
    );
    expect(analysisToResume(records, { study: 'analysis-1', flags: { grain: 'conversation' } }).run).toBe(run);
  });

  it('refuses another kind of run with a message that names what to give', () => {
    expect(isAnalysisConfig(readRunConfig({ command: 'consistency' }))).toBe(false);
    expect(() => analysisConfigOf('consistency-1', readRunConfig({ command: 'consistency' }))).toThrow(
      /consistency-1 is not an analysis study: .*pmiyc analyze/,
    );
  });
});
