import { loadConfig } from '../../io/inputs/load-config.js';
import { type PreparedAnalysis, prepareAnalysisResume, prepareNewAnalysis } from '../../io/prepare/prepare-analysis.js';
import { modelFileSha256 } from '../../io/process/model-file-digest.js';
import { analysisDryRunText, analysisSessionText, analysisSummaryText } from '../../report/studies/analysis-text.js';
import { checkModels } from '../../runner/models/check-models.js';
import { openStore, type Store } from '../../store/result-store.js';
import { type AnalysisDesignOptions, tournamentRunToAnalyse } from '../../studies/analysis/analysis-design.js';
import { estimateAnalysis } from '../../studies/analysis/analysis-estimate.js';
import { completedConversations, isAnalysisTaskStored, runAnalysisStudy } from '../../studies/analysis/analysis-study.js';
import { conversationsToAnalyse, driftSamplingOf, variantsOf } from '../../studies/analysis/analysis-work.js';
import type { SessionOptions } from '../shared-options.js';
import { aboutRun, type CliContext, printClosing, type RunSignals, sessionWorldOf } from '../terminal.js';

export interface AnalyzeOptions extends AnalysisDesignOptions, SessionOptions {
  /** The tournament run to analyse (default: the latest tournament). */
  readonly run?: string;
  /** A built-in taxonomy's name or a taxonomy file (default: rhetoric). */
  readonly taxonomy?: string;
  /** The study's name (default analysis-N); with --resume, the study to continue (default: the latest). */
  readonly study?: string;
  readonly resume: boolean;
  readonly takeOver?: boolean;
  readonly dryRun: boolean;
  readonly batch: boolean;
  /** The options the user typed (not defaults): on --resume, each must say what the study says. */
  readonly given: ReadonlySet<string>;
}

/** Failed calls described one by one; the rest are counted (a provider that is down would flood the terminal). */
const FAILURES_SHOWN = 5;

/** `--dry-run`: the plan, what the store holds of it, and the cost of the rest. Reads the store; makes no call and no run. */
async function dryRun(store: Store, prepared: PreparedAnalysis, options: AnalyzeOptions, context: CliContext): Promise<number> {
  const config = await loadConfig(prepared.configPath);
  const tournamentRun = tournamentRunToAnalyse(store, prepared.tournamentRun);
  const conversations = conversationsToAnalyse(completedConversations(store, tournamentRun), prepared.design.sample, prepared.seed);
  const study = options.resume && prepared.name !== undefined ? store.findRun(prepared.name) : undefined;
  const estimate = await estimateAnalysis({
    design: prepared.design,
    conversations,
    seed: prepared.seed,
    config,
    env: context.env,
    variants: variantsOf(tournamentRun),
    driftSampling: driftSamplingOf(tournamentRun, prepared.design),
    // A new study has no calls of its own yet: no run has id 0.
    ...(options.cache || study ? { calls: store.callCache(study?.id ?? 0, { reuseEarlierRuns: options.cache }) } : {}),
    ...(study ? { isStored: (task) => isAnalysisTaskStored(store.analysis, study.id, task) } : {}),
    fileSha256: (settings) => modelFileSha256(settings, { knownFileSha256: (...file) => store.knownFileSha256(...file), rememberFileSha256: () => {} }),
  });
  context.stdout.write(`${analysisDryRunText(estimate, prepared.design, tournamentRun.name, options.store).join('\n')}\n`);
  return 0;
}

/**
 * `pmiyc analyze` (issue 29): judges label every turn of a tournament run's completed conversations
 * (see studies/analysis/analysis-study.ts); a short summary and how to report it are printed at the end.
 */
export async function analyzeCommand(options: AnalyzeOptions, context: CliContext, signals: RunSignals): Promise<number> {
  const fresh = options.resume ? undefined : await prepareNewAnalysis(options);
  const freshConfig = fresh ? await loadConfig(fresh.configPath) : undefined;
  if (fresh && freshConfig) checkModels(freshConfig, context.env, fresh.design.judges, options.maxCost);
  // The run to analyse is in a store that exists; a dry run only reads it.
  const store = openStore(options.store, { now: context.now, access: options.dryRun ? 'read' : 'write' });
  try {
    const prepared = fresh ?? (await prepareAnalysisResume(store, options));
    if (options.dryRun) return await dryRun(store, prepared, options, context);
    const tournamentRun = tournamentRunToAnalyse(store, prepared.tournamentRun);
    let shown = 0;
    const tell = (line: string) => {
      shown += 1;
      if (shown <= FAILURES_SHOWN) context.stderr.write(`pmiyc: ${line}${shown === FAILURES_SHOWN ? ' (further failures are counted, not shown)' : ''}\n`);
    };
    const outcome = await runAnalysisStudy({
      store,
      design: prepared.design,
      tournamentRun,
      config: freshConfig ?? (await loadConfig(prepared.configPath)),
      seed: prepared.seed,
      concurrency: options.concurrency,
      cache: options.cache,
      resume: options.resume,
      takeOver: options.takeOver === true,
      ...(options.checkModels === false ? { checkModels: false } : {}),
      ...(prepared.name ? { name: prepared.name } : {}),
      ...(options.maxCost === undefined ? {} : { maxCostUsd: options.maxCost }),
      about: aboutRun(context, options.gitRevision, prepared.configPath),
      onFailedCall: (task, reason, detail) => {
        const what =
          task.kind === 'labels'
            ? `${task.judge} on turn ${task.turn} of ${task.record.conversationId}`
            : task.kind === 'conversation-labels'
              ? `${task.judge} on the turns of ${task.record.conversationId}`
              : `drift probe of ${task.record.conversationId}`;
        tell(`${what} (${reason}): ${detail}`);
      },
      onUnusable: (task, attempts, problem) =>
        tell(
          `the analysis of turn ${task.turn} of ${task.record.conversationId} by ${task.judge} failed: no usable answer in ${attempts} attempts (${problem})`,
        ),
      world: sessionWorldOf(context, signals, store, options.progressIntervalMs),
    });
    const calls = store.callTotals(outcome.run.id, outcome.callsMark);
    printClosing(
      context,
      analysisSessionText({
        outcome,
        design: prepared.design,
        tournamentRun: tournamentRun.name,
        calls,
        storePath: options.store,
        ...(options.maxCost === undefined ? {} : { maxCost: options.maxCost }),
      }),
    );
    const summary = analysisSummaryText(prepared.design, store.analysis.labels(outcome.run.id), outcome.persuaders);
    context.stdout.write(`\n${summary.join('\n')}\n\nReport: pmiyc report --store ${options.store} --run ${tournamentRun.name}\n`);
    return outcome.ending.exitCode;
  } finally {
    store.close();
  }
}
