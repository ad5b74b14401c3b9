import { el } from '../../browser/dom.js';
import type { CompareAnswer } from '../../wire/view-answers.js';
import type { Arm } from '../run-overview.js';
import { link, numberCell, paint, table, td } from './view-parts.js';
import { api, crumbs, isCurrent, selectable, show } from './view-shell.js';
import { count, intervalText, modelText, number, pText, signed } from './view-text.js';

type LeftOut = CompareAnswer['models'][number]['leftOut'];

/** "gamma (only in a); 2 claims; 26 cells", or "nothing": what a model's comparison left out. */
function leftOutText(leftOut: LeftOut): string {
  const opponents = leftOut.opponents.map((opponent) => `${modelText(opponent.model)} (${opponent.onlyIn ? `only in ${opponent.onlyIn}` : 'no common claim'})`);
  const parts: string[] = [];
  if (opponents.length) parts.push((opponents.length === 1 ? 'opponent ' : 'opponents ') + opponents.join(', '));
  if (leftOut.claims) parts.push(count(leftOut.claims) + (leftOut.claims === 1 ? ' claim' : ' claims'));
  if (leftOut.cells) parts.push(count(leftOut.cells) + (leftOut.cells === 1 ? ' cell' : ' cells'));
  return parts.length ? parts.join('; ') : 'nothing';
}

const armText = (arm: Arm) => arm.run + (arm.setting ? ` (${arm.setting}-turn)` : '');
const conditionText = (entry: { domain: string; setting: string | null }) => entry.domain + (entry.setting ? `, ${entry.setting}` : '');

/** Two runs, or a run's two settings, side by side on the (opponent, claim) cells both hold, as `pmiyc report --compare` computes it. */
export async function comparePage(current: number, query: URLSearchParams): Promise<void> {
  const data = await api<CompareAnswer>(`compare?${query}`);
  if (!isCurrent(current)) return;
  crumbs(link([], null, 'runs'), el('span', {}, `compare ${armText(data.a)} with ${armText(data.b)}`));
  const pairRows = data.pairs.map((pair) =>
    el(
      'tr',
      {},
      td(conditionText(pair)),
      td(modelText(pair.persuader)),
      td(modelText(pair.persuadee)),
      numberCell(number(pair.a)),
      numberCell(number(pair.b)),
      paint(numberCell(signed(pair.difference)), pair.difference),
      numberCell(count(pair.claims)),
      numberCell(`${count(pair.aCompleted)} / ${count(pair.bCompleted)}`),
    ),
  );
  const modelRows = data.models.map((entry) =>
    el(
      'tr',
      {},
      td(conditionText(entry)),
      td(modelText(entry.model)),
      td(entry.role === 'persuader' ? 'effectiveness' : 'susceptibility'),
      numberCell(number(entry.a)),
      numberCell(number(entry.b)),
      paint(numberCell(signed(entry.difference)), entry.difference),
      numberCell(intervalText(entry)),
      numberCell(pText(entry.pHolm)),
      numberCell(`${count(entry.claims)} / ${count(entry.cells)}`),
      td(leftOutText(entry.leftOut)),
    ),
  );
  const notCompared = data.notCompared.map(
    (entry) => `${modelText(entry.model)} as ${entry.role} in ${conditionText(entry)} (${entry.onlyIn ? `only in ${entry.onlyIn}` : 'no common cell'})`,
  );
  const conditionsLeftOut = data.conditions
    .filter((entry) => entry.claimsLeftOut || entry.cellsLeftOut)
    .map((entry) => `${conditionText(entry)}: ${count(entry.claimsLeftOut)} claims and ${count(entry.cellsLeftOut)} (pair, claim) cells in one side only`);
  show(
    el('h2', {}, armText(data.a), ' vs ', armText(data.b)),
    el(
      'p',
      { className: 'note' },
      `Each model's change (b - a) is over the (opponent, claim) cells both sides hold: the same opponents and the same claims on both sides, paired by claim, with its 95% t interval over claims (~: too few claims to trust it) and p Holm-adjusted per measure and condition, as pmiyc report --run ${data.b.run} --compare ${data.a.run} computes it. n is claims / cells.`,
    ),
    notCompared.length ? el('p', { className: 'note', id: 'not-compared' }, `Not compared: ${notCompared.join('; ')}.`) : '',
    conditionsLeftOut.length ? el('p', { className: 'note', id: 'left-out' }, `Left out: ${conditionsLeftOut.join('; ')}.`) : '',
    el('h3', {}, 'Per model'),
    table(['condition', 'model', 'measure', 'a', 'b', 'b - a', '95% interval', 'p (Holm)', 'n', 'left out'], modelRows),
    el('h3', {}, 'Per pair'),
    table(['condition', 'persuader', 'persuadee', 'a', 'b', 'b - a', 'claims', 'completed a / b'], pairRows),
  );
  selectable(modelRows);
}
