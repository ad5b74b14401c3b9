import { resolve } from 'node:path';
import type { Claim } from '../../domain/claim.js';
import { type ConsistencyDesign, type ConsistencyDesignOptions, consistencyDesignFromOptions } from '../../studies/consistency/consistency-design.js';
import { consistencyStudyToResume } from '../../studies/consistency/study-to-resume.js';
import type { DataAccess } from '../inputs/data-access.js';
import { loadClaims } from '../inputs/load-claims.js';
import type { PreparedStudy, StudyNameOptions } from './prepared-study.js';

/** What a consistency session runs: a new study's design from its options, or a stored study's own, with its claims read. */
export interface PreparedConsistencyStudy extends PreparedStudy<ConsistencyDesign> {
  readonly claims: readonly Claim[];
  /** The tournament run whose openings the study compares with. */
  readonly tournamentRun?: string;
}

/** What names a consistency study on the command line. */
interface StudyNames extends StudyNameOptions {
  /** The tournament run to compare with. */
  readonly run?: string;
}

/** A new study's design and claims, checked and read before any store is opened: bad input never leaves an empty store behind. */
export async function prepareNewConsistencyStudy(options: ConsistencyDesignOptions & StudyNames, data: DataAccess): Promise<PreparedConsistencyStudy> {
  const design = consistencyDesignFromOptions(options);
  const { claims } = await loadClaims(design.claims.source, { ...design.claims, seed: options.seed }, data);
  return {
    design,
    claims,
    seed: options.seed,
    ...(options.study ? { name: options.study } : {}),
    ...(options.run ? { tournamentRun: options.run } : {}),
    ...(options.config ? { configPath: resolve(options.config) } : {}),
  };
}

/** The stored study `--resume` continues (see `consistencyStudyToResume`), its claims read again; a config given now replaces the study's. */
export async function prepareConsistencyResume(
  store: Parameters<typeof consistencyStudyToResume>[0],
  options: Parameters<typeof consistencyStudyToResume>[1] & StudyNames,
  data: DataAccess,
): Promise<PreparedConsistencyStudy> {
  const { run, design, tournamentRun, configPath } = consistencyStudyToResume(store, options);
  const { claims } = await loadClaims(design.claims.source, { ...design.claims, seed: run.seed }, data);
  const path = options.config ?? configPath;
  return { name: run.name, design, claims, seed: run.seed, ...(tournamentRun ? { tournamentRun } : {}), ...(path ? { configPath: path } : {}) };
}
