import { escapeHtml } from '../report/html/safe-html.js';
import { VIEW_PAGE_CSS } from './view-page-style.js';

/**
 * The viewer's one self-contained page: markup, inline CSS and script, no remote asset. Every run,
 * conversation and model text is fetched from the API and rendered by the script as text, so none of
 * it is ever part of this markup. `nonce` is fresh per response; `script` is the built
 * src/web/browser/view-app.ts (`loadPageScript`), sent as it is.
 */
export function viewPageHtml(nonce: string, script: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pmiyc view</title>
<style nonce="${escapeHtml(nonce)}">${VIEW_PAGE_CSS}</style></head>
<body>
<header class="bar">
  <h1><a href="#/">pmiyc view</a></h1>
  <nav id="crumbs" aria-label="Where you are"></nav>
  <span class="keys">j / k: move &middot; Enter: open &middot; Esc: back</span>
</header>
<main>
  <p id="error" class="error" role="alert" hidden></p>
  <div id="view" aria-live="polite">loading</div>
</main>
<script nonce="${escapeHtml(nonce)}">${script}</script>
</body></html>
`;
}
