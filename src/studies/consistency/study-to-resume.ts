import { InputError } from '../../domain/errors/input-error.js';
import type { StudyRun, StudyRunRecords } from '../run-config.js';
import { checkDesignFlags, type DesignFlag, listText, optionalText, type ResumeWording, studyToResume, typedWhenGiven } from '../study-resume.js';
import { type ConsistencyDesign, consistencyConfigOf } from './consistency-design.js';
import type { ConsistencyResults } from './consistency-results.js';

/** What a resumed study is: its run, its own design, the tournament run it compares with, its config file. */
export interface ConsistencyToResume {
  readonly run: StudyRun;
  readonly design: ConsistencyDesign;
  readonly tournamentRun?: string;
  readonly configPath?: string;
}

/** The flags `--resume` compares with a stored consistency study. */
export interface ConsistencyResumeFlags {
  readonly study?: string;
  readonly run?: string;
  readonly models?: readonly string[];
  readonly limit?: number;
  readonly sample?: number;
}

const WORDING: ResumeWording = {
  study: 'consistency study',
  short: 'study',
  startOne: 'pmiyc consistency --models a,b --claims subjective',
  startNew: 'start a new study (without --resume)',
};

/** What a stored study is compared on: its design and the tournament run it compares with. */
interface StoredStudy {
  readonly design: ConsistencyDesign;
  readonly tournamentRun?: string | undefined;
}

const DESIGN_FLAGS: readonly DesignFlag<StoredStudy, ConsistencyResumeFlags>[] = [
  { flag: '--models', keys: ['models'], stored: (study) => listText(study.design.models), given: (flags) => listText(flags.models) },
  { flag: '--limit', keys: ['limit'], stored: (study) => optionalText(study.design.claims.limit), given: (flags) => optionalText(flags.limit) },
  { flag: '--sample', keys: ['sample'], stored: (study) => optionalText(study.design.claims.sample), given: (flags) => optionalText(flags.sample) },
  { flag: '--run', keys: ['run'], stored: (study) => optionalText(study.tournamentRun), given: (flags) => optionalText(flags.run) },
];

/**
 * The consistency study `--resume` continues (named, or the latest), with its stored design (see
 * `studies/study-resume.ts`): flags typed again must say what it says; a study imported from a file
 * is complete and refused.
 */
export function consistencyStudyToResume(
  store: Pick<StudyRunRecords, 'findRun' | 'location'> & { readonly consistency: Pick<ConsistencyResults, 'studyNames'> },
  options: ConsistencyResumeFlags,
): ConsistencyToResume {
  const run = studyToResume(store, WORDING, { named: options.study, latest: () => store.consistency.studyNames().at(-1) });
  const config = consistencyConfigOf(run.name, run.config);
  if (!config.design) throw new InputError(`study ${run.name} was imported from a file and is complete: there is nothing to resume`);
  const stored = { design: config.design, tournamentRun: config.tournamentRun };
  checkDesignFlags(WORDING, run.name, DESIGN_FLAGS, stored, options, typedWhenGiven(options));
  return {
    run,
    design: config.design,
    ...(config.tournamentRun ? { tournamentRun: config.tournamentRun } : {}),
    ...(config.configPath ? { configPath: config.configPath } : {}),
  };
}
