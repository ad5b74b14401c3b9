import type { ClaimCell, PairCell } from '../../../studies/tournament/tournament-browse.js';
import { type Child, el } from '../../browser/dom.js';
import type { RunAnswer } from '../../wire/view-answers.js';
import { pairKey } from './run-estimates.js';
import { link, numberCell, paint, route, table, td } from './view-parts.js';
import { count, modelText, number, signed } from './view-text.js';

/** Claims shown on a run page at a time. */
export const CLAIMS_SHOWN = 100;

/** How the run page's claims table is ordered and where it starts. */
export interface ClaimsState {
  order: string;
  offset: number;
}

/** One condition's persuader x persuadee matrix of mean NC; each cell opens its pair's conversations. `cells` receives each cell's link by `pairKey`, for its interval. */
export function matrix(
  run: string,
  condition: RunAnswer['conditions'][number],
  pairs: readonly PairCell[],
  models: readonly string[],
  cells?: Map<string, HTMLElement>,
): HTMLElement {
  const byPair = new Map(
    pairs
      .filter((cell) => cell.domain === condition.domain && cell.setting === condition.setting)
      .map((cell) => [`${cell.persuader}\u001f${cell.persuadee}`, cell]),
  );
  const persuaders = models.filter((model) => pairs.some((cell) => cell.persuader === model));
  const persuadees = models.filter((model) => pairs.some((cell) => cell.persuadee === model));
  const where = { setting: condition.setting, domain: condition.domain };
  const bodyRows = persuaders.map((persuader) =>
    el(
      'tr',
      {},
      el('th', {}, link(['runs', run], { persuader, ...where }, modelText(persuader))),
      persuadees.map((persuadee) => {
        const cell = byPair.get(`${persuader}\u001f${persuadee}`);
        if (!cell) return td('');
        const query = { persuader, persuadee, ...where };
        const counts = `n=${count(cell.completed)}${cell.failed > 0 ? `, ${count(cell.failed)} failed` : ''}`;
        const anchor = el(
          'a',
          { href: route(['runs', run, 'conversations'], query), 'data-cell': `${persuader} -> ${persuadee}` },
          number(cell.meanNc),
          el('small', {}, counts),
        );
        cells?.set(pairKey(condition.domain, condition.setting, persuader, persuadee), anchor);
        return paint(td(anchor), cell.meanNc);
      }),
    ),
  );
  const columns = persuadees.map((model) => link(['runs', run, 'conversations'], { persuadee: model, ...where }, modelText(model)));
  return el(
    'section',
    {},
    el('h3', {}, `${condition.domain}, ${condition.setting}-turn: mean NC, persuader (rows) x persuadee (columns)`),
    table(['persuader \\ persuadee', ...columns], bodyRows, 'matrix'),
  );
}

/** A signed value with a bar as long as it is large: red below zero. */
export function bar(value: number | null): Child {
  if (value === null) return '-';
  const node = el('span', { className: `bar${value < 0 ? ' negative' : ''}` });
  node.style.width = `${(Math.abs(value) * 6).toFixed(2)}rem`;
  return el('span', { className: 'bar-cell' }, node, signed(value));
}

const ORDERS: Readonly<Record<string, (a: ClaimCell, b: ClaimCell) => number>> = {
  nc: (a, b) => (a.meanNc ?? 9) - (b.meanNc ?? 9),
  '-nc': (a, b) => (b.meanNc ?? -9) - (a.meanNc ?? -9),
};

/** A page of the run's claims, each with its mean NC per condition and a link to its conversations. */
export function claimsTable(run: string, claims: readonly ClaimCell[], state: ClaimsState): HTMLElement {
  const sorted = [...claims].sort(ORDERS[state.order] ?? (() => 0));
  const shown = sorted.slice(state.offset, state.offset + CLAIMS_SHOWN);
  const bodyRows = shown.map((claim) =>
    el(
      'tr',
      {},
      td(`${claim.domain}, ${claim.setting}`),
      numberCell(claim.claimIndex),
      td(link(['runs', run, 'conversations'], { domain: claim.domain, setting: claim.setting, claim: claim.claimIndex }, claim.claim)),
      paint(numberCell(number(claim.meanNc)), claim.meanNc),
      numberCell(count(claim.completed)),
      numberCell(count(claim.failed)),
    ),
  );
  const from = count(Math.min(claims.length, state.offset + 1));
  const to = count(Math.min(claims.length, state.offset + CLAIMS_SHOWN));
  return el(
    'div',
    {},
    table(['condition', 'claim #', 'claim', 'mean NC', 'completed', 'failed'], bodyRows),
    el('p', { className: 'note' }, `claims ${from}-${to} of ${count(claims.length)}`),
  );
}
