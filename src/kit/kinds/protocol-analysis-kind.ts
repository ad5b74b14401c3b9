import { resolve } from 'node:path';
import type { PmiycConfig } from '../../config/config-schema.js';
import { resolveModelSettings } from '../../config/resolve-model-settings.js';
import { InputError } from '../../domain/errors/input-error.js';
import { loadConfig } from '../../io/inputs/load-config.js';
import { modelFileSha256 } from '../../io/process/model-file-digest.js';
import { DEFAULT_INTERVALS } from '../../metrics/intervals/claim-estimates.js';
import { findProvider } from '../../models/providers/provider-catalog.js';
import type { Prices } from '../../models/wrappers/with-cost.js';
import { protocolAnalysisDryRunText, protocolAnalysisSessionLine } from '../../report/texts/protocol-analysis-text.js';
import { protocolFiguresText } from '../../report/texts/protocol-figures-text.js';
import { describeStop } from '../../runner/session-ending.js';
import { openToRead } from '../../store/open-to-read.js';
import type { Store } from '../../store/result-store.js';
import type { ProtocolAnalysis } from '../../studies/protocol-analysis/protocol-analysis.js';
import type { ProtocolAnalysisDesign } from '../../studies/protocol-analysis/protocol-analysis-config.js';
import { estimateProtocolAnalysis } from '../../studies/protocol-analysis/protocol-analysis-estimate.js';
import { type ProtocolAnalysisOutcome, runProtocolAnalysisStudy, studiedItems } from '../../studies/protocol-analysis/protocol-analysis-study.js';
import type { StudyRun } from '../../studies/run-config.js';
import { checkDesignFlags, type DesignFlag, optionalText, type ResumeWording, studyToResume } from '../../studies/study-resume.js';
import type { CommandContext } from '../command-context.js';
import { protocolAnalysisOf, protocolOutputsOf } from '../protocol-registry.js';
import { checkedConfig, type StudyCommandOptions, type StudyKind, withStore } from '../study-command.js';
import type { AnalyzeCommandOptions } from './analysis-kind.js';

/**
 * `pmiyc analyze --run <a protocol run> --judge MODEL` (docs/design/protocols.md, "Another judge of a protocol run"):
 * another judge labels a protocol run's items again, asked as the protocol's own judge is, in a study of its own
 * (stored, resumed and replayed as every study); the closing text gives the agreement between the two judges, as
 * the run's report does. Which protocols can be labelled again is the registry's (`protocolAnalysisOf`).
 */

/** What a protocol analysis session runs: the studied run, its protocol's analysis, and the design (new, or the stored study's). */
export interface PreparedProtocolAnalysis {
  readonly config: PmiycConfig;
  readonly configPath?: string;
  readonly seed: number;
  readonly name?: string;
  readonly studiedRun: string;
  readonly analysis: ProtocolAnalysis;
  readonly design: ProtocolAnalysisDesign;
}

const WORDING: ResumeWording = {
  study: 'analysis study of a protocol run',
  short: 'study',
  startOne: 'pmiyc analyze --run RUN --judge MODEL',
  startNew: 'start a new study (without --resume)',
};

const DESIGN_FLAGS: readonly DesignFlag<PreparedProtocolAnalysis, AnalyzeCommandOptions>[] = [
  { flag: '--judge', keys: ['judge'], stored: (study) => study.design.judge, given: (options) => (options.judge ?? []).join(',') },
  { flag: '--run', keys: ['run'], stored: (study) => study.studiedRun, given: (options) => optionalText(options.run) },
  { flag: '--sample', keys: ['sample'], stored: (study) => optionalText(study.design.sample), given: (options) => optionalText(options.sample) },
];

/** The flags of a tournament's analysis, which a protocol run's judge does not take. */
const TOURNAMENT_FLAGS: ReadonlyArray<readonly [key: keyof AnalyzeCommandOptions, flag: string]> = [
  ['taxonomy', '--taxonomy'],
  ['grain', '--grain'],
  ['probeDrift', '--probe-drift'],
  ['batch', '--batch'],
];

function refuseTournamentFlags(options: AnalyzeCommandOptions, run: string): void {
  const typed = TOURNAMENT_FLAGS.filter(([key]) => options.given.has(key)).map(([, flag]) => flag);
  if (typed.length > 0)
    throw new InputError(
      `${typed.join(', ')} ${typed.length === 1 ? 'is' : 'are'} for a tournament's analysis; run ${run} is a protocol run, labelled again with its protocol's own checklist: drop ${typed.length === 1 ? 'it' : 'them'}`,
    );
}

