import { InputError } from '../domain/errors/input-error.js';
import type { StudyRun, StudyRunRecords } from './run-config.js';

/**
 * One resume for every kind of study: which stored study `--resume` continues (named, else the
 * latest of its kind) and the flags typed again that must say what it says. A kind gives its words
 * and its design flags; the checks and the messages are the same for all.
 */

/** How a kind of study is named in what a resume says. */
export interface ResumeWording {
  /** A stored study of the kind, before its name: 'run', 'analysis study', 'judge run'. */
  readonly study: string;
  /** The same, short, in "but study s has ...": 'run', 'study'. */
  readonly short: string;
  /** The command that starts one, said when a store has none to resume: 'pmiyc judge --models a,b'. */
  readonly startOne: string;
  /** What to do instead of resuming with other flags: 'start a new run with --run <name>'. */
  readonly startNew: string;
  /** What continues a stored study, at the head of a refusal (default '--resume'; people serve: 'the same --run'). */
  readonly continuedBy?: string;
  /**
   * For a kind whose design flags are always given (required, or with a default): the words that say
   * to give the stored study's values instead, each flag with its value after them ('Serve it' ->
   * 'Serve it with --role persuadee and without --compare'). Default: drop those flags.
   */
  readonly restateWith?: string;
}

/** A flag that defines a study: typed again on --resume, it must say what the stored study says. */
export interface DesignFlag<Stored, Typed> {
  /** As the user types it: '--models'. */
  readonly flag: string;
  /** The option keys that set it (commander's names). */
  readonly keys: readonly string[];
  /** The stored study's value, as text. */
  readonly stored: (stored: Stored) => string;
  /** The value typed now, as text comparable with `stored`. */
  readonly given: (typed: Typed, stored: Stored) => string;
}

/** What a flag typed again says, beside what the stored study says. */
interface FlagDifference {
  readonly flag: string;
  readonly was: string;
  readonly now: string;
}

/** What a design flag's value is when there is none. */
const NONE = '(none)';
/** Names of a list of models or variants as a design flag compares them. */
export const listText = (names: readonly string[] | undefined): string => (names ?? []).join(',');
/** The same, `(none)` when empty (for a restated flag: 'without --compare'). */
export const listOrNone = (names: readonly string[] | undefined): string => listText(names) || NONE;
/** An optional value as a design flag compares it. */
export const optionalText = (value: unknown): string => (value === undefined ? NONE : String(value));

/**
 * The stored study `--resume` continues: the one named, else `latest` (the latest of its kind).
 * A store with none says how to start one.
 */
export function studyToResume(
  records: Pick<StudyRunRecords, 'findRun' | 'location'>,
  wording: ResumeWording,
  choice: { readonly named?: string | undefined; readonly latest: () => string | undefined },
): StudyRun {
  const name = choice.named ?? choice.latest();
  if (name === undefined) throw new InputError(`${records.location} has no ${wording.study} to resume: start one with ${wording.startOne}`);
  return records.findRun(name);
}

/**
 * The stored study a command continues by its name alone, with no --resume (people serve: the same
 * --run continues), with what its kind stored (`storedOf`): none when the store has no run of that
 * name, and a new study starts; refused when the run is not a study of the kind.
 */
export function studyToContinue<Stored>(
  records: Pick<StudyRunRecords, 'findRun' | 'hasRun'>,
  wording: ResumeWording,
  name: string,
  storedOf: (run: StudyRun) => Stored | undefined,
): { readonly run: StudyRun; readonly stored: Stored } | undefined {
  if (!records.hasRun(name)) return undefined;
  const run = records.findRun(name);
  const stored = storedOf(run);
  if (stored === undefined) throw new InputError(`run ${run.name} is not a ${wording.study}: ${wording.startNew}`);
  return { run, stored };
}

/** The design flags typed now (`typed(key)`) whose value differs from the stored study's. */
function designFlagDifferences<Stored, Typed>(
  checks: readonly DesignFlag<Stored, Typed>[],
  stored: Stored,
  options: Typed,
  typed: (key: string) => boolean,
): FlagDifference[] {
  return checks
    .filter((check) => check.keys.some(typed))
    .map((check) => ({ flag: check.flag, was: check.stored(stored), now: check.given(options, stored) }))
    .filter(({ was, now }) => was !== now);
}

/**
 * Refuses a resume whose flags typed again differ from the stored study (the up-arrow habit is
 * welcome when they agree): each named with both values, and what to do. `more` are the kind's own
 * reasons, said after them.
 */
function refuseChangedDesign(wording: ResumeWording, runName: string, differences: readonly FlagDifference[], more: readonly string[] = []): void {
  const details = [...differences.map(({ flag, was, now }) => `${flag} is ${now}, but ${wording.short} ${runName} has ${was}`), ...more];
  if (details.length === 0) return;
  const head = `${wording.continuedBy ?? '--resume'} continues ${wording.study} ${runName} as it was started`;
  const mend =
    wording.restateWith === undefined || differences.length === 0
      ? 'Drop those flags'
      : `${wording.restateWith} ${differences.map(({ flag, was }) => (was === NONE ? `without ${flag}` : `with ${flag} ${was}`)).join(' and ')}`;
  throw new InputError(`${head}: ${details.join('; ')}. ${mend}, or ${wording.startNew}`);
}

/** The one check of a kind's resume: the flags typed again (`typed(key)`) must say what the stored study says. */
export function checkDesignFlags<Stored, Typed>(
  wording: ResumeWording,
  runName: string,
  checks: readonly DesignFlag<Stored, Typed>[],
  stored: Stored,
  options: Typed,
  typed: (key: string) => boolean,
  more: readonly string[] = [],
): void {
  refuseChangedDesign(wording, runName, designFlagDifferences(checks, stored, options, typed), more);
}

/** Whether an option was typed, for commands whose design flags have no default (so undefined is not typed). */
export const typedWhenGiven =
  (options: object) =>
  (key: string): boolean =>
    Object.entries(options).some(([name, value]) => name === key && value !== undefined);
