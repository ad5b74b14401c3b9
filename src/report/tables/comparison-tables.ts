import { formatCount, formatP } from '../../domain/text-labels.js';
import type { ArmLeftOut } from '../../metrics/arms/arm-comparisons.js';
import { conditionLabel } from '../charts/chart-theme.js';
import { formatNumber } from '../number-format.js';
import type { ReportDocument } from '../report-document.js';
import { leftOutParts } from '../texts/run-comparison-text.js';
import type { EstimateCell, ReportTable, TableCell } from './report-tables.js';

/** The significance level the tables mark (Holm-adjusted). */
const ALPHA = 0.05;

/** A comparison's reading from its Holm-adjusted p and whether it rests on too few claims. */
export function verdict(pHolm: number, thin: boolean): string {
  if (thin) return pHolm < ALPHA ? 'differ, on too few claims to trust' : 'too few claims';
  return pHolm < ALPHA ? 'differ' : 'no evidence of a difference';
}

/** A model comparison's reading, and a note when a headline value rests on claims the pairing leaves out. */
function modelReading(comparison: ReportDocument['comparisons']['models'][number]): string {
  const reading = verdict(comparison.pHolm, comparison.thin);
  const notes = (['first', 'second'] as const).flatMap((side) => {
    const claims = comparison.claimsLeftOut[side];
    return claims > 0
      ? [`${comparison[side]}'s ${comparison.measure} shown also rests on ${formatCount(claims)} ${claims === 1 ? 'claim' : 'claims'} not paired here`]
      : [];
  });
  return notes.length === 0 ? reading : `${reading} (${notes.join('; ')})`;
}

/** What a comparison between arms left out: "gamma (baseline only); 2 claims; 26 cells", or "nothing". */
function leftOutText(leftOut: ArmLeftOut, arms: Readonly<Record<string, string>>): string {
  const opponents = leftOut.opponents.map(
    (opponent) => `${opponent.model} (${opponent.onlyIn === null ? 'no common claim' : `${arms[opponent.onlyIn] ?? opponent.onlyIn} only`})`,
  );
  const parts = [
    ...(opponents.length > 0 ? [`${opponents.length === 1 ? 'opponent' : 'opponents'} ${opponents.join(', ')}`] : []),
    ...(leftOut.claims > 0 ? [`${formatCount(leftOut.claims)} ${leftOut.claims === 1 ? 'claim' : 'claims'}`] : []),
    ...(leftOut.cells > 0 ? [`${formatCount(leftOut.cells)} ${leftOut.cells === 1 ? 'cell' : 'cells'}`] : []),
  ];
  return parts.length === 0 ? 'nothing' : parts.join('; ');
}

/** A paired difference over claims as a table cell: its value, interval and number of claims. */
interface PairedDifference {
  readonly difference: number;
  readonly ciLow: number;
  readonly ciHigh: number;
  readonly claims: number;
  readonly thin: boolean;
}

const differenceCell = (comparison: PairedDifference): EstimateCell => ({
  estimate: comparison.difference,
  ciLow: comparison.ciLow,
  ciHigh: comparison.ciHigh,
  n: comparison.claims,
  thin: comparison.thin,
});

/** The cells a comparison between two arms ends with: the difference, p (Holm), the reading and what it left out (`arms` names the arms there). */
function armDifferenceCells(
  comparison: PairedDifference & { readonly pHolm: number; readonly leftOut: ArmLeftOut },
  arms: Readonly<Record<string, string>>,
): TableCell[] {
  return [differenceCell(comparison), formatP(comparison.pHolm), verdict(comparison.pHolm, comparison.thin), leftOutText(comparison.leftOut, arms)];
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
      differenceCell(comparison),
      formatP(comparison.p),
      formatP(comparison.pHolm),
      modelReading(comparison),
    ]),
  };
}

/** Each model's multi-turn value minus its single-turn value, over the (opponent, claim) cells both settings hold. */
export function settingComparisonTable(document: ReportDocument): ReportTable {
  return {
    header: ['model', 'domain', 'measure', 'single-turn', 'multi-turn', 'multi minus single (n = claims)', 'p (Holm)', 'reading', 'left out'],
    rows: document.comparisons.settings.map((comparison) => [
      { model: comparison.model },
      comparison.domain,
      comparison.measure,
      formatNumber(comparison.single),
      formatNumber(comparison.multi),
      ...armDifferenceCells(comparison, { single: 'single-turn', multi: 'multi-turn' }),
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

/** The paragraph above the comparison with the baseline run: what each change is over, and what was left out. */
export function runComparisonIntro(document: ReportDocument): string {
  const over =
    "Each model's change is over the (opponent, claim) cells both runs hold: the same opponents and the same claims on both sides, paired by claim, so the baseline and this run's values here are over those cells too";
  const parts = leftOutParts(
    { baseline: 'the baseline', reported: 'this run' },
    document.comparisons.runs ?? [],
    document.comparisons.runsLeftOut ?? { conditions: [], models: [] },
  );
  return parts.length === 0 ? `${over}. Nothing was left out.` : `${over}. Left out: ${parts.join('; ')}.`;
}

/**
 * `report --compare a,b`: each model's value in the reported run minus its value in the baseline
 * run, both over the (opponent, claim) cells both runs hold, with what each row leaves out.
 */
export function runComparisonTable(document: ReportDocument): ReportTable {
  return {
    header: ['condition', 'model', 'measure', 'baseline run', 'this run', 'change (n = claims)', 'p (Holm)', 'reading', 'left out'],
    rows: (document.comparisons.runs ?? []).map((comparison) => [
      conditionLabel(comparison.domain, comparison.setting),
      { model: comparison.model },
      comparison.measure,
      formatNumber(comparison.baseline),
      formatNumber(comparison.value),
      ...armDifferenceCells(comparison, { baseline: 'baseline', reported: 'this run' }),
    ]),
  };
}

/** The paragraph above the variants table. */
export const VARIANTS_INTRO =
  "Each prompt variant against pmiyc's own prompts: model+variant minus model, pooled over the models run under both (each counts equally), " +
  'over the partners and claims both hold, paired by claim. p-values are Holm-adjusted over the variants of one role and condition, a family apart from the comparisons between models.';

/** report.json `variants`: per condition, variant and role, the pooled contrast with the default prompts. */
export function variantTable(document: ReportDocument): ReportTable {
  const persuaderFirst = (entry: { role: string }) => (entry.role === 'persuader' ? 0 : 1);
  const rows = [...document.variants].sort(
    (a, b) => conditionOrder(a) - conditionOrder(b) || a.variant.localeCompare(b.variant) || persuaderFirst(a) - persuaderFirst(b),
  );
  return {
    header: ['condition', 'variant', 'measure', 'models', 'default prompts', 'variant', 'variant minus default (n = claims)', 'p', 'p (Holm)', 'reading'],
    rows: rows.map((contrast) => [
      conditionLabel(contrast.domain, contrast.setting),
      contrast.variant,
      contrast.measure,
      contrast.models.join(', '),
      formatNumber(contrast.defaultValue),
      formatNumber(contrast.variantValue),
      { estimate: contrast.value, ciLow: contrast.ciLow, ciHigh: contrast.ciHigh, n: contrast.claims, thin: contrast.thin },
      formatP(contrast.p),
      formatP(contrast.pHolm),
      verdict(contrast.pHolm, contrast.thin),
    ]),
  };
}
