import { formatCount, labelModel } from '../../domain/text-labels.js';
import type { AccuracyEstimate, JudgeAccuracySummary, ProportionEstimate } from '../../metrics/agreement/judge-accuracy.js';
import { describeReplicaUse } from '../../runner/progress/replica-lines.js';
import type { RunCallTotals } from '../../runner/run-records.js';
import { describeFailures, describeStop } from '../../runner/session-ending.js';
import type { LoadedPairs } from '../../studies/judge/judge-design.js';
import type { JudgeOutcome } from '../../studies/judge/judge-study.js';
import type { SynthesisStudyOutcome } from '../../studies/judge/synthesis-study.js';
import { formatNumber } from '../number-format.js';
import { type ClosingText, describeCallsMade, sessionCallsView } from '../texts/run-totals-text.js';
import { formatTextTable } from '../texts/text-table.js';

const percent = (value: number) => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : 'n/a');

/** "54.6% [50.1%, 59.0%] (n = 608)" or "n/a (n = 0)". */
function proportionText(estimate: ProportionEstimate): string {
  if (!Number.isFinite(estimate.value)) return `n/a (n = ${estimate.n})`;
  const interval = Number.isFinite(estimate.ciLow) ? ` [${percent(estimate.ciLow)}, ${percent(estimate.ciHigh)}]` : '';
  return `${percent(estimate.value)}${interval} (n = ${estimate.n})`;
}

const unusableText = (estimate: AccuracyEstimate) => String(estimate.unusable);

/**
 * The judge study as a plain-text table for the terminal: accuracy overall and on pairs whose
 * difference exceeds the threshold, each with its 95% interval over claims, unusable replies, and
 * how often the first-shown argument was chosen.
 */
export function formatJudgeText(summary: JudgeAccuracySummary, labelModel: (model: string) => string): string {
  if (summary.judges.length === 0) return 'No judge trials yet.';
  const threshold = formatNumber(summary.threshold, summary.threshold % 1 === 0 ? 0 : 2);
  const rows = summary.judges.map((judge) => [
    labelModel(judge.model),
    proportionText(judge.overall),
    proportionText(judge.largeDifference),
    unusableText(judge.overall),
    proportionText(judge.firstChosen),
  ]);
  const table = formatTextTable(
    [
      'judge',
      'accuracy (n = usable answers)',
      `accuracy, difference > ${threshold} (n = usable answers)`,
      'unusable',
      'chose the first shown (n = usable answers)',
    ],
    rows,
  );
  const { replicates, confidence } = summary.bootstrap;
  return `${table}\n\nAccuracy over usable replies; chance is 50%. ${Math.round(confidence * 100)}% percentile bootstrap intervals over claims (${formatCount(replicates)} replicates).`;
}

/** What a judge session is about and did: the lines that frame the accuracy table, and the message for a stop or failed trials. */
export interface JudgeSessionView {
  readonly outcome: JudgeOutcome;
  readonly pairs: LoadedPairs;
  readonly judges: number;
  readonly accuracy: JudgeAccuracySummary;
  readonly calls: RunCallTotals;
  /** The store as the command names it (for the command that resumes). */
  readonly storePath: string;
  readonly maxCost?: number;
}

/**
 * A judge session's closing text: the pairs it judged, the accuracy table, this session's trials and
 * calls, and when it stopped or some trials failed, how to ask them again.
 */
export function judgeSessionText(view: JudgeSessionView): ClosingText {
  const { outcome, pairs } = view;
  const { run, result, failures, ending } = outcome;
  const claims = new Set(pairs.pairs.map((pair) => pair.claim)).size;
  const selected = pairs.pairs.length < pairs.available ? `, selected from ${formatCount(pairs.available)} pairs on ${pairs.claims} claims` : '';
  const lines = [
    `Judge run ${run.name}: ${formatCount(pairs.pairs.length)} pairs from ${claims} claims${selected} (${pairs.source}; ${pairs.license}), ${view.judges} judges.`,
    '',
    formatJudgeText(view.accuracy, labelModel),
    '',
    `${result.done} trials this session, ${result.skipped} already done, ${result.failed} failed; ${describeCallsMade(sessionCallsView(outcome, view.calls))}. Stored in ${view.storePath}.`,
    ...outcome.replicaUse.map(({ model, replicas }) => `${describeReplicaUse(model, replicas)}.`),
  ];
  const resume = `pmiyc judge --store ${view.storePath} --study ${run.name} --resume`;
  if (ending.status !== 'completed') {
    const maxCost = view.maxCost === undefined ? {} : { maxCost: view.maxCost };
    return {
      lines,
      warning: describeStop(ending, { resume, items: 'trials', blockedModels: outcome.blockedModels, budgetRefusal: outcome.budgetRefusal, ...maxCost }),
    };
  }
  if (result.failed > 0) return { lines, warning: `${describeFailures(failures, 'trials')} and are not stored; fix the cause, then ask them again: ${resume}` };
  return { lines };
}

/** Why a synthesis stopped before every claim was done, and that running the same command replays what it did (from `storePath`). */
export function synthesisStoppedText(outcome: Pick<SynthesisStudyOutcome, 'ending'>, storePath: string, maxCost: number | undefined): string {
  const { ending } = outcome;
  const why = ending.stopReason === 'budget' ? ` (--max-cost $${maxCost} reached)` : ending.stopReason ? ` (${ending.stopReason})` : '';
  return `stopped before every claim was done${why}; nothing was written. Run the same command again (with a new --study name, if you gave one): what was done is replayed from ${storePath}.`;
}

/** What a finished synthesis made of its `claims` claims, where the dataset went (`out`, else standard output), and its calls. */
export function synthesisDoneText(outcome: SynthesisStudyOutcome, claims: number, calls: RunCallTotals, out: string | undefined): string {
  const { run, examples, result } = outcome;
  return `Run ${run.name}: ${examples.length} preference pairs from ${claims} claims${out ? ` written to ${out}` : ''}; ${result.failed} claims without a usable pair; ${describeCallsMade({ calls, modelsWithoutPrice: outcome.modelsWithoutPrice })}.`;
}
