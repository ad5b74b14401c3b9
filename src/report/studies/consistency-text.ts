import type { Domain } from '../../domain/claim.js';
import { formatCount as count } from '../../domain/text-labels.js';
import type { ConsistencyEstimate } from '../../metrics/consistency/consistency.js';
import { describeReplicaUse } from '../../runner/progress/replica-lines.js';
import type { RunCallTotals } from '../../runner/run-records.js';
import { describeStop } from '../../runner/session-ending.js';
import type { ConsistencyOutcome } from '../../studies/consistency/consistency-study.js';
import { formatEstimate, formatNumber } from '../number-format.js';
import { type ClosingText, describeCallsMade, sessionCallsView } from '../texts/run-totals-text.js';
import { formatTextTable } from '../texts/text-table.js';
import type { ConsistencyModelRow, ConsistencyStudyReport } from './consistency-figures.js';
import { describeStudy } from './consistency-section.js';

const estimateText = (estimate: ConsistencyEstimate) =>
  Number.isFinite(estimate.ciLow) ? formatEstimate(estimate.value, estimate.ciLow, estimate.ciHigh) : formatNumber(estimate.value);

function rowText(row: ConsistencyModelRow, compared: boolean): string[] {
  const answered = row.claims - row.claimsWithoutAnswer;
  const agreement = row.openingAgreement;
  return [
    row.simulated ? `${row.model} [simulated]` : row.model,
    row.claimsWithoutAnswer > 0 ? `${answered} (+${row.claimsWithoutAnswer} unanswered)` : String(answered),
    estimateText(row.meanSd),
    estimateText(row.paperAvgSd),
    ...(!compared
      ? []
      : agreement
        ? [
            estimateText(agreement.matchRatePercent),
            estimateText(agreement.matchRateAllOpeningsPercent),
            estimateText(agreement.avgDif),
            String(agreement.openings + agreement.openingsWithoutAnswers),
          ]
        : ['n/a', 'n/a', 'n/a', '0']),
    String(row.unusableReplies),
  ];
}

function domainTable(domain: Domain, rows: readonly ConsistencyModelRow[], compared: boolean): string {
  const header = [
    'model',
    'claims',
    'mean SD [95% CI]',
    'Avg SD (paper) = mean variance',
    ...(compared ? ['Match Rate % (usable)', 'Match Rate % (paper)', 'Avg Dif', 'openings'] : []),
    'unusable replies',
  ];
  return `${domain} claims\n${formatTextTable(
    header,
    rows.map((row) => rowText(row, compared)),
  )}`;
}

/**
 * A study's Table 1 for the terminal: a table per domain, one row per model, simulated agents
 * labelled; then what the columns mean, the tie rule and the notes.
 */
export function formatConsistencyText(study: ConsistencyStudyReport): string {
  const compared = study.models.some((row) => row.openingAgreement !== null);
  const domains = [...new Set(study.models.map((row) => row.domain))];
  const tables = domains.map((domain) =>
    domainTable(
      domain,
      study.models.filter((row) => row.domain === domain),
      compared,
    ),
  );
  const lines = [
    describeStudy(study),
    '',
    tables.length === 0 ? 'No answers stored yet.' : tables.join('\n\n'),
    '',
    'mean SD: mean over claims of the SD of the answers. Avg SD (paper): the mean per-claim variance, which the paper reports as "Avg SD".',
  ];
  if (compared)
    lines.push(
      "Match Rate: % of the tournament's openings equal to the most frequent answer, over openings whose claim has a usable answer (usable), " +
        `or over every opening, no usable answer counting as no match (paper, which divides by all claims); Avg Dif: mean |opening - mean answer|. ${study.tieRule}`,
    );
  for (const note of study.notes) lines.push(`Note: ${note}`);
  return lines.join('\n');
}

/**
 * What a session of a consistency study did (answers, calls) and, when it did not get every answer,
 * how to go on (the command that resumes names `storePath`).
 */
export function consistencySessionText(outcome: ConsistencyOutcome, calls: RunCallTotals, storePath: string, maxCost: number | undefined): ClosingText {
  const { run, result, ending } = outcome;
  const lines = [
    `Study ${run.name} in ${storePath}: ${count(result.answered)} answers this session, ${count(result.skipped)} already stored; ${describeCallsMade(sessionCallsView(outcome, calls))}.`,
    ...outcome.replicaUse.map(({ model, replicas }) => `${describeReplicaUse(model, replicas)}.`),
    '',
  ];
  const resume = `pmiyc consistency --store ${storePath} --study ${run.name} --resume`;
  if (ending.status !== 'completed') {
    return {
      lines,
      warning: describeStop(ending, {
        resume,
        items: 'answers',
        blockedModels: outcome.blockedModels,
        budgetRefusal: outcome.budgetRefusal,
        ...(maxCost === undefined ? {} : { maxCost }),
      }),
    };
  }
  if (result.failed > 0)
    return { lines, warning: `${result.failed} answers could not be had (the provider kept failing); the rest is stored. Ask for them again with: ${resume}` };
  return { lines };
}
