import { resolve } from 'node:path';
import type { PmiycConfig } from '../../config/config-schema.js';
import type { Claim } from '../../domain/claim.js';
import { loadClaims } from '../../io/load-claims.js';
import { loadConfig } from '../../io/load-config.js';
import { runOutcomeText } from '../../report/run-outcome-text.js';
import { checkModels } from '../../runner/check-models.js';
import type { RunInfo } from '../../runner/run-records.js';
import { openStore, type Store } from '../../store/result-store.js';
import { echoedAgents, modelsOfAgents } from '../../studies/tournament/agents.js';
import { checkResumeFlags, checkResumeSeeds, checkResumeVariants, resolvedClaimsSource } from '../../studies/tournament/resume-check.js';
import { type DesignOptions, designFromOptions, designOfStoredRun, type StoredDesign } from '../../studies/tournament/tournament-design.js';
import { runTournament } from '../../studies/tournament/tournament-study.js';
import { withExperiment } from '../experiment-options.js';
import { aboutRun, type CliContext, dataOf, printClosing, type RunSignals, sessionWorldOf } from '../terminal.js';
import { dryRunCommand } from './dry-run.js';

export interface RunOptions extends DesignOptions {
  readonly store: string;
  /** The caller writes the report and prints where it is and how to view the run (the demo). */
  readonly reportFollows?: boolean;
  /** The flags that ask other requests of the models, named when a run replays everything (default: those of pmiyc run). */
  readonly askAfresh?: readonly string[];
  readonly run?: string;
  readonly config?: string;
  readonly seed: number;
  readonly concurrency: number;
  readonly resume: boolean;
  readonly retryFailed: boolean;
  readonly maxFailures?: number;
  readonly maxCost?: number;
  readonly dryRun: boolean;
  /** Every model's calls through its provider's batch service; kept with the run for --resume. */
  readonly batch?: boolean;
  readonly cache: boolean;
  readonly takeOver: boolean;
  /** A new run's name when --run is not given: `<prefix>-N` (default run-N). */
  readonly runPrefix?: string;
  readonly gitRevision?: string;
  readonly progressIntervalMs?: number;
  /** The options the user typed (not defaults): on --resume, design options must match the run's, settings given anew replace the run's. */
  readonly given: ReadonlySet<string>;
}

/** What to run: a new run's design from its options, or a stored run's own. */
interface Prepared {
  readonly design: StoredDesign;
  readonly claims: readonly Claim[];
  readonly configPath?: string;
  /** The stored run continued, by name. */
  readonly runName?: string;
  /** The stored run continued, and whether it reuses earlier runs' calls (it was not started with --no-cache). */
  readonly resumed?: { readonly run: RunInfo; readonly cache: boolean };
}

/** A new run's design, paths made absolute so that it resumes from anywhere, and its claims. */
async function prepareNew(options: RunOptions, config: PmiycConfig, context: CliContext): Promise<Prepared> {
  const design = designFromOptions({
    ...options,
    variants: config.variants,
    claims: resolvedClaimsSource(options.claims),
    ...(options.dataDir ? { dataDir: resolve(options.dataDir) } : {}),
  });
  const { claims } = await loadClaims(design.claims.source, { ...design.claims, seed: options.seed }, dataOf(context));
  return { design, claims, ...(options.config ? { configPath: resolve(options.config) } : {}) };
}

/** A stored run to continue: its own design (flags given again must match it) and its claims. */
async function prepareResume(store: Store, options: RunOptions, context: CliContext): Promise<Prepared & Required<Pick<Prepared, 'resumed'>>> {
  const run = store.findRun(options.run, 'tournament');
  const stored = designOfStoredRun(run.name, run.config);
  checkResumeFlags(run.name, { design: stored.design, seed: run.seed, settings: stored.settings ?? { concurrency: 16, cache: true } }, options, options.given);
  const configPath = options.config ? resolve(options.config) : stored.configPath;
  checkResumeVariants(run.name, stored.design, loadConfig(configPath).variants);
  checkResumeSeeds(run.name, stored.design);
  const { claims } = await loadClaims(stored.design.claims.source, { ...stored.design.claims, seed: run.seed }, dataOf(context));
  const resumed = { run, cache: stored.settings?.cache ?? true };
  return { design: stored.design, claims, runName: run.name, resumed, ...(configPath ? { configPath } : {}) };
}

