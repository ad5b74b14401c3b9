import { InputError } from '../domain/errors/input-error.js';
import type { AnalysisResults } from './analysis/analysis-results.js';
import type { AnnotationResults } from './annotation/annotation-results.js';
import type { ConsistencyResults } from './consistency/consistency-results.js';
import type { JudgeResults } from './judge/judge-results.js';
import type { RunConfig, StudyRun } from './run-config.js';

/*
 * The one answer to "which study?" for every reader of a store: the report, the viewer, `pmiyc show`
 * and `pmiyc export`. A study belongs to a run: an analysis study (`pmiyc analyze`) and a consistency
 * study (`pmiyc consistency --run`) are runs of their own that name the run they study; a consistency
 * study and a judge run may be reported themselves; an annotation study is the labels imported into
 * the run they label. The studies that resume a run choose in their own modules: a resume names the
 * study it continues, it does not read one.
 */

/** The kinds of study a reader chooses among. */
export type StudyKind = 'analysis' | 'consistency' | 'judge' | 'annotation';

/** What choosing a study of each kind reads of a store: runs by name, and the kind's own table. */
interface StudyTables {
  readonly analysis: { readonly analysis: Pick<AnalysisResults, 'studyNames'> };
  readonly consistency: { readonly consistency: Pick<ConsistencyResults, 'studyNames'> };
  readonly judge: { readonly judge: Pick<JudgeResults, 'count'> };
  readonly annotation: { readonly annotations: Pick<AnnotationResults, 'annotators'> };
}

/** A store (or a test's stand-in) as the chooser reads it for a study of `Kind`. */
export type StudySource<Kind extends StudyKind> = {
  findRun(name: string): StudyRun;
  hasRun(name: string): boolean;
} & StudyTables[Kind];

/** A study chosen, with the reported run it belongs to and that run's other studies of its kind. */
export interface ChosenStudy {
  readonly kind: StudyKind;
  readonly name: string;
  /** The study's run: its own (analysis, consistency), or the reported run that holds it (judge trials, annotation labels). */
  readonly study: StudyRun;
  /** The reported run the study belongs to (the study's own run when it is reported itself). */
  readonly of: StudyRun;
  /** The names of the studies of this kind of that run, oldest first. */
  readonly studies: readonly string[];
}

/** Which studies of a kind a reader wants, of which reported runs. */
export interface StudyRequest<Kind extends StudyKind> {
  readonly kind: Kind;
  /** The reported runs (at least one), in the order the user named them. */
  readonly runs: readonly StudyRun[];
}

/** How each kind's studies are found and named. */
interface KindRules<Kind extends StudyKind> {
  /** The kind in a message, with its article. */
  readonly noun: string;
  /** The command that makes a study of this kind of `run`. */
  readonly make: (run: string) => string;
  /** The names of the kind's studies of a reported run, oldest first. */
  readonly studiesOf: (source: StudySource<Kind>, run: StudyRun) => string[];
  /** Whether a run is a study of this kind (of any run). */
  readonly isStudy: (source: StudySource<Kind>, run: StudyRun) => boolean;
  /** The run a study of this kind belongs to (its own name when it belongs to none). */
  readonly ownerOf: (study: StudyRun) => string;
}

/** A study that names the run it studies belongs to that run. */
const linkedOwner = (study: StudyRun): string =>
  (study.config.kind === 'analyze' || study.config.kind === 'consistency' ? study.config.tournamentRun : undefined) ?? study.name;

/** A kind whose study is a reported run itself (its judge trials, the labels imported into it), when it holds any. */
function heldByTheRun<Kind extends StudyKind>(noun: string, make: (run: string) => string, isStudy: KindRules<Kind>['isStudy']): KindRules<Kind> {
  return { noun, make, isStudy, studiesOf: (source, run) => (isStudy(source, run) ? [run.name] : []), ownerOf: (study) => study.name };
}

const RULES: { readonly [Kind in StudyKind]: KindRules<Kind> } = {
  analysis: {
    noun: 'an analysis study',
    make: (run) => `pmiyc analyze --run ${run} --judge MODEL`,
    studiesOf: (source, run) => source.analysis.studyNames(run.name),
    isStudy: (_source, run) => run.config.kind === 'analyze',
    ownerOf: linkedOwner,
  },
  consistency: {
    noun: 'a consistency study',
    make: (run) => `pmiyc consistency --run ${run} --models a,b`,
    studiesOf: (source, run) => (run.config.kind === 'consistency' ? [run.name] : source.consistency.studyNames(run.name)),
    isStudy: (_source, run) => run.config.kind === 'consistency',
    ownerOf: linkedOwner,
  },
  judge: heldByTheRun(
    'a judge run',
    () => 'pmiyc judge --models a,b',
    (source, run) => source.judge.count(run.id) > 0,
  ),
  annotation: heldByTheRun(
    'an annotation study',
    (run) => `pmiyc annotate export --run ${run}, then annotate serve and annotate import`,
    (source, run) => source.annotations.annotators(run.id).length > 0,
  ),
};

