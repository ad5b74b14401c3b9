import { describe, expect, it } from 'vitest';
import { consistencyStudyToResume } from './consistency/study-to-resume.js';
import { judgeRunToResume } from './judge/judge-design.js';
import { peopleStudyToContinue } from './people/people-resume.js';
import { readRunConfig } from './run-config.js';

const sampling = { temperature: 0, maxOutputTokens: 200, maxAttempts: 3 };

/** A store holding one stored study of a kind, as a resume reads it. */
function storeWith(name: string, config: Record<string, unknown>, hasLatest = true) {
  const latest = hasLatest ? name : undefined;
  const run = { id: 1, name, seed: 0, config: readRunConfig(config) };
  const findRun = (asked?: string) => {
    if (asked !== name) throw new Error(`no run ${asked}`);
    return run;
  };
  return {
    run,
    store: {
      findRun,
      hasRun: (asked: string) => asked === name,
      location: 'store.db',
      consistency: { studyNames: () => (latest ? [latest] : []) },
      judge: { latestRunOf: () => latest },
    } as never,
  };
}

describe('one resume for every study kind', () => {
  const consistency = storeWith('consistency-1', {
    command: 'consistency',
    design: { models: ['sim/a', 'sim/b'], samples: 3, claims: { source: 'examples', limit: 4 }, sampling },
    tournamentRun: 'run-1',
  });
  const judge = storeWith('judge-1', { command: 'judge', design: { judges: ['sim/a', 'sim/b'], pairs: { source: 'anthropic' }, sampling } });

  it('welcomes the design flags typed again when they say what the stored study says (the up-arrow habit)', () => {
    const again = { models: ['sim/a', 'sim/b'], limit: 4, run: 'run-1' };
    expect(consistencyStudyToResume(consistency.store, again).run).toBe(consistency.run);
    expect(judgeRunToResume(judge.store, { models: ['sim/a', 'sim/b', 'sim/a'], pairs: 'anthropic' }).run).toBe(judge.run);
  });

  it('refuses a flag typed again with another value, in the same words for every kind, naming both values and what to do', () => {
    expect(() => consistencyStudyToResume(consistency.store, { models: ['sim/a'], sample: 2 })).toThrow(
      '--resume continues consistency study consistency-1 as it was started: --models is sim/a, but study consistency-1 has sim/a,sim/b; ' +
        '--sample is 2, but study consistency-1 has (none). Drop those flags, or start a new study (without --resume)',
    );
    expect(() => judgeRunToResume(judge.store, { models: ['sim/a', 'sim/c'] })).toThrow(
      '--resume continues judge run judge-1 as it was started: --models is sim/a,sim/c, but run judge-1 has sim/a,sim/b. Drop those flags, or start a new run (without --resume)',
    );
  });

  it('resumes the latest study of its kind when none is named, and says how to start one when the store has none', () => {
    expect(consistencyStudyToResume(consistency.store, {}).run.name).toBe('consistency-1');
    const empty = storeWith('judge-1', { command: 'judge', design: { judges: ['sim/a'], pairs: { source: 'anthropic' }, sampling } }, false);
    expect(() => judgeRunToResume(empty.store, {})).toThrow('store.db has no judge run to resume: start one with pmiyc judge --models a,b');
  });
});

describe('a people study continued by its name alone (the same --run, no --resume), through the same resume', () => {
  const people = { role: 'persuadee', opponent: 'sim/eloquent', compare: [], turns: 5, text: {} };
  const study = storeWith('pilot', { command: 'people serve', people });
  const flags = { role: 'persuadee', opponent: 'sim/eloquent', compare: [], turns: 5 } as const;

  it('continues the stored study of that name when the flags say what it says, and starts a new one when the store has none', () => {
    expect(peopleStudyToContinue(study.store, 'pilot', flags)).toEqual({ run: study.run, stored: people });
    expect(peopleStudyToContinue(study.store, 'pilot-2', flags)).toBeUndefined();
  });

  it("refuses another design in the resume's words, naming the flags to give instead (all are given: no --resume to drop them from)", () => {
    expect(() => peopleStudyToContinue(study.store, 'pilot', { ...flags, role: 'persuader', compare: ['sim/a'] })).toThrow(
      'the same --run continues people study pilot as it was started: --role is persuader, but study pilot has persuadee; ' +
        '--compare is sim/a, but study pilot has (none). Serve it with --role persuadee and without --compare, or choose another --run',
    );
  });

  it('refuses a run of another kind of that name', () => {
    const judge = storeWith('pilot', { command: 'judge', design: { judges: ['sim/a'], pairs: { source: 'anthropic' }, sampling } });
    expect(() => peopleStudyToContinue(judge.store, 'pilot', flags)).toThrow('run pilot is not a people study: choose another --run');
  });
});
