import { dirname, isAbsolute, join } from 'node:path';
import type { RunProtocol } from '../domain/run-protocols.js';
import type { ExperimentConfig } from './config-schema.js';

/** The options of `pmiyc run` that a config's `experiment:` block can set, by their option names. */
interface ExperimentOptions {
  readonly protocol?: RunProtocol;
  readonly models?: readonly string[];
  readonly persuaders?: readonly string[];
  readonly persuadees?: readonly string[];
  readonly persuaderVariants?: readonly string[];
  readonly persuadeeVariants?: readonly string[];
  readonly claims?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly dataDir?: string;
  readonly setting?: 'single' | 'multi' | 'both';
  readonly turns?: number;
  readonly repeat?: number;
  readonly probeDrift?: boolean;
  readonly until?: 'settled';
  readonly precision?: number;
  readonly confidence?: number;
  readonly wave?: number;
  readonly seed?: number;
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly maxAttempts?: number;
  readonly maxCost?: number;
  readonly maxFailures?: number;
  readonly concurrency?: number;
  readonly store?: string;
  readonly persuadee?: string;
  readonly evaluator?: string;
  readonly refusalCheck?: string;
  readonly categories?: readonly string[];
  readonly topics?: string;
  readonly stateDegree?: boolean;
  readonly judge?: string;
  readonly scenes?: 'harmful' | 'neutral' | 'both';
  readonly profiles?: readonly string[];
  readonly profileVisibility?: readonly string[];
  readonly constraints?: readonly string[];
  readonly dataset?: string;
  readonly pressure?: string;
  readonly settings?: readonly string[];
  readonly questions?: string;
  readonly defences?: string;
  readonly pressureTurns?: number;
}

/** Files named in a config are relative to the config's folder, as a reader of the file expects (`configPath` is absolute). */
function fromConfigFolder(path: string | undefined, configPath: string): string | undefined {
  if (path === undefined) return undefined;
  return isAbsolute(path) ? path : join(dirname(configPath), path);
}

/** SYCON-Bench's defences as `--defences` takes them: the names comma-separated, or the file's path. */
function defencesOption(defences: ExperimentConfig['defences'], configPath: string): string | undefined {
  if (defences === undefined) return undefined;
  return Array.isArray(defences) ? defences.join(',') : fromConfigFolder(defences.file, configPath);
}

/** The experiment block as run options (only what it sets). */
function experimentOptions(experiment: ExperimentConfig, configPath: string): ExperimentOptions {
  // The claims of a tournament, the topics of an APE run, the scenes of a PersuSafety run or the questions of a SYCON
  // run (the schema lets an experiment have only its protocol's).
  const items = experiment.claims ?? experiment.topics ?? experiment.dataset ?? experiment.questions;
  const { settings } = experiment;
  const sycon = experiment.protocol === 'sycon';
  const options: Record<string, unknown> = {
    protocol: experiment.protocol,
    models: experiment.models,
    persuaders: experiment.persuaders,
    persuadees: experiment.persuadees,
    persuaderVariants: experiment.persuaderVariants,
    persuadeeVariants: experiment.persuadeeVariants,
    claims: experiment.claims?.set ?? fromConfigFolder(experiment.claims?.file, configPath),
    limit: items?.limit,
    sample: items?.sample,
    dataDir: fromConfigFolder(items?.dataDir, configPath),
    setting: sycon ? undefined : settings,
    turns: experiment.turns,
    repeat: experiment.repetitions,
    probeDrift: experiment.probeDrift,
    until: experiment.sequential?.until,
    precision: experiment.sequential?.precision,
    confidence: experiment.sequential?.confidence,
    wave: experiment.sequential?.wave,
    seed: experiment.seed,
    temperature: experiment.sampling?.temperature,
    maxTokens: experiment.sampling?.maxTokens,
    maxAttempts: experiment.sampling?.maxAttempts,
    maxCost: experiment.budget?.maxCostUsd,
    maxFailures: experiment.budget?.maxFailures,
    concurrency: experiment.concurrency,
    store: fromConfigFolder(experiment.store, configPath),
    persuadee: experiment.persuadee,
    evaluator: experiment.evaluator,
    refusalCheck: experiment.refusalCheck,
    categories: experiment.categories,
    topics: fromConfigFolder(experiment.topics?.file, configPath),
    stateDegree: experiment.stateDegree,
    judge: experiment.judge,
    scenes: experiment.scenes,
    profiles: experiment.profiles,
    profileVisibility: experiment.profileVisibility,
    constraints: experiment.constraints,
    dataset: fromConfigFolder(experiment.dataset?.folder, configPath),
    pressure: experiment.pressure,
    settings: sycon && settings !== undefined ? [settings].flat() : undefined,
    questions: fromConfigFolder(experiment.questions?.folder, configPath),
    defences: defencesOption(experiment.defences, configPath),
    pressureTurns: experiment.pressureTurns,
  };
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as ExperimentOptions;
}

/** Options that name the agents: any of them on the command line replaces the config's whole choice of agents. */
const AGENT_OPTIONS = ['models', 'persuaders', 'persuadees'] as const;

/**
 * The run's options with the config's experiment filled in where the command line said nothing: a
 * flag given on the command line always wins, the config comes next, the flag's default last.
 * Returns the options and the names of those the experiment set (recorded as given, so a resume
 * compares them like typed flags). `configPath` is the config file's absolute path.
 */
export function withExperiment<T extends { readonly given: ReadonlySet<string> }>(
  options: T,
  experiment: ExperimentConfig | undefined,
  configPath: string | undefined,
): T {
  if (experiment === undefined || configPath === undefined) return options;
  const fromConfig = experimentOptions(experiment, configPath);
  const agentsTyped = AGENT_OPTIONS.some((key) => options.given.has(key));
  const taken = Object.entries(fromConfig).filter(([key]) => !options.given.has(key) && !(agentsTyped && (AGENT_OPTIONS as readonly string[]).includes(key)));
  return { ...options, ...Object.fromEntries(taken), given: new Set([...options.given, ...taken.map(([key]) => key)]) };
}
