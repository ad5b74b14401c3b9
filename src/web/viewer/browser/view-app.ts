import { byId } from '../../browser/dom.js';
import { acrossPage } from './across-page.js';
import { comparePage } from './compare-page.js';
import { conversationPage } from './conversation-page.js';
import { conversationsPage } from './conversations-page.js';
import { notesPage } from './notes-page.js';
import { takeTokenFromAddress } from './notes-token.js';
import { protocolItemPage } from './protocol-item-page.js';
import { runPage } from './run-page.js';
import { runsPage } from './runs-page.js';
import { isCurrent, moveSelection, nextRoute, selectedLink, show, showError } from './view-shell.js';

/*
 * The viewer's page script (`pmiyc view`, docs/design/view.md): a small hash-routed app over the
 * JSON API. Every piece of stored text is put on the page with textContent or as an SVG text node,
 * never as markup, and every link it makes is '#/' plus encoded names, so a model's `<script>` or
 * `javascript:` stays text. The build (rolldown.config.mjs) bundles it into one classic script that
 * the server sends inline under the page's nonce.
 */

/** Draws the page the address names. */
async function render(): Promise<void> {
  const current = nextRoute();
  showError(null);
  const hash = location.hash.replace(/^#\/?/, '');
  const [path, search] = hash.split('?');
  const parts = (path || '').split('/').filter(Boolean).map(decodeURIComponent);
  const query = new URLSearchParams(search || '');
  try {
    if (parts.length === 0) await runsPage(current);
    else if (parts[0] === 'runs' && parts.length === 2) await runPage(current, parts[1]!, query);
    else if (parts[0] === 'runs' && parts[2] === 'conversations') await conversationsPage(current, parts[1]!, query);
    else if (parts[0] === 'runs' && parts[2] === 'notes') await notesPage(current, parts[1]!, query);
    else if (parts[0] === 'runs' && parts[2] === 'items' && parts.length === 4) await protocolItemPage(current, parts[1]!, parts[3]!);
    else if (parts[0] === 'conversations' && parts.length === 2) await conversationPage(current, parts[1]!, query);
    else if (parts[0] === 'compare') await comparePage(current, query);
    else if (parts[0] === 'across') await acrossPage(current, query);
    else throw new Error(`no such page: ${location.hash}`);
  } catch (error) {
    if (isCurrent(current)) {
      show('');
      showError(error);
    }
  }
}

/** Esc: the last link of the crumbs, one level up. */
function up(): void {
  const links = byId('crumbs').querySelectorAll('a');
  const last = links[links.length - 1];
  if (last) location.hash = last.getAttribute('href') ?? '';
}

function onKey(event: KeyboardEvent): void {
  const target = event.target as HTMLElement | null;
  if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) {
    if (event.key === 'Escape') target.blur();
    return;
  }
  if (event.metaKey || event.ctrlKey || event.altKey) return;
  if (event.key === 'j' || event.key === 'k') {
    if (moveSelection(event.key === 'j' ? 1 : -1)) event.preventDefault();
  } else if (event.key === 'Enter') {
    const href = selectedLink();
    if (href !== null) {
      location.hash = href;
      event.preventDefault();
    }
  } else if (event.key === 'Escape') {
    up();
    event.preventDefault();
  }
}

takeTokenFromAddress();
document.addEventListener('keydown', onKey);
window.addEventListener('hashchange', render);
render();
