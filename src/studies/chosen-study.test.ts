import { describe, expect, it } from 'vitest';
import { BUILT_IN_TAXONOMIES } from '../config/taxonomy/built-in-taxonomies.js';
import { InputError } from '../domain/errors/input-error.js';
import { type ChosenStudy, chooseStudy } from './chosen-study.js';
import { readRunConfig, type StudyRun } from './run-config.js';

const taxonomy = BUILT_IN_TAXONOMIES.rhetoric!;
const design = { judges: ['sim/judge'], taxonomy, taxonomySource: 'rhetoric', sampling: { temperature: 0, maxOutputTokens: 200, maxAttempts: 3 } };

/**
 * A store as the chooser reads it, kept in memory: runs in the order made (the id), each study's list
 * oldest first, as the SQLite store answers (`studyNames` orders by id).
 */
function storeOf(stored: ReadonlyArray<readonly [name: string, config: Record<string, unknown>]>, held: { judged?: string[]; labelled?: string[] } = {}) {
  const runs: StudyRun[] = stored.map(([name, config], index) => ({
    id: index + 1,
    name,
    createdAt: '2026-12-01T00:00:00.000Z',
    status: 'completed',
    seed: 0,
    packageVersion: '0.0.0',
    config: readRunConfig(config),
    storedConfig: config,
  }));
  const named = (id: number) => runs.find((run) => run.id === id)!.name;
  const linked = (command: string, tournamentRun: string) =>
    stored.filter(([, config]) => config.command === command && config.tournamentRun === tournamentRun).map(([name]) => name);
  return {
    findRun(name: string): StudyRun {
      const run = runs.find((candidate) => candidate.name === name);
      if (!run) throw new InputError(`no run ${name}`);
      return run;
    },
    hasRun: (name: string) => runs.some((run) => run.name === name),
    analysis: { studyNames: (tournamentRun?: string) => linked('analyze', tournamentRun!) },
    consistency: { studyNames: (tournamentRun?: string) => linked('consistency', tournamentRun!) },
    judge: { count: (runId: number) => (held.judged?.includes(named(runId)) ? 12 : 0) },
    annotations: { annotators: (runId: number) => (held.labelled?.includes(named(runId)) ? [{ annotator: 'alice', labels: 4 }] : []) },
  };
}

const analysis = (tournamentRun: string) => ({ command: 'analyze', tournamentRun, design });
const store = storeOf([
  ['tour', { command: 'run' }],
  ['other', { command: 'run' }],
  ['plain', { command: 'run' }],
  ['first-look', analysis('tour')],
  ['other-look', analysis('other')],
  ['second-look', analysis('tour')],
  ['opinions', { command: 'consistency', tournamentRun: 'tour', simulated: [] }],
]);
const run = (name: string) => store.findRun(name);
const shown = (study: ChosenStudy | undefined) => study && { name: study.name, id: study.study.id, of: study.of.name, studies: study.studies };
const refusal = (asked: string, runs: string[]) => {
  try {
    chooseStudy(store, { kind: 'analysis', runs: runs.map(run), asked });
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error(`${asked} was chosen`);
};

describe('the one chooser of a study', () => {
  it('gives the study asked for by name, with the run it belongs to and that run’s studies oldest first', () => {
    expect(shown(chooseStudy(store, { kind: 'analysis', runs: [run('tour')], asked: 'first-look' }))).toEqual({
      name: 'first-look',
      id: 4,
      of: 'tour',
      studies: ['first-look', 'second-look'],
    });
  });

  it('gives the latest study made when none is asked for, across every reported run, and nothing for a run without one', () => {
    expect(shown(chooseStudy(store, { kind: 'analysis', runs: [run('tour')] }))?.name).toBe('second-look');
    // other-look (id 5) was made before second-look (id 6), though its run is named first.
    expect(shown(chooseStudy(store, { kind: 'analysis', runs: [run('other'), run('tour')] }))).toMatchObject({ name: 'second-look', of: 'tour' });
    expect(shown(chooseStudy(store, { kind: 'analysis', runs: [run('other')] }))).toMatchObject({ name: 'other-look', studies: ['other-look'] });
    expect(chooseStudy(store, { kind: 'analysis', runs: [run('plain')] })).toBeUndefined();
  });

  it('refuses a name that is no run, listing the run’s studies or saying how to make one', () => {
    expect(refusal('nope', ['tour'])).toBe('nope is not an analysis study of run tour: its studies are first-look, second-look');
    expect(refusal('nope', ['plain'])).toBe('run plain has no analysis study (so none named nope): make one with pmiyc analyze --run plain --judge MODEL');
    expect(refusal('nope', ['tour', 'other'])).toBe('nope is not an analysis study of runs tour, other: their studies are first-look, second-look, other-look');
  });

  it('refuses a study of another run, naming that run', () => {
    expect(refusal('other-look', ['tour'])).toBe('other-look is an analysis study of run other, not of run tour: its studies are first-look, second-look');
    expect(refusal('other-look', ['plain'])).toBe(
      'other-look is an analysis study of run other, not of run plain: run plain has no analysis study; make one with pmiyc analyze --run plain --judge MODEL',
    );
  });

  it('refuses a run of another kind, saying what it is', () => {
    expect(refusal('opinions', ['tour'])).toBe('opinions is a consistency study, not an analysis study: its studies are first-look, second-look');
    expect(refusal('other', ['tour'])).toBe('other is a tournament run, not an analysis study: its studies are first-look, second-look');
  });

  it('gives every consistency study of the reported runs once: a run that is one itself, and those that name a run', () => {
    const every = chooseStudy(store, { kind: 'consistency', runs: [run('opinions'), run('tour'), run('plain')], every: true });
    expect(every.map(shown)).toEqual([{ name: 'opinions', id: 7, of: 'opinions', studies: ['opinions'] }]);
    expect(chooseStudy(store, { kind: 'consistency', runs: [run('tour')], asked: 'opinions' })).toMatchObject({ name: 'opinions', of: { name: 'tour' } });
  });

  it('gives the reported runs that hold judge trials or imported labels as their judge and annotation studies', () => {
    const held = storeOf(
      [
        ['judged', { command: 'judge' }],
        ['tour', { command: 'run' }],
        ['labelled', { command: 'run' }],
      ],
      { judged: ['judged'], labelled: ['labelled'] },
    );
    const runs = ['judged', 'tour', 'labelled'].map((name) => held.findRun(name));
    expect(chooseStudy(held, { kind: 'judge', runs, every: true }).map((study) => study.name)).toEqual(['judged']);
    expect(chooseStudy(held, { kind: 'annotation', runs, every: true }).map((study) => study.name)).toEqual(['labelled']);
    expect(() => chooseStudy(held, { kind: 'judge', runs: [held.findRun('tour')], asked: 'judged' })).toThrow(
      'judged is a judge run, but not one of the reported runs: run tour has no judge run; make one with pmiyc judge --models a,b',
    );
  });
});
