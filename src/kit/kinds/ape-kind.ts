import { resolve } from 'node:path';
import type { PmiycConfig } from '../../config/config-schema.js';
import { InputError } from '../../domain/errors/input-error.js';
import { loadConfig } from '../../io/inputs/load-config.js';
import { apeMetrics } from '../../protocols/ape/ape-metrics.js';
import { type ApeTopic, apeCategoriesNamed, parseApeTopics, selectApeTopics } from '../../protocols/ape/ape-topics.js';
import { APE_TOPICS_RECIPE, readApeTopics } from '../../protocols/ape/ape-topics-recipe.js';
import { APE_PROTOCOL, APE_TEMPERATURE, type ApeDesign, apeDesignOf, apeModelsOf } from '../../protocols/ape/run/ape-design.js';
import { apeRatesText } from '../../protocols/ape/run/ape-rates-text.js';
import { apeScoredConversationOf, readApeRecord } from '../../protocols/ape/run/ape-record.js';
import { runApeStudy } from '../../protocols/ape/run/ape-study.js';
import { apeVariantsUsed, checkApeResumeVariants, checkApeRoleModels } from '../../protocols/ape/run/ape-variants.js';
import { apeSimulatedProtocol } from '../../protocols/ape/sim/ape-simulated.js';
import type { Store } from '../../store/result-store.js';
import type { ProtocolStudyOutcome } from '../../studies/protocol-study.js';
import { checkDesignFlags, type DesignFlag, listText, optionalText } from '../../studies/study-resume.js';
import { type CommandContext, dataOf } from '../command-context.js';
import { checkConfigModels, type StudyCommandOptions, type StudyKind } from '../study-command.js';
import { apeDryRunText } from './ape-dry-run.js';
import { protocolDryRun } from './protocol-dry-run.js';
import { type ProtocolRunWords, protocolClosing, protocolRunToResume, readWithSha256, requiredModel, storedRunFigures } from './protocol-run-kind.js';

/**
 * `pmiyc run --protocol ape` (docs/design/protocols.md): APE's question, will a model try to persuade on a harmful
 * topic, asked of each persuader over APE's topics (or a user's file of them), with one persuadee, one evaluator
 * and an optional second refusal check; stored, resumable and replayed as every study.
 */

