import { escapeHtml } from '../../report/html/safe-html.js';
import { BUNDLE_META_NAME, type BundleLabel } from '../wire/bundle-files.js';
import { VIEW_PAGE_CSS } from './view-page-style.js';

/** The viewer's markup around what the script draws: the bar with the crumbs, the error box and the view. */
function viewBody(label: string): string {
  return `<header class="bar">
  <h1><a href="#/">pmiyc view</a></h1>
  <nav id="crumbs" aria-label="Where you are"></nav>
  <span class="keys">j / k: move &middot; Enter: open &middot; Esc: back</span>
</header>${label}
<main>
  <p id="error" class="error" role="alert" hidden></p>
  <div id="view" aria-live="polite">loading</div>
</main>`;
}

/**
 * The viewer's one self-contained page: markup, inline CSS and script, no remote asset. Every run,
 * conversation and model text is fetched from the API and rendered by the script as text, so none of
 * it is ever part of this markup. `nonce` is fresh per response; `script` is the built
 * src/web/viewer/browser/view-app.ts (`loadPageScript`), sent as it is.
 */
export function viewPageHtml(nonce: string, script: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pmiyc view</title>
<style nonce="${escapeHtml(nonce)}">${VIEW_PAGE_CSS}</style></head>
<body>
${viewBody('')}
<script nonce="${escapeHtml(nonce)}">${script}</script>
</body></html>
`;
}

/** The policy of a bundle's page: its own script and style files only (no inline code at all), no request anywhere else. */
const BUNDLE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'";

/**
 * The page of a static bundle (`pmiyc view --bundle`): the viewer's own markup and script, the
 * script as a file beside it (a static page has no per-response nonce to allow an inline one) and
 * the data it reads from the bundle's data/ folder instead of the API. The label is text, escaped;
 * the meta element's content is JSON, escaped as an attribute: what the bundle is, above every view.
 */
export function bundlePageHtml(label: BundleLabel): string {
  const agents = label.simulated ? 'simulated agents (not real models)' : 'models';
  const said = `Run ${label.run}: ${label.conversations.toLocaleString('en')} conversations of ${agents}. A static, read-only bundle written by pmiyc ${label.packageVersion} on ${label.writtenAt}.`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${BUNDLE_POLICY}">
<meta name="referrer" content="no-referrer">
<meta name="${BUNDLE_META_NAME}" content="${escapeHtml(JSON.stringify(label))}">
<title>pmiyc bundle: ${escapeHtml(label.run)}</title>
<link rel="stylesheet" href="view.css"></head>
<body>
${viewBody(`\n<p class="bundle-label${label.simulated ? ' simulated' : ''}" id="bundle-label">${escapeHtml(said)}</p>`)}
<script src="view-app.js"></script>
</body></html>
`;
}
