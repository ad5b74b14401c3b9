import { resolve } from 'node:path';
import type { PmiycConfig } from '../../config/config-schema.js';
import { InputError } from '../../domain/errors/input-error.js';
import { loadConfig } from '../../io/inputs/load-config.js';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import { PERSUSAFETY_PROTOCOL, persusafetyDesignOf } from '../../protocols/persusafety/persusafety-design.js';
import { PERSUSAFETY_PERSUADEE_PROFILES, PERSUSAFETY_PROFILE_CONDITIONS, PERSUSAFETY_RUN_DEFAULTS } from '../../protocols/persusafety/persusafety-facts.js';
import { readPersusafetyRecord } from '../../protocols/persusafety/persusafety-record.js';
import { type PersusafetyRunDesign, persusafetyModelsOf } from '../../protocols/persusafety/run/persusafety-run-design.js';
import {
  persusafetyConditionsNamed,
  persusafetyConditionWord,
  persusafetyConstraintsNamed,
  persusafetyProfilesNamed,
  persusafetySceneSetsOf,
} from '../../protocols/persusafety/run/persusafety-run-options.js';
import { persusafetyRunText } from '../../protocols/persusafety/run/persusafety-run-text.js';
import { runPersusafetyStudy } from '../../protocols/persusafety/run/persusafety-study.js';
import { persusafetySimulatedProtocol } from '../../protocols/persusafety/sim/persusafety-simulated.js';
import type { Store } from '../../store/result-store.js';
import type { ProtocolStudyOutcome } from '../../studies/protocol-study.js';
import { checkDesignFlags, type DesignFlag, listText, optionalText } from '../../studies/study-resume.js';
import type { CommandContext } from '../command-context.js';
import { type PersusafetyRunItems, readDatasetFolder, readPersusafetyRunItems } from '../persusafety-dataset.js';
import { checkedConfig, type StudyCommandOptions, type StudyKind } from '../study-command.js';
import { persusafetyDryRunText } from './persusafety-dry-run.js';
import { protocolDryRun } from './protocol-dry-run.js';
import { type ProtocolRunWords, protocolClosing, protocolRunToResume, requiredModel, storedRunFigures } from './protocol-run-kind.js';

/**
 * `pmiyc run --protocol persusafety` (docs/design/protocols.md, "PersuSafety: the run"): how ethically does a model
 * persuade? Each persuader plays PersuSafety's harmful tasks and neutral scenes against one persuadee, with the
 * persuadee's profile shown or hidden (paired), under the neutral scenes' benefit and pressure; the persuader may
 * decline the task; one judge scores the 15 strategies of each conversation. Stored, resumable and replayed as every study.
 */

export interface PersusafetyCommandOptions extends StudyCommandOptions {
  /** The persuaders. */
  readonly models?: readonly string[];
  readonly persuadee?: string;
  readonly judge?: string;
  readonly scenes?: 'harmful' | 'neutral' | 'both';
  readonly profiles?: readonly string[];
  readonly profileVisibility?: readonly string[];
  readonly constraints?: readonly string[];
  /** The most persuader turns of every conversation (typed: `given` has `turns`). */
  readonly turns?: number;
  /** A folder of the user's own in PersuSafety's format, instead of the pinned files. */
  readonly dataset?: string;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly sample?: number;
  readonly repeat: number;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly maxAttempts: number;
  readonly run?: string;
  /** Every model's calls through its provider's batch service (docs/design/batches.md); kept with the run for --resume. */
  readonly batch?: boolean;
  /** The options the user typed (not defaults). */
  readonly given: ReadonlySet<string>;
}

/** What a PersuSafety session runs: the design (new, or the stored run's) and its scenes and profiles, read and selected. */
export interface PreparedPersusafetyRun extends PersusafetyRunItems {
  readonly config: PmiycConfig;
  readonly configPath?: string;
  readonly seed: number;
  readonly name?: string;
  readonly design: PersusafetyRunDesign;
  /** `--batch` now, or kept with the resumed run. */
  readonly batch: boolean;
}

const COMMAND = 'pmiyc run --protocol persusafety';

const WORDS: ProtocolRunWords = {
  protocol: PERSUSAFETY_PROTOCOL,
  command: COMMAND,
  wording: {
    study: 'PersuSafety run',
    short: 'run',
    startOne: `${COMMAND} --models a,b --persuadee c --judge d`,
    startNew: 'start a new run (without --resume)',
  },
  aRun: 'a PersuSafety run',
};

const typedList = <Name extends string>(names: readonly string[] | undefined, read: (names: readonly string[]) => Name[]) => listText(names && read(names));

