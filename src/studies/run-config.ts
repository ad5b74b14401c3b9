import { z } from 'zod';
import type { RunInfo, RunRecords, RunSummary } from '../runner/run-records.js';
import { analysisConfigSchema } from './analysis/analysis-config.js';
import { consistencyConfigSchema } from './consistency/consistency-config.js';
import { type Sampling, samplingSchema, selectionSchema } from './design-parts.js';
import { judgeConfigSchema } from './judge/judge-config.js';
import { storedPeopleSchema } from './people/people-config.js';
import { protocolAnalysisConfigSchema } from './protocol-analysis/protocol-analysis-config.js';
import { importConfigSchema } from './tournament/imported-run.js';
import { runSettingsSchema, type StoredDesign, type StoredModelSettings, storedDesignSchema, storedModelSettingsSchema } from './tournament/stored-design.js';

/*
 * A run's stored config, read once by the schema of the study that made it (the `command` it stored),
 * into one typed value: `RunConfig`, a union by `kind`. The store reads every run through
 * `readRunConfig`; code narrows by `kind` and never casts. A store written by an older pmiyc still
 * reads: a tournament stored before 0.2 has no command, and a key that its kind's schema refuses is
 * read as absent (a tournament's) or the whole config as `unreadable` (a study's), which the code
 * that resumes or reports it answers as it answers a run of another kind.
 */

/** A key an older pmiyc may have stored in another shape: read as absent rather than refuse the run. */
const tolerated = <Schema extends z.ZodType>(schema: Schema) => schema.optional().catch(undefined);

/**
 * What every run may keep beside its study's own keys: each model as resolved when it started (absent
 * before pmiyc kept them; a list of names in the first demos), what served each model
 * (runner/run-session.ts), and its config file.
 */
const recordedKeys = {
  models: tolerated(z.record(z.string(), storedModelSettingsSchema)),
  servedBy: tolerated(z.record(z.string(), z.string())),
  configPath: tolerated(z.string()),
};

/** `pmiyc run` (and `pmiyc demo`; before 0.2 no command at all): the design, the settings and the models it ran with. */
const tournamentConfigSchema = z.looseObject({
  command: z.enum(['run', 'demo']).optional(),
  design: tolerated(storedDesignSchema),
  settings: tolerated(runSettingsSchema),
  ...recordedKeys,
});

/** `pmiyc people serve`: a tournament's design with people on one side, and the study's own keys. */
const peopleConfigSchema = z.looseObject({
  command: z.literal('people serve'),
  design: tolerated(storedDesignSchema),
  people: tolerated(storedPeopleSchema),
  ...recordedKeys,
});

/** `pmiyc judge synthesize`: the model that wrote the preference examples, on which claims, sampled how. */
const synthesisConfigSchema = z.looseObject({
  command: z.literal('judge-synthesize'),
  design: tolerated(z.object({ model: z.string(), claims: selectionSchema, sampling: samplingSchema })),
  ...recordedKeys,
});

/**
 * `pmiyc run --protocol ape` (and each protocol beside PMIYC's): which protocol, and its design as the protocol
 * stored it. The design is the protocol's to read (its own zod schema, in its folder): studies/ may not import
 * protocols/, and one variant for every protocol means a new protocol changes nothing here.
 */
const protocolConfigSchema = z.looseObject({
  command: z.literal('protocol'),
  protocol: z.string(),
  design: z.unknown(),
  /** Models that are simulated agents (labelled in every output). */
  simulated: z.array(z.string()).default([]),
  /** True: started with --batch (every model's calls through its provider's batch service), and resumed so. */
  batch: z.boolean().optional(),
  /** How the run's models were sampled, recorded beside the protocol's own design so that shared readers ("What ran") can say it. */
  sampling: samplingSchema.optional(),
  ...recordedKeys,
});

const withRecordedKeys = <Shape extends z.core.$ZodLooseShape>(schema: z.ZodObject<Shape, z.core.$loose>) => schema.extend(recordedKeys);

const importConfigRead = withRecordedKeys(importConfigSchema);
const consistencyConfigRead = withRecordedKeys(consistencyConfigSchema);
const judgeConfigRead = withRecordedKeys(judgeConfigSchema);
const analysisConfigRead = withRecordedKeys(analysisConfigSchema);
const protocolAnalysisConfigRead = withRecordedKeys(protocolAnalysisConfigSchema);

type Variant<Kind extends string, Schema extends z.ZodType> = { readonly kind: Kind } & z.infer<Schema>;

