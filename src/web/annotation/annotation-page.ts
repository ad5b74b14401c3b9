import { escapeHtml } from '../../report/html/safe-html.js';
import { SESSION_TOKEN_META_NAME } from '../wire/page-session.js';
import { ANNOTATION_PAGE_CSS } from './annotation-page-style.js';

const KEYS: ReadonlyArray<[string, string]> = [
  ['1 - 5', 'label the highlighted persuadee turn and move to the next one'],
  ['0 or Backspace', 'clear its label'],
  ['down / j, up / k', 'next or previous persuadee turn'],
  ['n / right, p / left', 'next or previous conversation'],
  ['u', 'the next unlabelled turn, in any conversation'],
  ['?', 'show or hide this guide'],
];

/**
 * The one self-contained annotation page: markup, inline CSS and script, no remote asset. The
 * conversations are fetched from the server (`/api/session`) and rendered as text, so no model
 * text is ever part of this markup. `nonce` is fresh per response; `token` is the session's, given
 * to the script as data (a meta element), never spliced into its code; `script` is the built
 * src/web/annotation/browser/annotation-app.ts (`loadPageScript`), sent as it is.
 */
export function annotationPageHtml(nonce: string, token: string, script: string): string {
  const keys = KEYS.map(([key, what]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(what)}</dd>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="${SESSION_TOKEN_META_NAME}" content="${escapeHtml(token)}">
<title>pmiyc annotation</title>
<style nonce="${escapeHtml(nonce)}">${ANNOTATION_PAGE_CSS}</style></head>
<body>
<header class="bar">
  <h1>pmiyc annotation</h1>
  <span class="who">annotator <strong id="annotator"></strong> &middot; run <span id="run"></span></span>
  <span id="progress">loading</span><progress id="progress-bar" value="0" max="1"></progress>
  <p id="save-status" role="status" aria-live="polite" data-state="saving"></p>
</header>
<main>
  <details class="guide" id="guide"><summary>How to label (press ? to show or hide)</summary>
    <div id="guide-text"></div>
    <dl class="keys">${keys}</dl>
  </details>
  <nav class="conversations" aria-label="Conversations">
    <button type="button" id="previous-conversation">&larr; previous</button>
    <span id="conversation-position"></span><span id="conversation-state"></span>
    <button type="button" id="next-conversation">next &rarr;</button>
  </nav>
  <section class="claim" aria-label="What the persuader argues for">
    <p class="what" id="domain"></p>
    <p id="question" hidden></p>
    <p id="claim"></p>
  </section>
  <ol id="turns" aria-label="The conversation so far"></ol>
  <p id="hidden-later"></p>
  <p id="hint" role="status"></p>
</main>
<script nonce="${escapeHtml(nonce)}">${script}</script>
</body></html>
`;
}
