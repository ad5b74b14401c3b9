import type { Domain } from '../../domain/claim.js';
import type { ConsistencyEstimate } from '../../metrics/consistency.js';
import { formatEstimate, formatNumber } from '../number-format.js';
import { formatTextTable } from '../text-table.js';
import { describeStudy } from './consistency-section.js';
import type { ConsistencyModelRow, ConsistencyStudyReport } from './consistency-study.js';

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