/** `--dry-run`: a new run's plan, or (with --resume or --retry-failed) what continuing a stored run would make; the store is only read. */
async function dryRun(fresh: Prepared | undefined, options: RunOptions, context: CliContext): Promise<number> {
  if (fresh) {
    const plan = { design: fresh.design, claims: fresh.claims, runSeed: options.seed, ...(fresh.configPath ? { configPath: fresh.configPath } : {}) };
    return dryRunCommand(plan, options, context);
  }
  const store = openStore(options.store, { access: 'read' });
  try {
    const prepared = await prepareResume(store, options, context);
    const { run, cache } = prepared.resumed;
    const plan = { ...prepared, runSeed: run.seed, resumed: { run, cache, retryFailed: options.retryFailed } };
    return await dryRunCommand(plan, options, context, store);
  } finally {
    store.close();
  }
}

/** One line per agent whose conversations in a role repeat its model's there (see `echoedAgents`). */
function warnEchoedAgents(design: StoredDesign, context: CliContext): void {
  const variants = design.variants ?? {};
  const echoed = [...echoedAgents(design.persuaders, 'persuader', variants), ...echoedAgents(design.persuadees, 'persuadee', variants)];
  for (const { agent, model, variant, role } of echoed) {
    context.stderr.write(
      `pmiyc: ${agent} as a ${role} is asked exactly what ${model} is asked (variant ${variant} replaces no ${role} prompt): its conversations as a ${role} are ${model}'s, replayed, not a second measurement\n`,
    );
  }
}

/** `pmiyc run`: a tournament (see studies/tournament/tournament-study.ts), then its table and how to go on. */
export async function runCommand(options: RunOptions, context: CliContext, signals: RunSignals): Promise<number> {
  return (await runTournamentCommand(options, context, signals)).exitCode;
}

/** `pmiyc run`, also telling which run it ran (the demo writes its report next). */
export async function runTournamentCommand(typed: RunOptions, context: CliContext, signals: RunSignals): Promise<{ exitCode: number; runName?: string }> {
  const continuing = typed.resume || typed.retryFailed;
  const typedConfig = loadConfig(typed.config);
  // The config's experiment fills in what the command line does not say; a resumed run keeps its own design.
  const options = continuing
    ? withExperiment(typed, typedConfig.experiment?.store ? { store: typedConfig.experiment.store } : undefined, typed.config)
    : withExperiment(typed, typedConfig.experiment, typed.config);
  if (!continuing && options.setting === 'single' && options.given.has('turns') && options.turns !== 3) {
    context.stderr.write(`pmiyc: --turns ${options.turns} has no effect with --setting single: a single-turn conversation always has 3 turns\n`);
  }
  // A new run's input is checked before the store is opened: bad input never leaves an empty store behind.
  const fresh = continuing ? undefined : await prepareNew(options, typedConfig, context);
  if (fresh) warnEchoedAgents(fresh.design, context);
  if (options.dryRun) return { exitCode: await dryRun(fresh, options, context) };
  const freshConfig = fresh ? typedConfig : undefined;
  if (fresh && freshConfig) {
    checkModels(
      freshConfig,
      context.env,
      modelsOfAgents([...fresh.design.persuaders, ...fresh.design.persuadees], fresh.design.variants ?? {}),
      options.maxCost,
    );
  }
  const store = openStore(options.store, { now: context.now, access: continuing ? 'write' : 'create' });
  try {
    const prepared = fresh ?? (await prepareResume(store, options, context));
    const given = (key: string) => options.given.has(key) || !continuing;
    const outcome = await runTournament({
      store,
      design: prepared.design,
      claims: prepared.claims,
      config: freshConfig ?? loadConfig(prepared.configPath),
      seed: options.seed,
      ...(given('concurrency') ? { concurrency: options.concurrency } : {}),
      ...(given('maxFailures') && options.maxFailures !== undefined ? { maxFailures: options.maxFailures } : {}),
      ...(given('maxCost') && options.maxCost !== undefined ? { maxCostUsd: options.maxCost } : {}),
      ...(options.batch ? { batch: true } : {}),
      cache: options.cache,
      ...((prepared.runName ?? options.run) ? { name: prepared.runName ?? options.run } : {}),
      ...(options.runPrefix ? { namePrefix: options.runPrefix } : {}),
      resume: options.resume,
      retryFailed: options.retryFailed,
      takeOver: options.takeOver,
      about: aboutRun(context, options.gitRevision, prepared.configPath),
      world: sessionWorldOf(context, signals, store, options.progressIntervalMs),
    });
    const closing = runOutcomeText(outcome, store, options.store, {
      reportFollows: options.reportFollows === true,
      ...(options.askAfresh ? { askAfresh: options.askAfresh } : {}),
    });
    printClosing(context, closing);
    return { exitCode: outcome.ending.exitCode, runName: outcome.run.name };
  } finally {
    store.close();
  }
}