/** What a run is, for a message that says a name is not the study asked for. */
const RUN_KINDS: Readonly<Record<RunConfig['kind'], string>> = {
  tournament: 'a tournament run',
  import: 'an imported tournament run',
  'people serve': 'a people study',
  consistency: 'a consistency study',
  judge: 'a judge run',
  'judge-synthesize': 'a synthesis run',
  analyze: 'an analysis study',
  protocol: "a protocol's run (APE, ...)",
  'protocol-analysis': "another judge's study of a protocol's run",
  unreadable: 'a run whose config this pmiyc cannot read',
};

/** Every study of the kind of the reported runs: per run in the order given, oldest first, each study once. */
function everyStudy<Kind extends StudyKind>(source: StudySource<Kind>, request: StudyRequest<Kind>): ChosenStudy[] {
  const rules: KindRules<Kind> = RULES[request.kind];
  const found = new Map<string, ChosenStudy>();
  for (const run of request.runs) {
    const studies = rules.studiesOf(source, run);
    for (const name of studies) {
      if (found.has(name)) continue;
      found.set(name, { kind: request.kind, name, study: name === run.name ? run : source.findRun(name), of: run, studies });
    }
  }
  return [...found.values()];
}

/** Why `asked` is none of `every`: no run at all, a run of another kind or a study of another run; and what there is instead. */
function notFoundMessage<Kind extends StudyKind>(source: StudySource<Kind>, request: StudyRequest<Kind>, asked: string, every: readonly ChosenStudy[]): string {
  const rules: KindRules<Kind> = RULES[request.kind];
  const names = request.runs.map((run) => run.name);
  const one = names.length === 1;
  const reported = `${one ? 'run' : 'runs'} ${names.join(', ')}`;
  const none = `${reported} ${one ? 'has' : 'have'} no ${rules.noun.replace(/^an? /, '')}`;
  const make = `make one with ${rules.make(names[0]!)}`;
  if (!source.hasRun(asked) && every.length === 0) return `${none} (so none named ${asked}): ${make}`;
  const instead = every.length === 0 ? `${none}; ${make}` : `${one ? 'its' : 'their'} studies are ${every.map((study) => study.name).join(', ')}`;
  if (!source.hasRun(asked)) return `${asked} is not ${rules.noun} of ${reported}: ${instead}`;
  const run = source.findRun(asked);
  if (!rules.isStudy(source, run)) return `${asked} is ${RUN_KINDS[run.config.kind]}, not ${rules.noun}: ${instead}`;
  const owner = rules.ownerOf(run);
  if (owner === asked) return `${asked} is ${rules.noun}, but not one of the reported runs: ${instead}`;
  return `${asked} is ${rules.noun} of run ${owner}, not of ${reported}: ${instead}`;
}

/**
 * The study of a kind that a reader shows, of the reported runs: the one `asked` for by name, else the
 * latest made (the highest run id); undefined when the runs have none. A name that is not one of
 * their studies is an InputError that says what it is instead (a run of another kind, a study of
 * another run, no run) and lists their studies or the command that makes one. With `every: true`,
 * every study of the kind of the runs instead (none asked): per run in the order given, oldest first.
 */
export function chooseStudy<Kind extends StudyKind>(source: StudySource<Kind>, request: StudyRequest<Kind> & { readonly every: true }): ChosenStudy[];
export function chooseStudy<Kind extends StudyKind>(
  source: StudySource<Kind>,
  request: StudyRequest<Kind> & { readonly asked?: string | undefined; readonly every?: false },
): ChosenStudy | undefined;
export function chooseStudy<Kind extends StudyKind>(
  source: StudySource<Kind>,
  request: StudyRequest<Kind> & { readonly asked?: string | undefined; readonly every?: boolean },
): ChosenStudy[] | ChosenStudy | undefined {
  const every = everyStudy(source, request);
  if (request.every) return every;
  const asked = request.asked;
  if (asked === undefined)
    return every.reduce<ChosenStudy | undefined>((latest, study) => (latest && latest.study.id > study.study.id ? latest : study), undefined);
  const found = every.find((study) => study.name === asked);
  if (!found) throw new InputError(notFoundMessage(source, request, asked, every));
  return found;
}
