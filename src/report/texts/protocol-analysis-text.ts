import { formatCount, labelModel } from '../../domain/text-labels.js';
import type { RunCallTotals } from '../../runner/run-records.js';
import type { ProtocolAnalysisDesign } from '../../studies/protocol-analysis/protocol-analysis-config.js';
import type { ProtocolAnalysisEstimate } from '../../studies/protocol-analysis/protocol-analysis-estimate.js';
import type { ProtocolAnalysisOutcome } from '../../studies/protocol-analysis/protocol-analysis-study.js';
import { describeCallsMade, sessionCallsView } from './run-totals-text.js';

/** What `pmiyc analyze` prints of another judge's study of a protocol run: its session line, and its dry run. */

interface StudyWords {
  readonly studiedRun: string;
  readonly design: ProtocolAnalysisDesign;
}

/** The session's line: the study, its judge, the items labelled this session and before, and the calls. */
export function protocolAnalysisSessionLine(
  outcome: ProtocolAnalysisOutcome,
  calls: RunCallTotals,
  study: StudyWords & { readonly storePath: string; readonly analysis: { readonly unit: string }; readonly simulatedJudge: boolean },
): string {
  const judge = labelModel(study.design.judge);
  const shown = study.simulatedJudge && !judge.includes('[simulated]') ? `${judge} [simulated]` : judge;
  const { result } = outcome;
  const unread = outcome.unread > 0 ? ` (${formatCount(outcome.unread)} answers unreadable after every attempt, kept as unread)` : '';
  return (
    `Analysis study ${outcome.run.name} in ${study.storePath}: ${shown} labelled ${formatCount(result.done)} ${study.analysis.unit} of run ${study.studiedRun} this session${unread}, ` +
    `${formatCount(result.skipped)} already stored, of ${formatCount(outcome.items)}; ${describeCallsMade(sessionCallsView(outcome, calls))}.`
  );
}

/** `--dry-run`: the plan, what the store holds of it, and the judge's calls still to make with their tokens and cost. */
export function protocolAnalysisDryRunText(
  estimate: ProtocolAnalysisEstimate,
  study: StudyWords & { readonly labels: string; readonly unit: string },
): string[] {
  const { design } = study;
  const sample = design.sample === undefined ? '' : ` (a seeded sample of ${formatCount(design.sample)})`;
  const cost =
    estimate.costUsd === undefined
      ? `no price set for ${labelModel(design.judge)}: set inputUsdPerMillion and outputUsdPerMillion for it under models: in the config`
      : `about $${estimate.costUsd.toFixed(2)}`;
  return [
    `Dry run: nothing is called. ${labelModel(design.judge)} would label ${study.labels} of run ${study.studiedRun} again: ${formatCount(estimate.items)} ${study.unit}${sample}, one call each, at temperature ${design.sampling.temperature}.`,
    `In the store already: ${formatCount(estimate.done)} labelled by the study, ${formatCount(estimate.replayed)} whose call is stored (replayed for free).`,
    `Calls to make: ${formatCount(estimate.calls)}, before re-asks of unreadable answers; about ${formatCount(estimate.inputTokens)} input tokens (counted from the requests) and ${formatCount(estimate.outputTokens)} output tokens (assumed per answer: ${formatCount(estimate.calls === 0 ? 0 : estimate.outputTokens / estimate.calls)}).`,
    `Cost: ${cost}; simulated and llama models cost nothing.`,
  ];
}
