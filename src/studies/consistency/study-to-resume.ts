import { InputError } from '../../domain/errors/input-error.js';
import type { StudyRun, StudyRunRecords } from '../run-config.js';
import { type ConsistencyDesign, consistencyConfigOf } from './consistency-design.js';
import type { ConsistencyResults } from './consistency-results.js';

/** What a resumed study is: its run, its own design, the tournament run it compares with, its config file. */
export interface StudyToResume {
  readonly run: StudyRun;
  readonly design: ConsistencyDesign;
  readonly tournamentRun?: string;
  readonly configPath?: string;
}

/**
 * The consistency study `--resume` continues (named, or the latest), with its stored design: a
 * design flag given again, a study that was imported (complete), or another tournament run to
 * compare with are refused, each with what to do instead.
 */
export function studyToResume(
  store: Pick<StudyRunRecords, 'findRun' | 'location'> & { readonly consistency: Pick<ConsistencyResults, 'studyNames'> },
  options: { readonly study?: string; readonly run?: string; readonly models?: readonly string[]; readonly limit?: number; readonly sample?: number },
): StudyToResume {
  const name = options.study ?? store.consistency.studyNames().at(-1);
  if (name === undefined)
    throw new InputError(`${store.location} has no consistency study to resume: start one with pmiyc consistency --models a,b --claims subjective`);
  const run = store.findRun(name);
  const config = consistencyConfigOf(run.name, run.config);
  const given = (['models', 'limit', 'sample'] as const).filter((key) => options[key] !== undefined).map((key) => `--${key}`);
  if (!config.design) throw new InputError(`study ${run.name} was imported from a file and is complete: there is nothing to resume`);
  if (given.length > 0) throw new InputError(`--resume continues study ${run.name} with its own design: drop ${given.join(', ')}`);
  if (options.run !== undefined && options.run !== config.tournamentRun)
    throw new InputError(`study ${run.name} compares with ${config.tournamentRun ?? 'no tournament run'}: drop --run, or start a new study`);
  return {
    run,
    design: config.design,
    ...(config.tournamentRun ? { tournamentRun: config.tournamentRun } : {}),
    ...(config.configPath ? { configPath: config.configPath } : {}),
  };
}
