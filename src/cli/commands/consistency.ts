import { resolve } from 'node:path';
import { claimsChecksum } from '../../datasets/claims-checksum.js';
import { licencesOf } from '../../datasets/licences.js';
import type { Claim } from '../../domain/claim.js';
import { InputError } from '../../domain/input-error.js';
import type { ModelSettings } from '../../models/model-settings.js';
import { formatConsistencyText } from '../../report/studies/consistency-text.js';
import { ConsistencyTable } from '../../store/consistency-table.js';
import { ResultStore, type RunInfo } from '../../store/result-store.js';
import {
  type ConsistencyDesign,
  type ConsistencyDesignOptions,
  consistencyConfigOf,
  consistencyDesignFromOptions,
  isConsistencyConfig,
} from '../consistency-design.js';
import { importConsistencyFile, readConsistencyImport } from '../consistency-import.js';
import { executeStudy } from '../consistency-session.js';
import { analyzeStudy } from '../consistency-study.js';
import { loadClaims } from '../load-claims.js';
import { loadConfig } from '../load-config.js';
import { createModelRegistry } from '../model-registry.js';
import { redactSettings } from '../run-design.js';
import type { CliContext, RunSignals } from '../terminal.js';

export interface ConsistencyOptions extends ConsistencyDesignOptions {
  readonly store: string;
  /** The tournament run whose openings Match Rate and Avg Dif compare with. */
  readonly run?: string;
  /** The study's name (default consistency-N); with --resume, the study to continue (default: the latest). */
  readonly study?: string;
  readonly resume: boolean;
  readonly config?: string;
  readonly concurrency: number;
  readonly seed: number;
  readonly cache: boolean;
  /** A published pre-assessment CSV to read instead of asking models. */
  readonly import?: string;
  /** With --import: the model the file's answers are from. */
  readonly model?: string;
  readonly gitRevision?: string;
  readonly progressIntervalMs?: number;
}

interface PreparedStudy {
  readonly run?: RunInfo;
  readonly design: ConsistencyDesign;
  readonly claims: readonly Claim[];
  readonly seed: number;
  readonly tournamentRun?: string;
  readonly configPath?: string;
}

/** The tournament run to compare with must exist and be a tournament. */
function checkTournamentRun(store: ResultStore, name: string | undefined): void {
  if (name === undefined) return;
  const run = store.findRun(name);
  if (isConsistencyConfig(run.config))
    throw new InputError(`--run names the tournament run to compare openings with, but ${name} is a consistency study: name a run made by \`pmiyc run\``);
}

function checkFlags(options: ConsistencyOptions): void {
  if (options.import !== undefined && options.models !== undefined)
    throw new InputError('give either --models (ask the models) or --import FILE.csv (read published answers), not both');
  if (options.import !== undefined && options.resume) throw new InputError('an import is finished at once: --resume continues a study that asks models');
  if (options.model !== undefined && options.import === undefined)
    throw new InputError('--model names the model of an --import file: to ask models, use --models a,b');
}

/** A new study's design and claims, checked before any store is opened: bad input never leaves an empty store behind. */
async function prepareNew(options: ConsistencyOptions, context: CliContext): Promise<PreparedStudy> {
  const design = consistencyDesignFromOptions(options);
  const { claims } = await loadClaims(design.claims.source, { ...design.claims, seed: options.seed }, context);
  return {
    design,
    claims,
    seed: options.seed,
    ...(options.run ? { tournamentRun: options.run } : {}),
    ...(options.config ? { configPath: resolve(options.config) } : {}),
  };
}

async function prepareResume(store: ResultStore, options: ConsistencyOptions, context: CliContext): Promise<PreparedStudy> {
  const table = new ConsistencyTable(store.sqlite);
  const name = options.study ?? table.studyNames().at(-1);
  if (name === undefined)
    throw new InputError(`${options.store} has no consistency study to resume: start one with pmiyc consistency --models a,b --claims subjective`);
  const run = store.findRun(name);
  const config = consistencyConfigOf(run.name, run.config);
  const given = (['models', 'limit', 'sample'] as const).filter((key) => options[key] !== undefined).map((key) => `--${key}`);
  if (!config.design) throw new InputError(`study ${run.name} was imported from a file and is complete: there is nothing to resume`);
  if (given.length > 0) throw new InputError(`--resume continues study ${run.name} with its own design: drop ${given.join(', ')}`);
  if (options.run !== undefined && options.run !== config.tournamentRun)
    throw new InputError(`study ${run.name} compares with ${config.tournamentRun ?? 'no tournament run'}: drop --run, or start a new study`);
  const { claims } = await loadClaims(config.design.claims.source, { ...config.design.claims, seed: run.seed }, context);
  if (run.claimsChecksum && claimsChecksum(claims) !== run.claimsChecksum) {
    throw new InputError(
      `the claims of study ${run.name} (${config.design.claims.source}) are not the same as when it started: use the same claims file or --data-dir`,
    );
  }
  const configPath = options.config ?? config.configPath;
  return {
    run,
    design: config.design,
    claims,
    seed: run.seed,
    ...(config.tournamentRun ? { tournamentRun: config.tournamentRun } : {}),
    ...(configPath ? { configPath } : {}),
  };
}

