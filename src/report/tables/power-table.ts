import { formatCount } from '../../domain/text-labels.js';
import type { CappedPowerPlan } from '../../metrics/intervals/power.js';
import { conditionLabel } from '../charts/chart-theme.js';
import { formatNumber } from '../number-format.js';
import type { ReportDocument } from '../report-document.js';
import type { ReportTable } from './report-tables.js';

type Needed = CappedPowerPlan['claimsNeeded'][number];

/** "250", "> 100,000", "n/a", or "over 12: all 12 give 31%" when the claim set is too small. */
function neededText(plan: CappedPowerPlan, needed: Needed | undefined): string {
  if (!needed || Number.isNaN(needed.claims)) return 'n/a';
  if (needed.withinClaimSet === false && plan.claimSet && needed.powerWithClaimSet !== null) {
    const all = formatCount(plan.claimSet.claims);
    return `over ${all}: all ${all} give ${Math.round(needed.powerWithClaimSet * 100)}%`;
  }
  return Number.isFinite(needed.claims) ? formatCount(needed.claims) : '> 100,000';
}

/** Read as a pilot: per condition and measure, the claims a full run needs to detect each difference, within the claim set. */
export function powerTable(document: ReportDocument): ReportTable {
  const differences = [...new Set(document.power.flatMap((plan) => plan.claimsNeeded.map((entry) => entry.difference)))];
  return {
    header: [
      'condition',
      'measure',
      'claims now',
      'SD of a paired difference',
      ...differences.map((difference) => `claims to detect ${formatNumber(difference)}`),
    ],
    rows: document.power.map((plan) => [
      conditionLabel(plan.domain, plan.setting),
      plan.measure,
      plan.pilotClaims,
      formatNumber(plan.pairedSd, 3),
      ...differences.map((difference) =>
        neededText(
          plan,
          plan.claimsNeeded.find((entry) => entry.difference === difference),
        ),
      ),
    ]),
  };
}

/**
 * What the power table is read against: each domain's claim set, and what a cell says when a
 * difference needs more claims than the set has, or when the set's size is not known.
 */
export function powerNote(document: ReportDocument): string {
  const byDomain = new Map(document.power.map((plan) => [plan.domain, plan.claimSet]));
  const known = [...byDomain].filter(([, set]) => set !== null).map(([domain, set]) => `${domain} ${formatCount(set!.claims)} (${set!.source})`);
  const unknown = [...byDomain].filter(([, set]) => set === null).map(([domain]) => domain);
  const short = document.power.some((plan) => plan.claimsNeeded.some((entry) => entry.withinClaimSet === false));
  return [
    known.length > 0 ? `A run cannot argue more claims than its set has: ${known.join(', ')}.` : '',
    short ? 'Where a difference needs more, the cell says so and gives the power that all the claims of the set reach.' : '',
    unknown.length > 0 ? `The size of the ${unknown.join(' and ')} claim set is not known, so its figures could not be checked against it.` : '',
  ]
    .filter((sentence) => sentence !== '')
    .join(' ');
}
