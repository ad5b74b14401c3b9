import { join, resolve } from 'node:path';
import type { PmiycConfig } from '../../config/config-schema.js';
import { InputError } from '../../domain/errors/input-error.js';
import { loadConfig } from '../../io/inputs/load-config.js';
import { syconClosingText } from '../../protocols/sycon/run/sycon-closing-text.js';
import { SYCON_PROTOCOL, type SyconDesign, syconDesignOf, syconModelsOf } from '../../protocols/sycon/run/sycon-design.js';
import { readSyconRecord, syconScoredConversationOf } from '../../protocols/sycon/run/sycon-record.js';
import { runSyconStudy } from '../../protocols/sycon/run/sycon-study.js';
import { syconSimulatedProtocol } from '../../protocols/sycon/sim/sycon-simulated.js';
import { parseSyconDefences, syconDefencesNamed } from '../../protocols/sycon/sycon-defences.js';
import {
  SYCON_DEFAULTS,
  SYCON_FILES,
  SYCON_SETTING_FILES,
  SYCON_SETTINGS,
  SYCON_SOURCE,
  type SyconFileName,
  type SyconSetting,
} from '../../protocols/sycon/sycon-facts.js';
import { syconMetrics } from '../../protocols/sycon/sycon-metrics.js';
import { type SyconQuestion, type SyconTexts, selectSyconQuestions, syconQuestionsOf } from '../../protocols/sycon/sycon-questions.js';
import { readSyconQuestions } from '../../protocols/sycon/sycon-questions-recipe.js';
import type { Store } from '../../store/result-store.js';
import type { ProtocolStudyOutcome } from '../../studies/protocol-study.js';
import { checkDesignFlags, type DesignFlag, listText, optionalText } from '../../studies/study-resume.js';
import { type CommandContext, dataOf } from '../command-context.js';
import { checkedConfig, type StudyCommandOptions, type StudyKind } from '../study-command.js';
import { protocolDryRun } from './protocol-dry-run.js';
import { type ProtocolRunWords, protocolClosing, protocolRunToResume, readWithSha256, storedRunFigures } from './protocol-run-kind.js';
import { syconDryRunText } from './sycon-dry-run.js';

/**
 * `pmiyc run --protocol sycon` (docs/design/protocols.md, "SYCON-Bench"): how long a model holds a stance under
 * pressure, asked of each model under test over SYCON-Bench's questions (or a user's folder of them), under each
 * defence, judged by one model, pushed by the benchmark's push-backs and an optional pressure agent; stored,
 * resumable and replayed as every study.
 */

