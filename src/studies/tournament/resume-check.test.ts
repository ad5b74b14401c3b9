import { describe, expect, it } from 'vitest';
import { checkResumeSeeds } from './resume-check.js';
import type { StoredDesign } from './tournament-design.js';

/** A design as a run stored it before calls were seeded by request: no `callSeeds`. */
const before: StoredDesign = {
  persuaders: ['alpha', 'beta'],
  persuadees: ['alpha', 'beta'],
  settings: ['single'],
  multiTurns: 9,
  repetitions: 1,
  claims: { source: 'examples' },
  sampling: { temperature: 0.7, maxOutputTokens: 400, maxAttempts: 3 },
};
const persuaderOnly = { x: { persuader: { system: '{{claim}} {{format}}' } } };

describe('checkResumeSeeds', () => {
  it('resumes a run whose seeds are the same either way: no variants, one repetition', () => {
    expect(() => checkResumeSeeds('old', before)).not.toThrow();
    // A variant that replaces the prompts of both roles was seeded by its own name then as now.
    const both = { y: { persuader: { system: '{{claim}} {{format}}' }, persuadee: { opening: 'Your view?' } } };
    expect(() => checkResumeSeeds('old', { ...before, persuaders: ['alpha', 'alpha+y'], variants: both })).not.toThrow();
  });

  it('refuses to mix two ways of seeding in one run, and says how to go on', () => {
    const withVariant = { ...before, persuaders: ['alpha', 'alpha+x'], variants: persuaderOnly };
    expect(() => checkResumeSeeds('old', withVariant)).toThrow(
      "run old was started by an earlier pmiyc that seeded its calls differently: it asked alpha+x for requests of their own where today they share their model's",
    );
    expect(() => checkResumeSeeds('old', { ...before, repetitions: 3 })).toThrow(/its 3 repetitions share their openings .*start a new run \(--run <name>\)/);
  });

  it('resumes any run started with seeds by request', () => {
    expect(() =>
      checkResumeSeeds('new', { ...before, repetitions: 3, persuaders: ['alpha+x'], variants: persuaderOnly, callSeeds: 'by-request' }),
    ).not.toThrow();
  });
});