const DESIGN_FLAGS: readonly DesignFlag<PersusafetyRunDesign, PersusafetyCommandOptions>[] = [
  { flag: '--models', keys: ['models'], stored: (design) => listText(design.persuaders), given: (options) => listText(options.models) },
  { flag: '--persuadee', keys: ['persuadee'], stored: (design) => design.persuadee, given: (options) => optionalText(options.persuadee) },
  { flag: '--judge', keys: ['judge'], stored: (design) => design.judge, given: (options) => optionalText(options.judge) },
  {
    flag: '--scenes',
    keys: ['scenes'],
    stored: (design) => listText(design.sceneSets),
    given: (options) => listText(options.scenes && persusafetySceneSetsOf(options.scenes)),
  },
  {
    flag: '--profiles',
    keys: ['profiles'],
    stored: (design) => listText(design.profiles),
    given: (options) => typedList(options.profiles, persusafetyProfilesNamed),
  },
  {
    flag: '--profile-visibility',
    keys: ['profileVisibility'],
    stored: (design) => listText(design.conditions.map(persusafetyConditionWord)),
    given: (options) => listText(options.profileVisibility && persusafetyConditionsNamed(options.profileVisibility).map(persusafetyConditionWord)),
  },
  {
    flag: '--constraints',
    keys: ['constraints'],
    stored: (design) => listText(design.constraints),
    given: (options) => typedList(options.constraints, persusafetyConstraintsNamed),
  },
  {
    flag: '--dataset',
    keys: ['dataset'],
    stored: (design) => (design.dataset.kind === 'folder' ? design.dataset.path : optionalText(undefined)),
    given: (options) => (options.dataset === undefined ? optionalText(undefined) : resolve(options.dataset)),
  },
  { flag: '--limit', keys: ['limit'], stored: (design) => optionalText(design.selection.limit), given: (options) => optionalText(options.limit) },
  { flag: '--sample', keys: ['sample'], stored: (design) => optionalText(design.selection.sample), given: (options) => optionalText(options.sample) },
  { flag: '--turns', keys: ['turns'], stored: (design) => optionalText(design.turns), given: (options) => optionalText(options.turns) },
  { flag: '--repeat', keys: ['repeat'], stored: (design) => String(design.repetitions), given: (options) => String(options.repeat) },
];

const required = (value: string | undefined, flag: string, what: string) => requiredModel(COMMAND, value, flag, what);

/** The conditions a new run plays, from the options: every profile, both visibilities and no constraint unless typed. */
function conditionsFromOptions(options: PersusafetyCommandOptions) {
  const sceneSets = persusafetySceneSetsOf(options.scenes ?? 'both');
  const constraints = options.constraints ? persusafetyConstraintsNamed(options.constraints) : (['none'] as const);
  if (options.constraints && !sceneSets.includes('neutral'))
    throw new InputError(
      '--constraints is for the neutral scenes (a harmful task has no benefit or pressure of its own): add --scenes neutral or both, or drop it',
    );
  return {
    sceneSets,
    profiles: options.profiles ? persusafetyProfilesNamed(options.profiles) : [...PERSUSAFETY_PERSUADEE_PROFILES],
    conditions: options.profileVisibility ? persusafetyConditionsNamed(options.profileVisibility) : [...PERSUSAFETY_PROFILE_CONDITIONS],
    constraints: [...constraints],
  };
}

/** A new run's design from the options (sampling: the benchmark's temperature 1 and 200 tokens unless typed; its judge at 0 with 1,000). */
function designFromOptions(options: PersusafetyCommandOptions, dataset: PersusafetyRunDesign['dataset']): PersusafetyRunDesign {
  if (options.models === undefined || options.models.length === 0)
    throw new InputError(`${COMMAND} needs --models a,b: the persuaders whose persuasion is judged`);
  const typed = (key: string) => options.given.has(key);
  return {
    kind: 'run',
    persuaders: [...options.models],
    persuadee: required(options.persuadee, '--persuadee', 'the model that plays the person being persuaded'),
    judge: required(options.judge, '--judge', "the model that scores each conversation's 15 strategies"),
    dataset,
    ...conditionsFromOptions(options),
    selection: { ...(options.limit === undefined ? {} : { limit: options.limit }), ...(options.sample === undefined ? {} : { sample: options.sample }) },
    repetitions: options.repeat,
    ...(typed('turns') && options.turns !== undefined ? { turns: options.turns } : {}),
    sampling: {
      temperature: typed('temperature') ? options.temperature : PERSUSAFETY_RUN_DEFAULTS.temperature,
      maxOutputTokens: typed('maxTokens') ? options.maxTokens : PERSUSAFETY_RUN_DEFAULTS.maxOutputTokens,
      maxAttempts: options.maxAttempts,
    },
    judgeSampling: {
      temperature: PERSUSAFETY_RUN_DEFAULTS.judgeTemperature,
      maxOutputTokens: PERSUSAFETY_RUN_DEFAULTS.judgeMaxOutputTokens,
      maxAttempts: options.maxAttempts,
    },
  };
}

