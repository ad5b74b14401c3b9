import { resolve } from 'node:path';
import type { PmiycConfig } from '../../config/config-schema.js';
import type { Environment } from '../../config/resolve-model-settings.js';
import type { Claim } from '../../domain/claim.js';
import type { StudyRunRecords } from '../../studies/run-config.js';
import { type ResumeFlags, resolvedClaimsSource, type TournamentToResume, tournamentRunToResume } from '../../studies/tournament/resume-check.js';
import { type DesignOptions, designFromOptions, type StoredDesign } from '../../studies/tournament/tournament-design.js';
import { type PreviewInput, previewTournament, type TournamentPreview } from '../../studies/tournament/tournament-preview.js';
import { type GivenSettings, planTournamentWork, sessionSettings, type TournamentWork } from '../../studies/tournament/tournament-work.js';
import type { DataAccess } from '../inputs/data-access.js';
import { loadClaims } from '../inputs/load-claims.js';
import { loadConfig } from '../inputs/load-config.js';
import { modelFileSha256 } from '../process/model-file-digest.js';

/** What a tournament session runs: a new run's design from its options, or a stored run's own, with its claims read. */
export interface PreparedTournament {
  readonly design: StoredDesign;
  readonly claims: readonly Claim[];
  /** The config file, absolute: given now, else the stored run's. */
  readonly configPath?: string;
  /** The stored run continued. */
  readonly resumed?: TournamentToResume;
}

/**
 * A new run's design, paths made absolute so that it resumes from anywhere, and its claims read
 * (a claims file, or a built-in set through `data`), with the config's prompt variants. Throws on bad input before any store is opened.
 */
export async function prepareNewTournament(
  options: DesignOptions & { readonly seed: number; readonly config?: string },
  config: PmiycConfig,
  data: DataAccess,
): Promise<PreparedTournament> {
  const design = designFromOptions({
    ...options,
    variants: config.variants,
    claims: resolvedClaimsSource(options.claims),
    ...(options.dataDir ? { dataDir: resolve(options.dataDir) } : {}),
  });
  const { claims } = await loadClaims(design.claims.source, { ...design.claims, seed: options.seed }, data);
  return { design, claims, ...(options.config ? { configPath: resolve(options.config) } : {}) };
}

/** A stored run to continue (`--run`, else the latest): its own design (flags given again must match it) and its claims. */
export async function prepareTournamentResume(
  records: Pick<StudyRunRecords, 'findRun' | 'location'>,
  options: ResumeFlags & { readonly run?: string; readonly config?: string; readonly given: ReadonlySet<string> },
  data: DataAccess,
): Promise<PreparedTournament & Required<Pick<PreparedTournament, 'resumed'>>> {
  const request = { ...(options.run ? { run: options.run } : {}), ...(options.config ? { configPath: resolve(options.config) } : {}) };
  const resumed = await tournamentRunToResume(records, { ...request, flags: options, given: options.given }, loadConfig);
  const { claims } = await loadClaims(resumed.design.claims.source, { ...resumed.design.claims, seed: resumed.run.seed }, data);
  return { design: resumed.design, claims, resumed, ...(resumed.configPath ? { configPath: resumed.configPath } : {}) };
}

/** The store as a dry run reads it: what the preview reads, and the GGUF hashes it knows. */
export type PreviewStoreRecords = NonNullable<PreviewInput['records']> & Pick<StudyRunRecords, 'knownFileSha256'>;

/**
 * A dry run's preview of a prepared session: its settings (given now, else a resumed run's own), the
 * work they make of the models (`work` when a new run's was checked already), priced against `store`
 * when there is one. Reads GGUF files to hash them; never writes the store.
 */
export async function previewPreparedTournament(
  prepared: PreparedTournament,
  session: {
    readonly config: PmiycConfig;
    readonly env: Environment;
    readonly given: GivenSettings;
    readonly seed: number;
    readonly retryFailed: boolean;
    readonly work?: TournamentWork;
    readonly store?: PreviewStoreRecords;
  },
): Promise<TournamentPreview> {
  const { config, env, store } = session;
  const settings = sessionSettings(session.given, prepared.resumed?.settings);
  return previewTournament({
    design: prepared.design,
    claims: prepared.claims,
    runSeed: prepared.resumed?.run.seed ?? session.seed,
    config,
    env,
    settings,
    work: session.work ?? planTournamentWork(prepared.design, prepared.claims, config, env, settings),
    ...(store ? { records: store } : {}),
    ...(prepared.resumed ? { resumed: { run: prepared.resumed.run, retryFailed: session.retryFailed } } : {}),
    // A GGUF file's hash as the store knows it, else hashed now (and not remembered: the store is only read).
    fileSha256: (model) => modelFileSha256(model, { knownFileSha256: (...file) => store?.knownFileSha256(...file), rememberFileSha256: () => {} }),
  });
}
