import { ANNOTATION_PAGE_SYNC } from './annotation-page-sync.js';

/**
 * The annotation page's script, sent inline under the page's nonce. It renders every piece of
 * model text with textContent (never as markup), keeps each label in localStorage at once (so a
 * reload or a stopped server loses nothing) and sends it to the server, re-sending what the
 * server has not confirmed. Plain browser JavaScript: the project's TypeScript has no DOM types.
 */
export const ANNOTATION_PAGE_SCRIPT =
  String.raw`
(() => {
  'use strict';
  const token = document.querySelector('meta[name="pmiyc-token"]').getAttribute('content');
  const LABELS = ['Completely Oppose', 'Oppose', 'Neutral', 'Support', 'Completely Support'];
  const KINDS = { opening: 'opening', argument: 'argument', reply: 'reply', final: 'final decision' };
  const byId = (id) => document.getElementById(id);
  const state = { session: null, known: new Set(), labels: new Map(), pending: new Map(), conversation: 0, turn: 0, storageKey: '', sending: false, retry: 0, failure: '' };
  const keyOf = (conversationId, turnIndex) => conversationId + '#' + turnIndex;

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function setStatus(kind, text) {
    const status = byId('save-status');
    status.dataset.state = kind;
    status.textContent = text;
  }
  const conversationAt = (position) => state.session.conversations[position];
  const current = () => conversationAt(state.conversation);
  const turnsToLabel = (conversation) => conversation.turns.filter((turn) => turn.toLabel).map((turn) => turn.index);
  const labelOf = (conversation, turnIndex) => {
    const label = state.labels.get(keyOf(conversation.conversationId, turnIndex));
    return label && label.score !== null ? label.score : null;
  };
  const unlabelled = (conversation) => turnsToLabel(conversation).filter((index) => labelOf(conversation, index) === null);

` +
  ANNOTATION_PAGE_SYNC +
  String.raw`
  function setLabel(score, advance) {
    const conversation = current();
    const key = keyOf(conversation.conversationId, state.turn);
    const label = { conversationId: conversation.conversationId, turnIndex: state.turn, score, labelledAt: new Date().toISOString() };
    const previous = state.labels.get(key);
    // Two labels within one millisecond must still be ordered.
    if (previous && Date.parse(previous.labelledAt) >= Date.parse(label.labelledAt)) label.labelledAt = new Date(Date.parse(previous.labelledAt) + 1).toISOString();
    state.labels.set(key, label);
    state.failure = '';
    if (advance) {
      const turns = turnsToLabel(conversation);
      const next = turns[turns.indexOf(state.turn) + 1];
      if (next !== undefined) state.turn = next;
    }
    state.pending.set(key, label);
    saveLocal();
    render();
    flush();
  }

  function moveTurn(step) {
    const turns = turnsToLabel(current());
    const next = turns[turns.indexOf(state.turn) + step];
    if (next === undefined) return;
    state.turn = next;
    saveLocal();
    render();
  }
  function showConversation(position, turn) {
    if (position < 0 || position >= state.session.conversations.length) return;
    const conversation = conversationAt(position);
    state.conversation = position;
    // A conversation opens at its first unlabelled turn, or, when done, at its last (all of it shown).
    state.turn = turn !== undefined ? turn : unlabelled(conversation)[0] || turnsToLabel(conversation).at(-1);
    saveLocal();
    render();
  }
  function firstUnlabelled() {
    const count = state.session.conversations.length;
    for (let step = 0; step < count; step++) {
      const position = (state.conversation + step) % count;
      const open = unlabelled(conversationAt(position));
      if (open.length > 0) return { position, turn: open[0] };
    }
    return null;
  }

  function choicesFor(conversation, turn) {
    const chosen = labelOf(conversation, turn.index);
    const choices = element('div', 'choices');
    choices.setAttribute('role', 'group');
    choices.setAttribute('aria-label', 'Agreement with the claim');
    LABELS.forEach((name, position) => {
      const button = element('button', 'choice');
      button.type = 'button';
      button.dataset.score = String(position + 1);
      button.setAttribute('aria-pressed', String(chosen === position + 1));
      button.append(element('kbd', '', String(position + 1)), element('span', '', name));
      button.addEventListener('click', (event) => {
        event.stopPropagation();
        state.turn = turn.index;
        setLabel(position + 1, false);
      });
      choices.append(button);
    });
    return choices;
  }
  function turnElement(conversation, turn) {
    const item = element('li', 'turn ' + turn.role);
    item.dataset.index = String(turn.index);
    const head = element('div', 'turn-head');
    head.append(element('span', 'speaker', turn.role === 'persuader' ? 'Persuader' : 'Persuadee'), element('span', 'kind', KINDS[turn.kind] || turn.kind), element('span', 'number', 'turn ' + turn.index));
    item.append(head, element('p', 'message', turn.message));
    if (!turn.toLabel) return item;
    item.classList.add('to-label');
    item.tabIndex = -1;
    const chosen = labelOf(conversation, turn.index);
    if (chosen !== null) item.dataset.score = String(chosen);
    if (turn.index === state.turn) {
      item.classList.add('current');
      item.setAttribute('aria-current', 'step');
    }
    item.append(choicesFor(conversation, turn));
    item.addEventListener('click', () => {
      state.turn = turn.index;
      saveLocal();
      render();
    });
    return item;
  }

  function render() {
    const conversations = state.session.conversations;
    const conversation = current();
    byId('conversation-position').textContent = 'Conversation ' + (state.conversation + 1) + ' of ' + conversations.length;
    const open = unlabelled(conversation).length;
    byId('conversation-state').textContent = open === 0 ? 'every turn labelled' : open + ' to label';
    byId('domain').textContent = conversation.question === null ? 'Claim' : 'Question, and the answer the persuader argues for';
    byId('question').hidden = conversation.question === null;
    byId('question').textContent = conversation.question || '';
    byId('claim').textContent = conversation.claim;
    const list = byId('turns');
    list.replaceChildren();
    let hidden = 0;
    for (const turn of conversation.turns) {
      if (turn.index > state.turn) hidden += 1;
      else list.append(turnElement(conversation, turn));
    }
    byId('hidden-later').textContent = hidden === 0 ? '' : hidden + (hidden === 1 ? ' later turn appears' : ' later turns appear') + ' as you move on (down arrow or j).';
    const total = state.known.size;
    const done = [...state.labels.entries()].filter(([key, label]) => state.known.has(key) && label.score !== null).length;
    byId('progress').textContent = done + ' of ' + total + ' turns labelled';
    byId('progress-bar').max = total;
    byId('progress-bar').value = done;
    byId('hint').textContent = done === total ? 'Every turn is labelled. Thank you! You may close this page.' : open === 0 ? 'This conversation is done: press n for the next one (u jumps to the next unlabelled turn).' : '';
    const focused = list.querySelector('li.current');
    if (focused) {
      focused.focus({ preventScroll: true });
      focused.scrollIntoView({ block: 'nearest' });
    }
  }

  function onKey(event) {
    if (!state.session || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (key.length === 1 && key >= '1' && key <= '5') setLabel(Number(key), true);
    else if (key === '0' || key === 'Backspace' || key === 'Delete') setLabel(null, false);
    else if (key === 'ArrowDown' || key === 'j') moveTurn(1);
    else if (key === 'ArrowUp' || key === 'k') moveTurn(-1);
    else if (key === 'ArrowRight' || key === 'n') showConversation(state.conversation + 1);
    else if (key === 'ArrowLeft' || key === 'p') showConversation(state.conversation - 1);
    else if (key === 'u') {
      const next = firstUnlabelled();
      if (next) showConversation(next.position, next.turn);
    } else if (key === '?') byId('guide').open = !byId('guide').open;
    else return;
    event.preventDefault();
  }

  async function start() {
    setStatus('saving', 'Loading...');
    try {
      state.session = await getJson('/api/session');
    } catch (error) {
      setStatus('error', 'Could not load the tasks (' + error.message + '): is pmiyc annotate serve still running?');
      return;
    }
    const session = state.session;
    for (const conversation of session.conversations) for (const index of turnsToLabel(conversation)) state.known.add(keyOf(conversation.conversationId, index));
    state.storageKey = 'pmiyc-annotation/' + session.taskSetId + '/' + session.annotator;
    byId('annotator').textContent = session.annotator;
    byId('run').textContent = session.run;
    byId('guide-text').textContent = session.annotationGuide;
    const local = loadLocal();
    let serverLabels = [];
    try {
      serverLabels = (await getJson('/api/labels')).labels;
    } catch (error) {
      setStatus('offline', 'The server cannot be reached: your labels are kept in this browser.');
    }
    merge(local, serverLabels);
    const position = local.position;
    const valid = position && conversationAt(position.conversation) && turnsToLabel(conversationAt(position.conversation)).includes(position.turn);
    const next = valid ? { position: position.conversation, turn: position.turn } : firstUnlabelled() || { position: 0, turn: undefined };
    if (state.labels.size === 0) byId('guide').open = true;
    document.addEventListener('keydown', onKey);
    byId('previous-conversation').addEventListener('click', () => showConversation(state.conversation - 1));
    byId('next-conversation').addEventListener('click', () => showConversation(state.conversation + 1));
    showConversation(next.position, next.turn);
    document.body.dataset.ready = 'true';
    flush();
  }

  start();
})();
`;
