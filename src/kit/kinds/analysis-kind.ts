import type { PmiycConfig } from '../../config/config-schema.js';
import { loadConfig } from '../../io/inputs/load-config.js';
import { type PreparedAnalysis, prepareAnalysisResume, prepareNewAnalysis } from '../../io/prepare/prepare-analysis.js';
import { modelFileSha256 } from '../../io/process/model-file-digest.js';
import { analysisDryRunText, analysisSessionText, analysisSummaryText } from '../../report/studies/analysis-text.js';
import type { Store } from '../../store/result-store.js';
import { type AnalysisDesignOptions, tournamentRunToAnalyse } from '../../studies/analysis/analysis-design.js';
import { type AnalysisEstimate, estimateAnalysis } from '../../studies/analysis/analysis-estimate.js';
import { type AnalysisOutcome, completedConversations, isAnalysisTaskStored, runAnalysisStudy } from '../../studies/analysis/analysis-study.js';
import { type AnalysisTask, conversationsToAnalyse, driftSamplingOf, variantsOf } from '../../studies/analysis/analysis-work.js';
import type { TurnTask } from '../../studies/analysis/label-turn.js';
import type { CommandContext } from '../command-context.js';
import type { FailureReporter } from '../failure-reporter.js';
import { checkedConfig, type StudyCommandOptions, type StudyKind, withStore } from '../study-command.js';

export interface AnalyzeCommandOptions extends AnalysisDesignOptions, StudyCommandOptions {
  /** The tournament run to analyse (default: the latest tournament). */
  readonly run?: string;
  /** A built-in taxonomy's name or a taxonomy file (default: rhetoric). */
  readonly taxonomy?: string;
  /** The study's name (default analysis-N); with --resume, the study to continue (default: the latest). */
  readonly study?: string;
  readonly dryRun: boolean;
  readonly batch: boolean;
  /** The options the user typed (not defaults): on --resume, each must say what the study says. */
  readonly given: ReadonlySet<string>;
}

type Prepared = PreparedAnalysis & { readonly config: PmiycConfig };

/** An analysis's outcome, with the name of the tournament run it read. */
type Outcome = AnalysisOutcome & { readonly tournamentRunName: string };

/**
 * What an analysis would ask and cost: the plan, what the store holds of it (a resumed study's own
 * labels, and every call the cache would replay), and the price of the rest. Reads the store; makes
 * no call and no run.
 */
async function estimatePreparedAnalysis(
  store: Store,
  prepared: Prepared,
  options: { readonly resume: boolean; readonly cache: boolean },
  context: Pick<CommandContext, 'env'>,
): Promise<{ estimate: AnalysisEstimate; tournamentRun: string }> {
  const tournamentRun = tournamentRunToAnalyse(store, prepared.tournamentRun);
  const conversations = conversationsToAnalyse(completedConversations(store, tournamentRun), prepared.design.sample, prepared.seed);
  const study = options.resume && prepared.name !== undefined ? store.findRun(prepared.name) : undefined;
  const estimate = await estimateAnalysis({
    design: prepared.design,
    conversations,
    seed: prepared.seed,
    config: prepared.config,
    env: context.env,
    variants: variantsOf(tournamentRun),
    driftSampling: driftSamplingOf(tournamentRun, prepared.design),
    // A new study has no calls of its own yet: no run has id 0.
    ...(options.cache || study ? { calls: store.callCache(study?.id ?? 0, { reuseEarlierRuns: options.cache }) } : {}),
    ...(study ? { isStored: (task) => isAnalysisTaskStored(store.analysis, study.id, task) } : {}),
    fileSha256: (settings) => modelFileSha256(settings, { knownFileSha256: (...file) => store.knownFileSha256(...file), rememberFileSha256: () => {} }),
  });
  return { estimate, tournamentRun: tournamentRun.name };
}

/** How a failed call of an analysis is told: which judge, on what. */
function failedCallLine(task: AnalysisTask, reason: string, detail: string): string {
  const what =
    task.kind === 'labels'
      ? `${task.judge} on turn ${task.turn} of ${task.record.conversationId}`
      : task.kind === 'conversation-labels'
        ? `${task.judge} on the turns of ${task.record.conversationId}`
        : `drift probe of ${task.record.conversationId}`;
  return `${what} (${reason}): ${detail}`;
}

/** An analysis's failures: failed calls, and turns with no usable answer. */
const analysisFailures = (failures: FailureReporter) => ({
  onFailedCall: (task: AnalysisTask, reason: string, detail: string) => failures(failedCallLine(task, reason, detail)),
  onUnusable: (task: TurnTask, attempts: number, problem: string) =>
    failures(
      `the analysis of turn ${task.turn} of ${task.record.conversationId} by ${task.judge} failed: no usable answer in ${attempts} attempts (${problem})`,
    ),
});

/** `pmiyc analyze`: judges label every turn of a tournament run's completed conversations; a summary and how to report it at the end. */
export const analysisKind: StudyKind<AnalyzeCommandOptions, Prepared, Outcome> = {
  prepareNew: async (options, context) => {
    const fresh = await prepareNewAnalysis(options);
    return { ...fresh, config: await checkedConfig(fresh.configPath, fresh.design.judges, options, context) };
  },
  prepareResume: async (store, options) => {
    const prepared = await prepareAnalysisResume(store, options);
    return { ...prepared, config: await loadConfig(prepared.configPath) };
  },
  // The run to analyse is in a store that exists.
  access: () => 'write',
  dryRun: (fresh, options, context) =>
    withStore(options.store, 'read', context.now, async (store) => {
      const prepared = fresh ?? (await analysisKind.prepareResume(store, options, context));
      const { estimate, tournamentRun } = await estimatePreparedAnalysis(store, prepared, options, context);
      return analysisDryRunText(estimate, prepared.design, tournamentRun, options.store);
    }),
  run: async ({ store, prepared, input, failures }) => {
    const tournamentRun = tournamentRunToAnalyse(store, prepared.tournamentRun);
    const outcome = await runAnalysisStudy({ ...input, store, design: prepared.design, tournamentRun, ...analysisFailures(failures) });
    return { ...outcome, tournamentRunName: tournamentRun.name };
  },
  closing: ({ store, options, prepared }, outcome) => {
    const calls = store.callTotals(outcome.run.id, outcome.callsMark);
    const tournamentRun = outcome.tournamentRunName;
    const maxCost = options.maxCost === undefined ? {} : { maxCost: options.maxCost };
    const summary = analysisSummaryText(prepared.design, store.analysis.labels(outcome.run.id), outcome.persuaders);
    return {
      closing: analysisSessionText({ outcome, design: prepared.design, tournamentRun, calls, storePath: options.store, ...maxCost }),
      more: `\n${summary.join('\n')}\n\nReport: pmiyc report --store ${options.store} --run ${tournamentRun}\n`,
    };
  },
};
