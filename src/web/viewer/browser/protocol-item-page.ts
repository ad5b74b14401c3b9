import { type Child, el } from '../../browser/dom.js';
import { factText, type ProtocolFactShown, type ProtocolItemAnswer, type ProtocolMessageShown } from '../../wire/protocol-items.js';
import { badge, link } from './view-parts.js';
import { api, crumbs, isCurrent, selectable, show } from './view-shell.js';
import { modelText } from './view-text.js';

/*
 * One item of a run of a protocol beside PMIYC's (docs/design/protocols.md, "Viewer"): its facts and participants,
 * each message with what the protocol read of it (its marks), and what the item came to. Every label and value is
 * the protocol's, shown as text; the page knows no protocol.
 */

/** Facts as a definition list: each label, then its value as text. */
const factList = (id: string, facts: readonly ProtocolFactShown[], more: Child = '') =>
  el(
    'dl',
    { className: 'facts', id },
    facts.map((fact) => [el('dt', {}, fact.label), el('dd', {}, factText(fact.value))]),
    more,
  );

/** The roles the pages draw as a tournament's sides; any other role is drawn plainly. */
const SIDES = new Set(['persuader', 'persuadee']);

/** One message: who wrote it and at which turn, its marks, and its text. */
function turnItem(turn: ProtocolMessageShown, simulated: (model: string) => boolean): HTMLElement {
  return el(
    'li',
    { className: SIDES.has(turn.role) ? turn.role : '', 'data-index': turn.index, 'data-turn': turn.turn, id: `message-${turn.index}` },
    el('div', { className: 'turn-head' }, el('strong', {}, `turn ${turn.turn}: ${turn.role}`), el('span', {}, modelText(turn.model, simulated(turn.model)))),
    turn.marks.length > 0
      ? el(
          'div',
          { className: 'tags' },
          turn.marks.map((mark) => el('span', { className: 'tag mark', 'data-label': mark.label }, `${mark.label}: ${factText(mark.value)}`)),
        )
      : '',
    el('div', { className: 'message' }, turn.text),
  );
}

/** An item's page: title, facts and participants, its outcome, then its messages with their marks. */
export async function protocolItemPage(current: number, run: string, itemKey: string): Promise<void> {
  const item = await api<ProtocolItemAnswer>(`runs/${encodeURIComponent(run)}/items/${encodeURIComponent(itemKey)}`);
  if (!isCurrent(current)) return;
  crumbs(link([], null, 'runs'), link(['runs', run], null, run), el('span', {}, itemKey));
  const simulated = (model: string) => item.participants.some((entry) => entry.model === model && entry.simulated);
  const anySimulated = item.participants.some((entry) => entry.simulated);
  show(
    el('h2', {}, item.title, ' ', anySimulated ? badge('simulated agents', 'simulated') : ''),
    factList(
      'item-facts',
      item.facts,
      item.participants.map((entry) => [el('dt', {}, entry.role), el('dd', {}, modelText(entry.model, entry.simulated))]),
    ),
    el('h3', {}, 'Outcome'),
    factList('item-outcome', item.outcome),
    el('h3', {}, 'Messages'),
    el(
      'ol',
      { className: 'turns', id: 'item-messages' },
      item.turns.map((turn) => turnItem(turn, simulated)),
    ),
  );
  selectable([]);
}