export interface SyconCommandOptions extends StudyCommandOptions {
  /** The models under test. */
  readonly models?: readonly string[];
  readonly judge?: string;
  /** The pressure agent. */
  readonly pressure?: string;
  readonly settings?: readonly string[];
  /** A user's folder of questions in SYCON-Bench's layout, instead of the pinned files. */
  readonly questions?: string;
  /** pmiyc's defences by name (comma-separated), or a file of the user's own. */
  readonly defences?: string;
  readonly pressureTurns?: number;
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

/** What a SYCON session runs: the design (new, or the stored run's) and its questions, read and selected. */
interface PreparedSyconRun {
  readonly config: PmiycConfig;
  readonly configPath?: string;
  readonly seed: number;
  readonly name?: string;
  readonly design: SyconDesign;
  readonly questions: readonly SyconQuestion[];
  readonly questionSource: string;
  /** `--batch` now, or kept with the resumed run. */
  readonly batch: boolean;
}

const WORDS: ProtocolRunWords = {
  protocol: SYCON_PROTOCOL,
  command: 'pmiyc run --protocol sycon',
  wording: {
    study: 'SYCON-Bench run',
    short: 'run',
    startOne: 'pmiyc run --protocol sycon --models a,b --judge c',
    startNew: 'start a new run (without --resume)',
  },
  aRun: 'a SYCON-Bench run',
};

/** The settings a user names (any case), each once in SYCON's order; all of them when none is named. */
function settingsNamed(names: readonly string[] | undefined): SyconSetting[] {
  if (names === undefined) return [...SYCON_SETTINGS];
  const wanted = names.map((name) => {
    const setting = SYCON_SETTINGS.find((candidate) => candidate === name.trim().toLowerCase());
    if (setting === undefined) throw new InputError(`${JSON.stringify(name)} is not one of SYCON-Bench's settings: give ${SYCON_SETTINGS.join(' or ')}`);
    return setting;
  });
  return SYCON_SETTINGS.filter((setting) => wanted.includes(setting));
}

/** Whether `--defences` names a file (a path, or a YAML or JSON name) rather than pmiyc's defences. */
const namesFile = (value: string) => /[\\/]|\.(ya?ml|json)$/i.test(value);

const defencesText = (value: string | undefined) => (value === undefined ? optionalText(undefined) : namesFile(value) ? resolve(value) : value);

const DESIGN_FLAGS: readonly DesignFlag<SyconDesign, SyconCommandOptions>[] = [
  { flag: '--models', keys: ['models'], stored: (design) => listText(design.persuadees), given: (options) => listText(options.models) },
  { flag: '--judge', keys: ['judge'], stored: (design) => design.judge, given: (options) => optionalText(options.judge) },
  { flag: '--pressure', keys: ['pressure'], stored: (design) => optionalText(design.persuader), given: (options) => optionalText(options.pressure) },
  {
    flag: '--settings',
    keys: ['settings'],
    stored: (design) => listText(design.questions.selection.settings),
    given: (options) => listText(settingsNamed(options.settings)),
  },
  {
    flag: '--questions',
    keys: ['questions'],
    stored: (design) => (design.questions.source.kind === 'folder' ? design.questions.source.path : optionalText(undefined)),
    given: (options) => (options.questions === undefined ? optionalText(undefined) : resolve(options.questions)),
  },
  {
    flag: '--defences',
    keys: ['defences'],
    stored: ({ defences }) => (defences.source.kind === 'file' ? defences.source.path : listText(defences.list.slice(1).map((defence) => defence.name))),
    given: (options) => defencesText(options.defences),
  },
  {
    flag: '--pressure-turns',
    keys: ['pressureTurns'],
    stored: (design) => String(design.pressureTurns),
    given: (options) => optionalText(options.pressureTurns),
  },
  { flag: '--limit', keys: ['limit'], stored: (design) => optionalText(design.questions.selection.limit), given: (options) => optionalText(options.limit) },
  { flag: '--sample', keys: ['sample'], stored: (design) => optionalText(design.questions.selection.sample), given: (options) => optionalText(options.sample) },
  { flag: '--repeat', keys: ['repeat'], stored: (design) => String(design.repetitions), given: (options) => String(options.repeat) },
];

/** The defences a new run compares: a user's file (with its sha256) or pmiyc's named ones, the baseline first. */
async function defencesOf(value: string | undefined): Promise<SyconDesign['defences']> {
  if (value !== undefined && namesFile(value)) {
    const path = resolve(value);
    const file = await readWithSha256(path, path, 'check --defences (a YAML or JSON file of name: system prompt)');
    return { source: { kind: 'file', path, sha256: file.sha256 }, list: parseSyconDefences(path, file.content) };
  }
  const names = value === undefined ? [] : value.split(',').filter((name) => name.trim() !== '');
  return { source: { kind: 'named' }, list: syconDefencesNamed(names) };
}

/** A new run's design from the options (temperature: the benchmark's 0 unless typed). */
function syconDesignFromOptions(options: SyconCommandOptions, source: SyconDesign['questions']['source'], defences: SyconDesign['defences']): SyconDesign {
  if (options.models === undefined || options.models.length === 0)
    throw new InputError('pmiyc run --protocol sycon needs --models a,b: the models whose steadiness under pressure is measured');
  if (options.judge === undefined) throw new InputError('pmiyc run --protocol sycon needs --judge MODEL: the model that labels each reply against the stance');
  const pressureTurns = options.pressureTurns ?? SYCON_DEFAULTS.pressureTurns;
  if (pressureTurns > SYCON_DEFAULTS.maxPressureTurns)
    throw new InputError(
      `--pressure-turns is ${pressureTurns}: SYCON-Bench pushes at most ${SYCON_DEFAULTS.maxPressureTurns} times; give 1 to ${SYCON_DEFAULTS.maxPressureTurns}`,
    );
  return {
    persuadees: [...options.models],
    judge: options.judge,
    ...(options.pressure ? { persuader: options.pressure } : {}),
    questions: {
      source,
      selection: {
        settings: settingsNamed(options.settings),
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        ...(options.sample === undefined ? {} : { sample: options.sample }),
      },
    },
    defences,
    pressureTurns,
    repetitions: options.repeat,
    sampling: {
      temperature: options.given.has('temperature') ? options.temperature : SYCON_DEFAULTS.temperature,
      maxOutputTokens: options.maxTokens,
      maxAttempts: options.maxAttempts,
    },
    judgeTemperature: SYCON_DEFAULTS.temperature,
  };
}

/** The files of `settings` in a user's folder laid out as the benchmark's, each with its sha256. */
async function readQuestionFolder(folder: string, settings: readonly SyconSetting[]): Promise<{ texts: SyconTexts; sha256: Record<string, string> }> {
  const texts: SyconTexts = {};
  const sha256: Record<string, string> = {};
  const names: SyconFileName[] = settings.flatMap((setting) => [...SYCON_SETTING_FILES[setting]]);
  for (const name of names) {
    const { path } = SYCON_FILES[name];
    const file = await readWithSha256(
      join(folder, path),
      join(folder, path),
      `a --questions folder is laid out as SYCON-Bench's repository (${path} and the other files of the settings asked)`,
    );
    texts[name] = { name: join(folder, path), content: file.content };
    sha256[path] = file.sha256;
  }
  return { texts, sha256 };
}

/**
 * The run's questions, read from where its design says (the pinned files from `dataDir`, a resume's `--data-dir` when
 * given: their sha256 is checked wherever they are read from; or the user's folder, each file checked against the
 * sha256 it had when the run started) and selected as it says.
 */
async function readDesignQuestions(
  design: SyconDesign,
  seed: number,
  context: CommandContext,
  dataDir?: string,
): Promise<{ questions: SyconQuestion[]; source: string }> {
  const { source, selection } = design.questions;
  let all: SyconQuestion[];
  let named: string;
  if (source.kind === 'folder') {
    const read = await readQuestionFolder(source.path, selection.settings);
    const changed = Object.entries(read.sha256).find(([path, digest]) => source.sha256[path] !== undefined && source.sha256[path] !== digest);
    if (changed)
      throw new InputError(
        `${join(source.path, changed[0])} has changed since the run started (sha256 ${changed[1]}, was ${source.sha256[changed[0]]}): restore it, or start a new run`,
      );
    all = syconQuestionsOf(read.texts, selection.settings);
    named = source.path;
  } else {
    all = await readSyconQuestions(dataOf(context).files(dataDir ?? source.dataDir), selection.settings);
    named = `the pinned files of ${SYCON_SOURCE.repository} at ${SYCON_SOURCE.commit.slice(0, 7)}`;
  }
  const questions = selectSyconQuestions(all, { ...selection, seed });
  if (questions.length === 0) throw new InputError(`no question of ${named} is selected: check --settings, --limit and --sample`);
  return { questions, source: named };
}

async function prepareNewSyconRun(options: SyconCommandOptions, context: CommandContext): Promise<PreparedSyconRun> {
  const settings = settingsNamed(options.settings);
  const source: SyconDesign['questions']['source'] = options.questions
    ? { kind: 'folder', path: resolve(options.questions), sha256: (await readQuestionFolder(resolve(options.questions), settings)).sha256 }
    : { kind: 'pinned', ...(options.dataDir ? { dataDir: resolve(options.dataDir) } : {}) };
  const design = syconDesignFromOptions(options, source, await defencesOf(options.defences));
  const { questions, source: questionSource } = await readDesignQuestions(design, options.seed, context);
  const config = await checkedConfig(options.config, syconModelsOf(design), options, context, {
    simulatedProtocol: syconSimulatedProtocol(design.defences.list),
    batching: { all: options.batch === true },
  });
  return {
    config,
    seed: options.seed,
    design,
    questions,
    questionSource,
    batch: options.batch === true,
    ...(options.run ? { name: options.run } : {}),
    ...(options.config ? { configPath: resolve(options.config) } : {}),
  };
}

async function prepareSyconResume(store: Store, options: SyconCommandOptions, context: CommandContext): Promise<PreparedSyconRun> {
  const run = protocolRunToResume(store, WORDS, { named: options.run, latest: () => store.protocolRecords.runNames(SYCON_PROTOCOL).at(-1) });
  const design = syconDesignOf(run.name, run.config.design);
  checkDesignFlags(WORDS.wording, run.name, DESIGN_FLAGS, design, options, (key) => options.given.has(key));
  const { questions, source } = await readDesignQuestions(design, run.seed, context, options.dataDir === undefined ? undefined : resolve(options.dataDir));
  const configPath = options.config ?? run.config.configPath;
  return {
    config: await loadConfig(configPath),
    seed: run.seed,
    name: run.name,
    design,
    questions,
    questionSource: source,
    batch: options.batch === true || run.config.batch === true,
    ...(configPath ? { configPath } : {}),
  };
}

/** The figures of a stored run, every record read by SYCON's schema, after the line that names its judge and pressure. */
function syconRunText(store: Store, runName: string, { design }: PreparedSyconRun): string[] {
  return storedRunFigures(store, runName, (records, labelOf, run) => {
    const conversations = records.map((stored) => syconScoredConversationOf(readSyconRecord(run.name, stored)));
    const pressure = design.persuader === undefined ? 'no pressure agent' : `pressure agent ${labelOf(design.persuader)}`;
    return [`Judge ${labelOf(design.judge)}, ${pressure}.`, ...syconClosingText(syconMetrics(conversations, { pressureTurns: design.pressureTurns }), labelOf)];
  });
}

export const syconKind: StudyKind<SyconCommandOptions, PreparedSyconRun, ProtocolStudyOutcome> = {
  prepareNew: prepareNewSyconRun,
  prepareResume: prepareSyconResume,
  dryRun: protocolDryRun(prepareSyconResume, syconDryRunText),
  run: ({ store, prepared, input, failures }) =>
    runSyconStudy({
      ...input,
      store,
      design: prepared.design,
      questions: prepared.questions,
      questionSource: prepared.questionSource,
      ...(prepared.batch ? { batch: true } : {}),
      onFailedConversation: (task, failure) =>
        failures(
          `${task.persuadee} under ${task.defence} on ${task.setting} question ${task.questionIndex}: the ${failure.role}'s call of turn ${failure.turn} failed (${failure.reason}): ${failure.detail}`,
        ),
    }),
  closing: protocolClosing(WORDS, syconRunText),
};
