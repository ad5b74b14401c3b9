import { escapeHtml } from '../../report/html/safe-html.js';
import { PEOPLE_PAGE_CSS } from './people-page-style.js';

/**
 * The one page of a participant (or of the open link): markup, inline CSS and script under the
 * response's nonce, no remote asset. Everything it shows (the study's texts, the claim, the
 * conversation) is fetched as JSON from its own link and built as text nodes, so no participant's or
 * model's words are ever part of this markup; the page shows messages, never prompts.
 */
export function peoplePageHtml(nonce: string, mode: 'participant' | 'join', script: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="pmiyc-mode" content="${escapeHtml(mode)}">
<title>Study</title>
<style nonce="${escapeHtml(nonce)}">${PEOPLE_PAGE_CSS}</style></head>
<body data-step="loading">
<header><h1 id="title">Loading</h1></header>
<main id="app"><p>Loading&hellip;</p></main>
<p id="save-status" class="quiet" role="status"></p>
<p id="problem" class="problem" role="alert"></p>
<script nonce="${escapeHtml(nonce)}">${script}</script>
</body></html>
`;
}