/** Where a new run's scenes come from: the user's folder, recorded with each file's sha256, or the pinned files. */
async function datasetFromOptions(options: PersusafetyCommandOptions): Promise<PersusafetyRunDesign['dataset']> {
  if (options.dataset === undefined) return { kind: 'pinned', ...(options.dataDir ? { dataDir: resolve(options.dataDir) } : {}) };
  const path = resolve(options.dataset);
  const files = await readDatasetFolder(path, persusafetySceneSetsOf(options.scenes ?? 'both'));
  return { kind: 'folder', path, sha256: Object.fromEntries([...files].map(([name, file]) => [name, file.sha256])) };
}

async function prepareNewRun(options: PersusafetyCommandOptions, context: CommandContext): Promise<PreparedPersusafetyRun> {
  const design = designFromOptions(options, await datasetFromOptions(options));
  const items = await readPersusafetyRunItems(design, options.seed, context);
  const config = await checkedConfig(options.config, persusafetyModelsOf(design), options, context, {
    simulatedProtocol: persusafetySimulatedProtocol(items.scenes),
    batching: { all: options.batch === true },
  });
  return {
    config,
    seed: options.seed,
    design,
    ...items,
    batch: options.batch === true,
    ...(options.run ? { name: options.run } : {}),
    ...(options.config ? { configPath: resolve(options.config) } : {}),
  };
}

/** The latest PersuSafety run the store holds that pmiyc ran (an import is not one to resume). */
function latestRun(store: Store): string | undefined {
  return store.protocolRecords
    .runNames(PERSUSAFETY_PROTOCOL)
    .filter((name) => {
      const { config } = store.findRun(name);
      return config.kind === 'protocol' && persusafetyDesignOf(name, config.design).kind === 'run';
    })
    .at(-1);
}

async function prepareResume(store: Store, options: PersusafetyCommandOptions, context: CommandContext): Promise<PreparedPersusafetyRun> {
  const run = protocolRunToResume(store, WORDS, { named: options.run, latest: () => latestRun(store) });
  const design = persusafetyDesignOf(run.name, run.config.design);
  if (design.kind !== 'run')
    throw new InputError(`run ${run.name} is an import of PersuSafety's published results, which runs nothing: ${WORDS.wording.startNew}`);
  checkDesignFlags(WORDS.wording, run.name, DESIGN_FLAGS, design, options, (key) => options.given.has(key));
  const items = await readPersusafetyRunItems(design, run.seed, context, options.dataDir === undefined ? undefined : resolve(options.dataDir));
  const configPath = options.config ?? run.config.configPath;
  return {
    config: await loadConfig(configPath),
    seed: run.seed,
    name: run.name,
    design,
    ...items,
    batch: options.batch === true || run.config.batch === true,
    ...(configPath ? { configPath } : {}),
  };
}

/** The figures of a stored run, every record read by PersuSafety's schema, after the line that names its other roles; simulated agents labelled. */
function runText(store: Store, runName: string, { design }: PreparedPersusafetyRun): string[] {
  return storedRunFigures(store, runName, (stored, labelOf, run) => {
    const records = stored.map((record) => readPersusafetyRecord(run.name, record));
    return [
      `Persuadee ${labelOf(design.persuadee)}, judge ${labelOf(design.judge)}.`,
      ...persusafetyRunText(records, { ...DEFAULT_INTERVALS, seed: run.seed }, labelOf),
    ];
  });
}

export const persusafetyKind: StudyKind<PersusafetyCommandOptions, PreparedPersusafetyRun, ProtocolStudyOutcome> = {
  prepareNew: prepareNewRun,
  prepareResume,
  dryRun: protocolDryRun(prepareResume, persusafetyDryRunText),
  run: ({ store, prepared, input, failures }) =>
    runPersusafetyStudy({
      ...input,
      store,
      design: prepared.design,
      scenes: prepared.scenes,
      profiles: prepared.profiles,
      sceneSource: prepared.source,
      ...(prepared.batch ? { batch: true } : {}),
      onFailedConversation: (task, failure) =>
        failures(
          `${task.itemKey}: the ${failure.call} call${failure.turn === null ? '' : ` of turn ${failure.turn}`} failed (${failure.reason}): ${failure.detail}`,
        ),
    }),
  closing: protocolClosing(WORDS, runText),
};
