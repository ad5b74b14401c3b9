import { type Child, el } from '../../browser/dom.js';
import type { EstimatesAnswer } from '../../wire/view-answers.js';
import { numberCell, table, td } from './view-parts.js';
import { modelText, number, pText, signed } from './view-text.js';

/*
 * The report's 95% intervals on the run page (issue 32): a thin mark beside each mean on the
 * scale of its bar, the interval in words on hover, and the comparisons between models with
 * Holm-adjusted p. The numbers come from `GET /api/runs/:run/estimates`, which computes them with
 * the report's own estimator, so they equal report.json's.
 */

type Estimate = { readonly ciLow: number | null; readonly ciHigh: number | null; readonly claims: number; readonly thin: boolean };
type ModelEstimate = EstimatesAnswer['models'][number];
type PairEstimate = EstimatesAnswer['pairs'][number];

/** "95% interval [-0.10, 0.32] over 12 claims", "~" first and "(thin)" when too few claims to trust it. */
export function estimateText(estimate: Estimate, confidence = 0.95): string {
  if (estimate.ciLow === null || estimate.ciHigh === null) return `no interval (${estimate.claims} claims)`;
  const thin = estimate.thin ? ' (thin: too few claims to trust it)' : '';
  return `${Math.round(confidence * 100)}% interval ${estimate.thin ? '~' : ''}[${number(estimate.ciLow)}, ${number(estimate.ciHigh)}] over ${estimate.claims} claims${thin}`;
}

const key = (...parts: readonly string[]) => parts.join('\u001f');
export const modelKey = (domain: string, setting: string, measure: string, model: string) => key(domain, setting, measure, model);
export const pairKey = (domain: string, setting: string, persuader: string, persuadee: string) => key(domain, setting, persuader, persuadee);

/** The estimates by the keys the run page's cells are marked with. */
export function estimatesByKey(answer: EstimatesAnswer): { models: Map<string, ModelEstimate>; pairs: Map<string, PairEstimate> } {
  return {
    models: new Map(answer.models.map((entry) => [modelKey(entry.domain, entry.setting, entry.measure, entry.model), entry])),
    pairs: new Map(answer.pairs.map((entry) => [pairKey(entry.domain, entry.setting, entry.persuader, entry.persuadee), entry])),
  };
}

/**
 * A thin line from the interval's low to its high end on the bar's scale (6rem per unit of NC, the
 * bar's), with a tick at zero, and the interval in words beside it; its data attributes carry the numbers.
 */
export function intervalMark(estimate: Estimate, confidence: number): HTMLElement {
  const text = estimateText(estimate, confidence);
  const box = el('span', {
    className: `interval${estimate.thin ? ' thin' : ''}`,
    title: text,
    'data-ci-low': estimate.ciLow ?? '',
    'data-ci-high': estimate.ciHigh ?? '',
    'data-claims': estimate.claims,
    'data-thin': String(estimate.thin),
  });
  if (estimate.ciLow === null || estimate.ciHigh === null) {
    box.append('no interval');
    return box;
  }
  const scale = el('span', { className: 'interval-scale', 'aria-hidden': 'true' }, el('span', { className: 'interval-zero' }));
  const line = el('span', { className: 'interval-line' });
  // The scale spans -1..1 over 12rem: zero at 6rem, as the bar's 6rem per unit.
  line.style.left = `${((Math.max(-1, estimate.ciLow) + 1) * 6).toFixed(2)}rem`;
  line.style.width = `${Math.max(0.1, (Math.min(1, estimate.ciHigh) - Math.max(-1, estimate.ciLow)) * 6).toFixed(2)}rem`;
  scale.append(line);
  box.append(scale, el('small', {}, `${estimate.thin ? '~' : ''}[${number(estimate.ciLow)}, ${number(estimate.ciHigh)}]`));
  return box;
}

/** The comparisons between models of each condition and measure: difference, interval, p and Holm-adjusted p. */
export function comparisonsSection(answer: EstimatesAnswer, reportLink: Child): HTMLElement {
  const groups = new Map<string, EstimatesAnswer['comparisons']>();
  for (const entry of answer.comparisons) {
    const name = `${entry.domain}, ${entry.setting}-turn: ${entry.measure}`;
    groups.set(name, [...(groups.get(name) ?? []), entry]);
  }
  const confidence = answer.intervals.confidence;
  const tables = [...groups].map(([name, entries]) => {
    const rows = entries.map((entry) =>
      el(
        'tr',
        {
          'data-comparison': `${entry.domain}|${entry.setting}|${entry.measure}|${entry.first}|${entry.second}`,
          'data-difference': entry.difference,
          'data-ci-low': entry.ciLow ?? '',
          'data-ci-high': entry.ciHigh ?? '',
          'data-p-holm': entry.pHolm ?? '',
        },
        td(modelText(entry.first)),
        td(modelText(entry.second)),
        numberCell(signed(entry.difference)),
        numberCell(entry.ciLow === null ? '-' : `${entry.thin ? '~' : ''}[${number(entry.ciLow)}, ${number(entry.ciHigh)}]`),
        numberCell(pText(entry.p)),
        numberCell(pText(entry.pHolm)),
        numberCell(entry.claims),
      ),
    );
    return el(
      'details',
      { className: 'comparisons', open: entries.length <= 12 },
      el('summary', {}, `${name} (${entries.length} comparisons)`),
      table(['first', 'second', 'first - second', `${Math.round(confidence * 100)}% interval`, 'p', 'p (Holm)', 'claims'], rows),
    );
  });
  return el(
    'section',
    { id: 'comparisons' },
    el(
      'p',
      { className: 'note' },
      'Each model against each other in the same role, paired over the claims both have (t over claims). p (Holm) is adjusted over every comparison of the measure in its condition: read that one when asking which differences are real. ',
      reportLink,
    ),
    tables.length > 0 ? tables : el('p', {}, 'No two models to compare.'),
  );
}
