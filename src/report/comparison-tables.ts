import { conditionLabel } from './charts/chart-theme.js';
import { formatNumber } from './number-format.js';
import type { ReportDocument } from './report-document.js';
import type { ReportTable } from './report-tables.js';

/** The significance level the tables mark (Holm-adjusted). */
const ALPHA = 0.05;

/** "0.003", "< 0.001" or "n/a". */
function formatP(p: number): string {
  if (!Number.isFinite(p)) return 'n/a';
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

function verdict(pHolm: number, thin: boolean): string {
  if (thin) return pHolm < ALPHA ? 'differ, on too few claims to trust' : 'too few claims';
  return pHolm < ALPHA ? 'differ' : 'no evidence of a difference';
}

/** The paper's order of conditions: subjective before misinformation, single-turn before multi-turn. */
const conditionOrder = (entry: { domain: string; setting: string }) => (entry.domain === 'subjective' ? 0 : 2) + (entry.setting === 'single' ? 0 : 1);

/**
 * Every two models in each condition: the difference in effectiveness (or susceptibility) with its
 * paired interval over claims and Holm-adjusted p-value; by condition, most certain first.
 */
export function modelComparisonTable(document: ReportDocument, measure: 'effectiveness' | 'susceptibility'): ReportTable {
  const rows = document.comparisons.models
    .filter((comparison) => comparison.measure === measure)
    .sort((a, b) => conditionOrder(a) - conditionOrder(b) || a.pHolm - b.pHolm || a.first.localeCompare(b.first) || a.second.localeCompare(b.second));
  return {
    header: ['condition', 'model', 'minus model', 'difference (n = claims)', 'p', 'p (Holm)', 'reading'],
    rows: rows.map((comparison) => [
      conditionLabel(comparison.domain, comparison.setting),
      { model: comparison.first },
      { model: comparison.second },
      { estimate: comparison.difference, ciLow: comparison.ciLow, ciHigh: comparison.ciHigh, n: comparison.claims, thin: comparison.thin },
      formatP(comparison.p),
      formatP(comparison.pHolm),
      verdict(comparison.pHolm, comparison.thin),
    ]),
  };
}

/** Each model's multi-turn value minus its single-turn value, paired over claims. */
export function settingComparisonTable(document: ReportDocument): ReportTable {
  return {
    header: ['model', 'domain', 'measure', 'single-turn', 'multi-turn', 'multi minus single (n = claims)', 'p (Holm)', 'reading'],
    rows: document.comparisons.settings.map((comparison) => [
      { model: comparison.model },
      comparison.domain,
      comparison.measure,
      formatNumber(comparison.single),
      formatNumber(comparison.multi),
      { estimate: comparison.difference, ciLow: comparison.ciLow, ciHigh: comparison.ciHigh, n: comparison.claims, thin: comparison.thin },
      formatP(comparison.pHolm),
      verdict(comparison.pHolm, comparison.thin),
    ]),
  };
}

/** Per condition: how much of the spread lies between claims, and the claims that move persuadees most and least. */
export function claimSpreadTable(document: ReportDocument, shown = 3): ReportTable {
  const claimList = (claims: ReadonlyArray<{ claim: string; meanNC: number }>) =>
    claims
      .slice(0, shown)
      .map((claim) => `${formatNumber(claim.meanNC)} ${claim.claim}`)
      .join('; ') || 'n/a';
  return {
    header: ['condition', 'claims', 'variance between claims', 'SD between / within', 'moved most (mean NC, claim)', 'moved least'],
    rows: document.claims.spread.map((spread) => [
      conditionLabel(spread.domain, spread.setting),
      spread.claims,
      Number.isFinite(spread.betweenClaimShare) ? `${Math.round(100 * spread.betweenClaimShare)}%` : 'n/a',
      `${formatNumber(spread.betweenClaimSd)} / ${formatNumber(spread.withinClaimSd)}`,
      claimList(spread.mostMoving),
      claimList(spread.leastMoving),
    ]),
  };
}

/** `report --compare a,b`: each model's value in the reported run minus its value in the baseline run. */
export function runComparisonTable(document: ReportDocument): ReportTable {
  return {
    header: ['condition', 'model', 'measure', 'baseline run', 'this run', 'change (n = claims)', 'p (Holm)', 'reading'],
    rows: (document.comparisons.runs ?? []).map((comparison) => [
      conditionLabel(comparison.domain, comparison.setting),
      { model: comparison.model },
      comparison.measure,
      formatNumber(comparison.baseline),
      formatNumber(comparison.value),
      { estimate: comparison.difference, ciLow: comparison.ciLow, ciHigh: comparison.ciHigh, n: comparison.claims, thin: comparison.thin },
      formatP(comparison.pHolm),
      verdict(comparison.pHolm, comparison.thin),
    ]),
  };
}