/** The one judge of a new study. */
function judgeOf(options: AnalyzeCommandOptions, run: string): string {
  const judges = options.judge ?? [];
  if (judges.length !== 1)
    throw new InputError(
      `name one judge to label run ${run} again: --judge MODEL${judges.length > 1 ? ` (one study per judge: run pmiyc analyze once for each of ${judges.join(', ')})` : ''}`,
    );
  return judges[0]!;
}

/** The protocol run `--run` names, read from a store that exists; anything else is refused with what it is. */
function studiedRunOf(store: Pick<Store, 'findRun'>, name: string): { run: StudyRun; protocol: string } {
  const run = store.findRun(name);
  if (run.config.kind !== 'protocol')
    throw new InputError(`run ${name} is not a protocol run: name a run made by pmiyc run --protocol or pmiyc import persusafety`);
  return { run, protocol: run.config.protocol };
}

async function prepareNew(options: AnalyzeCommandOptions, context: CommandContext): Promise<PreparedProtocolAnalysis> {
  const runName = options.run;
  if (runName === undefined) throw new InputError('name the protocol run to label again: --run RUN');
  refuseTournamentFlags(options, runName);
  const judge = judgeOf(options, runName);
  const store = openToRead(options.store);
  if (store === undefined) throw new InputError(`there is no store at ${options.store}: name the store that holds run ${runName} with --store`);
  const analysis = (() => {
    try {
      return protocolAnalysisOf(studiedRunOf(store, runName).protocol, runName);
    } finally {
      store.close();
    }
  })();
  const typed = (key: string) => options.given.has(key);
  const design: ProtocolAnalysisDesign = {
    judge,
    ...(options.sample === undefined ? {} : { sample: options.sample }),
    sampling: {
      temperature: typed('temperature') ? options.temperature : analysis.sampling.temperature,
      maxOutputTokens: typed('maxTokens') ? options.maxTokens : analysis.sampling.maxOutputTokens,
      maxAttempts: options.maxAttempts,
    },
  };
  const config = await checkedConfig(
    options.config,
    [judge],
    options,
    context,
    analysis.simulatedProtocol ? { simulatedProtocol: analysis.simulatedProtocol } : {},
  );
  return {
    config,
    seed: options.seed,
    studiedRun: runName,
    analysis,
    design,
    ...(options.study ? { name: options.study } : {}),
    ...(options.config ? { configPath: resolve(options.config) } : {}),
  };
}

async function prepareResume(store: Store, options: AnalyzeCommandOptions): Promise<PreparedProtocolAnalysis> {
  const latest = () => (options.run === undefined ? store.latestRunOf('protocol-analysis')?.name : store.protocolRecords.analysisNames(options.run).at(-1));
  const study = studyToResume(store, WORDING, { named: options.study, latest });
  const { config } = study;
  if (config.kind !== 'protocol-analysis') throw new InputError(`${study.name} is not an analysis study of a protocol run: ${WORDING.startNew}`);
  refuseTournamentFlags(options, config.studiedRun);
  const configPath = options.config ?? config.configPath;
  const prepared: PreparedProtocolAnalysis = {
    config: await loadConfig(configPath),
    seed: study.seed,
    name: study.name,
    studiedRun: config.studiedRun,
    analysis: protocolAnalysisOf(config.protocol, config.studiedRun),
    design: config.design,
    ...(configPath ? { configPath } : {}),
  };
  checkDesignFlags(WORDING, study.name, DESIGN_FLAGS, prepared, options, (key) => options.given.has(key));
  return prepared;
}

/**
 * Whether `pmiyc analyze` is asked of a protocol run (`--run` names one, or `--resume --study` names a study of
 * one), rather than of a tournament: read from the store, when there is one.
 */
export function analyzesProtocolRun(options: Pick<AnalyzeCommandOptions, 'store' | 'run' | 'study' | 'resume'>): boolean {
  const named = options.run ?? (options.resume ? options.study : undefined);
  if (named === undefined) return false;
  const store = openToRead(options.store);
  if (store === undefined || !store.hasRun(named)) {
    store?.close();
    return false;
  }
  try {
    const { kind } = store.findRun(named).config;
    return options.run === undefined ? kind === 'protocol-analysis' : kind === 'protocol';
  } finally {
    store.close();
  }
}

