import type { StudyRun, StudyRunRecords } from '../run-config.js';
import { checkDesignFlags, type DesignFlag, listOrNone, type ResumeWording, studyToContinue } from '../study-resume.js';
import type { StoredPeople } from './people-config.js';
import type { PersonRole } from './people-results.js';

/** How a people study is named in what its continuation says: the same --run continues it, there is no --resume. */
const WORDING: ResumeWording = {
  study: 'people study',
  short: 'study',
  startOne: 'pmiyc people serve',
  startNew: 'choose another --run',
  continuedBy: 'the same --run',
  restateWith: 'Serve it',
};

/** The options that define a people study: each is always given (the role and opponent are required, the turns and compared models have defaults). */
export interface PeopleDesignFlags {
  readonly role: PersonRole;
  readonly opponent: string;
  readonly turns: number;
  readonly compare: readonly string[];
}

/** A restart must say what the stored study says of each (the run would mix two studies). */
const DESIGN_FLAGS: readonly DesignFlag<StoredPeople, PeopleDesignFlags>[] = [
  { flag: '--role', keys: ['role'], stored: (stored) => stored.role, given: (flags) => flags.role },
  { flag: '--opponent', keys: ['opponent'], stored: (stored) => stored.opponent, given: (flags) => flags.opponent },
  { flag: '--turns', keys: ['turns'], stored: (stored) => String(stored.turns), given: (flags) => String(flags.turns) },
  { flag: '--compare', keys: ['compare'], stored: (stored) => listOrNone(stored.compare), given: (flags) => listOrNone(flags.compare) },
];

/** What a people study kept with its run; none for a run of another kind. */
const storedPeopleOf = (run: StudyRun): StoredPeople | undefined => (run.config.kind === 'people serve' ? run.config.people : undefined);

/**
 * The people study the same `--run` continues (see `studies/study-resume.ts`), with what it stored:
 * none when the store has no run of that name (a new study starts); refused when the run is of
 * another kind, or when the flags say another design than the stored study's (all are compared, as
 * each is always given).
 */
export function peopleStudyToContinue(
  records: Pick<StudyRunRecords, 'findRun' | 'hasRun'>,
  name: string,
  flags: PeopleDesignFlags,
): { readonly run: StudyRun; readonly stored: StoredPeople } | undefined {
  const continued = studyToContinue(records, WORDING, name, storedPeopleOf);
  if (continued) checkDesignFlags(WORDING, continued.run.name, DESIGN_FLAGS, continued.stored, flags, () => true);
  return continued;
}
