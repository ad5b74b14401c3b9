import type { SearchField } from '../../../domain/search-words.js';
import type { SearchHit } from '../../../studies/tournament/tournament-browse.js';
import { type Child, el } from '../../browser/dom.js';
import { link } from './view-parts.js';

/*
 * Search hits on the conversation list (issue 32): the snippet the server cut from the message, claim or
 * question, its words marked from the offsets it gave. Each piece is a text node or a <mark> holding a
 * text node, so a model's markup in a message stays text.
 */

/** Where the search looks (`field`), as the select offers it. */
export const SEARCH_FIELDS: ReadonlyArray<readonly [SearchField, string]> = [
  ['claim', 'claims'],
  ['messages', 'every message'],
  ['persuader', "persuader's messages"],
  ['persuadee', "persuadee's messages"],
];

/** The snippet's text with its marks as <mark> elements, and an ellipsis where the text goes on. */
function markedText(snippet: SearchHit['snippet']): Child[] {
  const pieces: Child[] = snippet.start > 0 ? ['… '] : [];
  let at = 0;
  for (const [from, to] of snippet.marks) {
    if (from < at || to > snippet.text.length) continue;
    pieces.push(snippet.text.slice(at, from), el('mark', {}, snippet.text.slice(from, to)));
    at = to;
  }
  pieces.push(snippet.text.slice(at), snippet.cut ? ' …' : '');
  return pieces;
}

/** The row under a conversation that says where the words are, linking to the turn. */
export function hitRow(hit: SearchHit, run: string, analysis: string, columns: number): HTMLElement {
  const where =
    hit.turn === null ? `in its ${hit.in}` : link(['conversations', hit.conversationId], { run, analysis, turn: hit.turn }, `turn ${hit.turn} (${hit.role})`);
  const more = hit.turns.length > 1 ? ` and ${hit.turns.length - 1} more turn${hit.turns.length > 2 ? 's' : ''}` : '';
  return el(
    'tr',
    { className: 'hit' },
    el('td', { colSpan: columns }, el('span', { className: 'hit-where' }, where, more, ': '), el('span', { className: 'snippet' }, markedText(hit.snippet))),
  );
}

/** Said when some conversations' messages are not in the index yet (stored before the store had one). */
export const unindexedNote = (unindexed: number | undefined): Child =>
  unindexed
    ? el(
        'p',
        { className: 'note', id: 'unindexed' },
        `${unindexed.toLocaleString('en')} conversations were stored before this store had its search index: their messages are not searched until \`pmiyc upgrade\` indexes them.`,
      )
    : '';