export interface ApeCommandOptions extends StudyCommandOptions {
  /** The persuaders. */
  readonly models?: readonly string[];
  readonly persuadee?: string;
  readonly evaluator?: string;
  readonly refusalCheck?: string;
  readonly categories?: readonly string[];
  /** A user's own topic file in APE's format, instead of the pinned one. */
  readonly topics?: string;
  /** Tell the persuader its drawn degree (the benchmark's default prompt names none). */
  readonly stateDegree?: boolean;
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

/** What an APE session runs: the design (new, or the stored run's) and its topics, read and selected. */
interface PreparedApeRun {
  readonly config: PmiycConfig;
  readonly configPath?: string;
  readonly seed: number;
  readonly name?: string;
  readonly design: ApeDesign;
  readonly topics: readonly ApeTopic[];
  readonly topicSource: string;
  /** `--batch` now, or kept with the resumed run. */
  readonly batch: boolean;
}

const WORDS: ProtocolRunWords = {
  protocol: APE_PROTOCOL,
  command: 'pmiyc run --protocol ape',
  wording: {
    study: 'APE run',
    short: 'run',
    startOne: 'pmiyc run --protocol ape --models a,b --persuadee c --evaluator d',
    startNew: 'start a new run (without --resume)',
  },
  aRun: 'an APE run',
};

const DESIGN_FLAGS: readonly DesignFlag<ApeDesign, ApeCommandOptions>[] = [
  { flag: '--models', keys: ['models'], stored: (design) => listText(design.persuaders), given: (options) => listText(options.models) },
  { flag: '--persuadee', keys: ['persuadee'], stored: (design) => design.persuadee, given: (options) => optionalText(options.persuadee) },
  { flag: '--evaluator', keys: ['evaluator'], stored: (design) => design.evaluator, given: (options) => optionalText(options.evaluator) },
  {
    flag: '--refusal-check',
    keys: ['refusalCheck'],
    stored: (design) => optionalText(design.refusalCheck),
    given: (options) => optionalText(options.refusalCheck),
  },
  {
    flag: '--categories',
    keys: ['categories'],
    stored: (design) => listText(design.topics.selection.categories),
    given: (options) => listText(options.categories && apeCategoriesNamed(options.categories)),
  },
  {
    flag: '--topics',
    keys: ['topics'],
    stored: (design) => (design.topics.source.kind === 'file' ? design.topics.source.path : optionalText(undefined)),
    given: (options) => (options.topics === undefined ? optionalText(undefined) : resolve(options.topics)),
  },
  { flag: '--limit', keys: ['limit'], stored: (design) => optionalText(design.topics.selection.limit), given: (options) => optionalText(options.limit) },
  { flag: '--sample', keys: ['sample'], stored: (design) => optionalText(design.topics.selection.sample), given: (options) => optionalText(options.sample) },
  {
    flag: '--state-degree',
    keys: ['stateDegree'],
    stored: (design) => String(design.statedDegree),
    given: (options) => String(options.stateDegree === true),
  },
  { flag: '--repeat', keys: ['repeat'], stored: (design) => String(design.repetitions), given: (options) => String(options.repeat) },
];

const required = (value: string | undefined, flag: string, what: string) => requiredModel(WORDS.command, value, flag, what);

/**
 * A new run's design from the options (temperature: the benchmark's 0.5 unless typed), with the APE templates of
 * the variants its persuaders use, read from the config (run/ape-variants.ts).
 */
function apeDesignFromOptions(options: ApeCommandOptions, source: ApeDesign['topics']['source'], config: PmiycConfig): ApeDesign {
  if (options.models === undefined || options.models.length === 0)
    throw new InputError('pmiyc run --protocol ape needs --models a,b: the persuaders whose willingness to persuade is measured');
  checkApeRoleModels({ '--persuadee': options.persuadee, '--evaluator': options.evaluator, '--refusal-check': options.refusalCheck });
  const variants = apeVariantsUsed(options.models, config, options.stateDegree === true);
  return {
    persuaders: [...options.models],
    ...(Object.keys(variants).length > 0 ? { variants } : {}),
    persuadee: required(options.persuadee, '--persuadee', 'the model that plays the person being persuaded'),
    evaluator: required(options.evaluator, '--evaluator', "the model that classifies each persuader's message"),
    ...(options.refusalCheck ? { refusalCheck: options.refusalCheck } : {}),
    topics: {
      source,
      selection: {
        ...(options.categories ? { categories: apeCategoriesNamed(options.categories) } : {}),
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        ...(options.sample === undefined ? {} : { sample: options.sample }),
      },
    },
    repetitions: options.repeat,
    turns: 3,
    statedDegree: options.stateDegree === true,
    sampling: {
      temperature: options.given.has('temperature') ? options.temperature : APE_TEMPERATURE,
      maxOutputTokens: options.maxTokens,
      maxAttempts: options.maxAttempts,
    },
  };
}

/** A user's topic file, read with its sha256. */
const readTopicFile = (path: string) => readWithSha256(path, `the topic file ${path}`, 'check --topics');

/**
 * The run's topics, read from where its design says (APE's pinned file from `dataDir`, a resume's `--data-dir`
 * when given: the file's sha256 is checked wherever it is read from) and selected as it says.
 */
async function readDesignTopics(design: ApeDesign, seed: number, context: CommandContext, dataDir?: string): Promise<{ topics: ApeTopic[]; source: string }> {
  const { source, selection } = design.topics;
  let all: ApeTopic[];
  let named: string;
  if (source.kind === 'file') {
    const file = await readTopicFile(source.path);
    if (file.sha256 !== source.sha256)
      throw new InputError(
        `the topic file ${source.path} has changed since the run started (sha256 ${file.sha256}, was ${source.sha256}): restore it, or start a new run`,
      );
    all = parseApeTopics(source.path, file.content);
    named = source.path;
  } else {
    all = await readApeTopics(dataOf(context).files(dataDir ?? source.dataDir));
    named = APE_TOPICS_RECIPE.title;
  }
  const topics = selectApeTopics(all, { ...selection, seed });
  if (topics.length === 0) throw new InputError(`no topic of ${named} is selected: check --categories, --limit and --sample`);
  return { topics, source: named };
}

async function prepareNewApeRun(options: ApeCommandOptions, context: CommandContext): Promise<PreparedApeRun> {
  const source: ApeDesign['topics']['source'] = options.topics
    ? { kind: 'file', path: resolve(options.topics), sha256: (await readTopicFile(resolve(options.topics))).sha256 }
    : { kind: 'pinned', ...(options.dataDir ? { dataDir: resolve(options.dataDir) } : {}) };
  const config = await loadConfig(options.config);
  const design = apeDesignFromOptions(options, source, config);
  const { topics, source: topicSource } = await readDesignTopics(design, options.seed, context);
  checkConfigModels(config, apeModelsOf(design), options, context, {
    simulatedProtocol: apeSimulatedProtocol(topics),
    batching: { all: options.batch === true },
  });
  return {
    config,
    seed: options.seed,
    design,
    topics,
    topicSource,
    batch: options.batch === true,
    ...(options.run ? { name: options.run } : {}),
    ...(options.config ? { configPath: resolve(options.config) } : {}),
  };
}

async function prepareApeResume(store: Store, options: ApeCommandOptions, context: CommandContext): Promise<PreparedApeRun> {
  const run = protocolRunToResume(store, WORDS, { named: options.run, latest: () => store.protocolRecords.runNames(APE_PROTOCOL).at(-1) });
  const design = apeDesignOf(run.name, run.config.design);
  checkDesignFlags(WORDS.wording, run.name, DESIGN_FLAGS, design, options, (key) => options.given.has(key));
  const { topics, source } = await readDesignTopics(design, run.seed, context, options.dataDir === undefined ? undefined : resolve(options.dataDir));
  const configPath = options.config ?? run.config.configPath;
  const config = await loadConfig(configPath);
  checkApeResumeVariants(run.name, design.variants ?? {}, config);
  return {
    config,
    seed: run.seed,
    name: run.name,
    design,
    topics,
    topicSource: source,
    batch: options.batch === true || run.config.batch === true,
    ...(configPath ? { configPath } : {}),
  };
}

/** The rates of a stored run, every record read by APE's schema, after the line that names its other roles; simulated agents labelled. */
function apeRunText(store: Store, runName: string, { design }: PreparedApeRun): string[] {
  return storedRunFigures(store, runName, (records, labelOf, run) => {
    const conversations = records.map((stored) => apeScoredConversationOf(readApeRecord(run.name, stored)));
    const check = design.refusalCheck === undefined ? '' : `, refusal check ${labelOf(design.refusalCheck)}`;
    return [`Persuadee ${labelOf(design.persuadee)}, evaluator ${labelOf(design.evaluator)}${check}.`, ...apeRatesText(apeMetrics(conversations), labelOf)];
  });
}

export const apeKind: StudyKind<ApeCommandOptions, PreparedApeRun, ProtocolStudyOutcome> = {
  prepareNew: prepareNewApeRun,
  prepareResume: prepareApeResume,
  dryRun: protocolDryRun(prepareApeResume, apeDryRunText),
  run: ({ store, prepared, input, failures }) =>
    runApeStudy({
      ...input,
      store,
      design: prepared.design,
      topics: prepared.topics,
      topicSource: prepared.topicSource,
      ...(prepared.batch ? { batch: true } : {}),
      onFailedConversation: (task, failure) =>
        failures(
          `${task.persuader} on topic ${task.topicIndex} (${task.topic.shortTitle}): the ${failure.role}'s call of turn ${failure.turn} failed (${failure.reason}): ${failure.detail}`,
        ),
    }),
  closing: protocolClosing(WORDS, apeRunText),
};
