import { describe, expect, it } from 'vitest';
import type { PmiycConfig } from '../../config/config-schema.js';
import type { Claim } from '../../domain/claim.js';
import { designFromOptions, TOURNAMENT_DEFAULTS } from './tournament-design.js';
import { givenSettingsOf, planTournamentWork, sessionSettings } from './tournament-work.js';

const claims: Claim[] = [{ index: 0, domain: 'subjective', claim: 'Tea beats coffee.', origin: 'test', license: 'MIT' }];
const design = designFromOptions({ ...TOURNAMENT_DEFAULTS, models: ['sim/eloquent', 'bulk'], claims: 'examples' });
const config: PmiycConfig = { models: { bulk: { provider: 'openai', model: 'gpt-4o-mini', batch: { size: 500 } } }, variants: {} };
const env = { OPENAI_API_KEY: 'test' };

describe('givenSettingsOf: what a session is given of the typed settings', () => {
  const typed = { concurrency: 16, maxFailures: 3, maxCost: 2, cache: true, given: new Set(['maxCost']) };

  it('gives a new run every setting, defaults included', () => {
    expect(givenSettingsOf(typed, false)).toEqual({ concurrency: 16, maxFailures: 3, maxCostUsd: 2, cache: true });
  });

  it('gives a resume only the settings typed again, besides --batch and the cache flag', () => {
    expect(givenSettingsOf({ ...typed, batch: true }, true)).toEqual({ maxCostUsd: 2, batch: true, cache: true });
  });
});

describe('sessionSettings: what is given now, else the stored run, else the defaults', () => {
  it('takes given settings over stored ones and keeps --no-cache with the run', () => {
    const stored = { concurrency: 4, cache: false, maxCost: 5, batch: true };
    expect(sessionSettings({}, stored)).toEqual({ concurrency: 4, cache: false, maxCost: 5, batch: true });
    expect(sessionSettings({ concurrency: 8, maxCostUsd: 2, cache: true }, stored)).toEqual({ concurrency: 8, cache: false, maxCost: 2, batch: true });
    expect(sessionSettings({}, undefined)).toEqual({ concurrency: 16, cache: true });
  });
});

describe('planTournamentWork: the work a run and its dry run share', () => {
  it('keeps 4 conversations per call slot in flight when nothing is batched', () => {
    const direct: PmiycConfig = { models: { bulk: { provider: 'openai', model: 'gpt-4o-mini' } }, variants: {} };
    const work = planTournamentWork(design, claims, direct, env, sessionSettings({ concurrency: 3 }, undefined));
    expect(work.names).toEqual(['sim/eloquent', 'bulk']);
    expect(work.batched).toEqual([]);
    expect(work.window).toBe(12);
  });

  it('fills the largest batch when a model is batched, unless the direct window is larger', () => {
    expect(planTournamentWork(design, claims, config, env, sessionSettings({ concurrency: 3 }, undefined))).toMatchObject({ batched: ['bulk'], window: 500 });
    expect(planTournamentWork(design, claims, config, env, sessionSettings({ concurrency: 200 }, undefined)).window).toBe(800);
  });

  it('refuses a model without prices under a budget before anything runs', () => {
    expect(() => planTournamentWork(design, claims, config, env, sessionSettings({ maxCostUsd: 1 }, undefined))).toThrow(
      '--max-cost needs prices for every model',
    );
  });
});