/** Models that run inside pmiyc (simulated agents, llama's GGUF files) cost nothing; others what the config says. */
function pricesOf(config: PmiycConfig, env: CommandContext['env'], model: string): Prices | undefined {
  const settings = resolveModelSettings(model, config, env);
  const kind = findProvider(settings.provider)?.kind;
  if (kind === 'sim' || kind === 'llama') return { inputUsdPerMillion: 0, outputUsdPerMillion: 0 };
  return settings.inputUsdPerMillion === undefined || settings.outputUsdPerMillion === undefined ? undefined : settings;
}

async function dryRun(
  fresh: PreparedProtocolAnalysis | undefined,
  options: AnalyzeCommandOptions & StudyCommandOptions,
  context: CommandContext,
): Promise<string[]> {
  return withStore(options.store, 'read', context.now, async (store) => {
    const prepared = fresh ?? (await prepareResume(store, options));
    const studied = store.findRun(prepared.studiedRun);
    const items = studiedItems(store, prepared.analysis, studied, prepared.design, prepared.seed);
    const study = fresh === undefined && prepared.name !== undefined ? store.findRun(prepared.name) : undefined;
    const estimate = await estimateProtocolAnalysis({
      analysis: prepared.analysis,
      design: prepared.design,
      items,
      seed: prepared.seed,
      config: prepared.config,
      env: context.env,
      ...(options.cache || study ? { calls: store.callCache(study?.id ?? 0, { reuseEarlierRuns: options.cache }) } : {}),
      ...(study ? { isDone: (item) => store.protocolRecords.has(study.id, item.itemKey) } : {}),
      fileSha256: (settings) => modelFileSha256(settings, { knownFileSha256: (...file) => store.knownFileSha256(...file), rememberFileSha256: () => {} }),
      prices: pricesOf(prepared.config, context.env, prepared.design.judge),
    });
    return protocolAnalysisDryRunText(estimate, { ...prepared, studiedRun: studied.name, labels: prepared.analysis.labels, unit: prepared.analysis.unit });
  });
}

/** The agreement of the study's judge with the run's, as the run's report gives it, in text. */
function agreementText(store: Store, studiedRun: string, studyName: string): string[] {
  const run = store.findRun(studiedRun);
  if (run.config.kind !== 'protocol') return [];
  const { judgeAgreement } = protocolOutputsOf(run.config.protocol);
  if (judgeAgreement === undefined) return [];
  const study = store.findRun(studyName);
  const figures = judgeAgreement(
    run,
    store.protocolRecords.list(run.id),
    { run: study, records: store.protocolRecords.list(study.id) },
    { ...DEFAULT_INTERVALS, seed: run.seed },
  );
  return protocolFiguresText(figures);
}

export const protocolAnalysisKind: StudyKind<AnalyzeCommandOptions, PreparedProtocolAnalysis, ProtocolAnalysisOutcome> = {
  prepareNew,
  prepareResume: (store, options) => prepareResume(store, options),
  // The run to label again is in a store that exists.
  access: () => 'write',
  dryRun,
  run: ({ store, prepared, input, failures }) =>
    runProtocolAnalysisStudy({
      ...input,
      store,
      analysis: prepared.analysis,
      design: prepared.design,
      studiedRun: store.findRun(prepared.studiedRun),
      onFailedItem: (item, reason, detail) => failures(`${prepared.design.judge} on ${item.itemKey} (${reason}): ${detail}`),
    }),
  closing: ({ store, options, prepared }, outcome) => {
    const calls = store.callTotals(outcome.run.id, outcome.callsMark);
    const { config } = store.findRun(outcome.run.name);
    const simulatedJudge = config.kind === 'protocol-analysis' && config.simulated.includes(prepared.design.judge);
    const lines = [protocolAnalysisSessionLine(outcome, calls, { ...prepared, storePath: options.store, simulatedJudge }), ''];
    const resume = `pmiyc analyze --store ${options.store} --study ${outcome.run.name} --resume`;
    if (outcome.ending.status !== 'completed') {
      const warning = describeStop(outcome.ending, {
        resume,
        items: prepared.analysis.unit,
        blockedModels: outcome.blockedModels,
        budgetRefusal: outcome.budgetRefusal,
        ...(options.maxCost === undefined ? {} : { maxCost: options.maxCost }),
      });
      return { closing: { lines, warning } };
    }
    const more = `${agreementText(store, prepared.studiedRun, outcome.run.name).join('\n')}\n\nReport: pmiyc report --store ${options.store} --run ${prepared.studiedRun}\n`;
    if (outcome.result.failed > 0)
      return {
        closing: {
          lines,
          warning: `${outcome.result.failed} ${prepared.analysis.unit} could not be labelled; the rest is stored. Ask them again with: ${resume}`,
        },
        more,
      };
    return { closing: { lines }, more };
  },
};