function startStudy(
  store: ResultStore,
  prepared: PreparedStudy,
  settings: (name: string) => ModelSettings,
  options: ConsistencyOptions,
  context: CliContext,
): RunInfo {
  if (prepared.run) return prepared.run;
  if (options.study !== undefined && store.hasRun(options.study)) {
    throw new InputError(`run "${options.study}" already exists in ${options.store}: continue it with --resume, or choose another --study name`);
  }
  const models = Object.fromEntries(prepared.design.models.map((model) => [model, redactSettings(settings(model))]));
  const simulated = prepared.design.models.filter((model) => settings(model).provider === 'sim');
  return store.createRun({
    name: options.study ?? store.nextRunName('consistency'),
    seed: prepared.seed,
    packageVersion: context.packageVersion,
    config: {
      command: 'consistency',
      design: prepared.design,
      ...(prepared.tournamentRun ? { tournamentRun: prepared.tournamentRun } : {}),
      simulated,
      claims: { count: prepared.claims.length, licences: licencesOf(prepared.claims) },
      models,
      ...(prepared.configPath ? { configPath: prepared.configPath } : {}),
    },
    claimsChecksum: claimsChecksum(prepared.claims),
    ...(options.gitRevision ? { gitRevision: options.gitRevision } : {}),
  });
}

function printStudy(store: ResultStore, run: RunInfo, context: CliContext): void {
  context.stdout.write(`${formatConsistencyText(analyzeStudy(store, store.findRun(run.name)))}\n\n`);
  context.stdout.write(`Report: pmiyc report --store ${store.path} --run ${run.name}\n`);
}

/**
 * `pmiyc consistency` (paper Sec. 5.1, Table 1): asks each model for its stance on each claim N
 * times, stored answer by answer in the run store, resumable and concurrent; or, with --import,
 * reads the paper's published answers. Prints Table 1 per model; returns the exit code.
 */
export async function consistencyCommand(options: ConsistencyOptions, context: CliContext, signals: RunSignals): Promise<number> {
  checkFlags(options);
  const imported = options.import === undefined ? undefined : readConsistencyImport(options.import);
  const fresh = options.import !== undefined || options.resume ? undefined : await prepareNew(options, context);
  const freshConfig = fresh ? loadConfig(fresh.configPath) : undefined;
  if (fresh && freshConfig) for (const model of fresh.design.models) createModelRegistry(freshConfig, context.env).modelFor(model);
  // Continuing a study, or comparing with a tournament run, needs a store that exists.
  const existing = options.resume || options.run !== undefined;
  const store = existing ? ResultStore.openExisting(options.store, { now: context.now }) : ResultStore.open(options.store, { now: context.now });
  try {
    checkTournamentRun(store, options.run);
    if (options.import !== undefined && imported) {
      const run = importConsistencyFile(
        store,
        {
          file: options.import,
          seed: options.seed,
          packageVersion: context.packageVersion,
          ...(options.model === undefined ? {} : { model: options.model }),
          ...(options.study === undefined ? {} : { study: options.study }),
          ...(options.run === undefined ? {} : { tournamentRun: options.run }),
          ...(options.gitRevision ? { gitRevision: options.gitRevision } : {}),
        },
        imported,
      );
      printStudy(store, run, context);
      return 0;
    }
    const prepared = fresh ?? (await prepareResume(store, options, context));
    const config = freshConfig ?? loadConfig(prepared.configPath);
    const checking = createModelRegistry(config, context.env);
    for (const model of prepared.design.models) checking.modelFor(model);
    const run = startStudy(store, prepared, (name) => checking.settingsFor(name), options, context);
    const outcome = await executeStudy({ store, run, design: prepared.design, claims: prepared.claims, config, options, context, signals });
    printStudy(store, run, context);
    return outcome;
  } finally {
    store.close();
  }
}