/**
 * A run's config as read: one variant per kind of run, each its study's stored config; `unreadable` for
 * one its kind's schema refuses (an older study's, a newer pmiyc's command), with the command it stored.
 */
export type RunConfig =
  | Variant<'tournament', typeof tournamentConfigSchema>
  | Variant<'import', typeof importConfigRead>
  | Variant<'people serve', typeof peopleConfigSchema>
  | Variant<'consistency', typeof consistencyConfigRead>
  | Variant<'judge', typeof judgeConfigRead>
  | Variant<'judge-synthesize', typeof synthesisConfigSchema>
  | Variant<'analyze', typeof analysisConfigRead>
  | Variant<'protocol', typeof protocolConfigSchema>
  | Variant<'protocol-analysis', typeof protocolAnalysisConfigRead>
  | { readonly kind: 'unreadable'; readonly command?: string; readonly servedBy?: undefined };

/** One kind's variant of `RunConfig`. */
type RunConfigOf<Kind extends RunConfig['kind']> = Extract<RunConfig, { readonly kind: Kind }>;

/** A run as the store reads it, its config typed (`RunInfo` is the runner's, which cannot name the studies). */
export type StudyRun = RunInfo<RunConfig>;
export type StudyRunSummary = RunSummary<RunConfig>;
/** The run records of a store that reads configs with `readRunConfig`: what a study that reads a stored config takes. */
export type StudyRunRecords = RunRecords<RunConfig>;

type ReadKind = Exclude<RunConfig['kind'], 'unreadable'>;

function variant<Kind extends string, Value>(kind: Kind, parsed: z.ZodSafeParseResult<Value>): ({ readonly kind: Kind } & Value) | undefined {
  return parsed.success ? { kind, ...parsed.data } : undefined;
}

/** Each kind with the schema its stored config is read by (its study's own, with what every run may keep). */
const READERS: { readonly [Kind in ReadKind]: (stored: unknown) => RunConfigOf<Kind> | undefined } = {
  tournament: (stored) => variant('tournament', tournamentConfigSchema.safeParse(stored)),
  import: (stored) => variant('import', importConfigRead.safeParse(stored)),
  'people serve': (stored) => variant('people serve', peopleConfigSchema.safeParse(stored)),
  consistency: (stored) => variant('consistency', consistencyConfigRead.safeParse(stored)),
  judge: (stored) => variant('judge', judgeConfigRead.safeParse(stored)),
  'judge-synthesize': (stored) => variant('judge-synthesize', synthesisConfigSchema.safeParse(stored)),
  analyze: (stored) => variant('analyze', analysisConfigRead.safeParse(stored)),
  protocol: (stored) => variant('protocol', protocolConfigSchema.safeParse(stored)),
  'protocol-analysis': (stored) => variant('protocol-analysis', protocolAnalysisConfigRead.safeParse(stored)),
};

/** A stored command that names a study's kind (a tournament's is `run` or `demo`, or none before 0.2). */
const isStudyCommand = (command: string): command is Exclude<ReadKind, 'tournament'> => command !== 'tournament' && Object.hasOwn(READERS, command);

const commandOf = (stored: unknown): unknown => (typeof stored === 'object' && stored !== null && 'command' in stored ? stored.command : undefined);

/** A run's stored config (its JSON, parsed) read by its kind's schema; never throws. */
export function readRunConfig(stored: unknown): RunConfig {
  const command = commandOf(stored);
  const unreadable: RunConfig = { kind: 'unreadable', ...(typeof command === 'string' ? { command } : {}) };
  if (command === undefined || command === 'run' || command === 'demo') return READERS.tournament(stored) ?? unreadable;
  if (typeof command !== 'string' || !isStudyCommand(command)) return unreadable;
  return READERS[command](stored) ?? unreadable;
}

/** How a run's models were sampled, as its design stored it (an import has no design). */
export function designSamplingOf(config: RunConfig): Sampling | undefined {
  if (config.kind === 'protocol') return config.sampling;
  return config.kind === 'import' || config.kind === 'unreadable' ? undefined : config.design?.sampling;
}

/** The models a run recorded as resolved when it started (none for an unreadable config). */
export function recordedModelsOf(config: RunConfig): Readonly<Record<string, StoredModelSettings>> {
  return (config.kind === 'unreadable' ? undefined : config.models) ?? {};
}

/** The tournament design a run stored: a tournament's or a people study's (who argues with whom, how); none for any other kind. */
export function tournamentDesignOf(config: RunConfig): StoredDesign | undefined {
  return config.kind === 'tournament' || config.kind === 'people serve' ? config.design : undefined;
}
