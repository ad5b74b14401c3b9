import type { AgreementScore } from '../../../domain/agreement-score.js';
import { byId } from '../../browser/dom.js';
import type { LabelPost, LabelsAnswer, SessionAnswer } from '../../wire/annotation-answers.js';
import { render, type TurnActions } from './annotation-render.js';
import { conversationAt, current, firstUnlabelled, keyOf, positionOf, state, turnsToLabel, unlabelled } from './annotation-state.js';
import { flush, getJson, loadLocal, merge, saveLocal, setStatus } from './annotation-sync.js';

/*
 * The annotation page's script (`pmiyc annotate serve`): it renders every piece of model text with
 * textContent (never as markup), keeps each label in localStorage at once (so a reload or a stopped
 * server loses nothing) and sends it to the server, re-sending what the server has not confirmed.
 * The build (rolldown.config.mjs) bundles it into one classic script that the server sends inline
 * under the page's nonce.
 */

const actions: TurnActions = {
  label: (turnIndex, score) => {
    state.turn = turnIndex;
    setLabel(score as AgreementScore, false);
  },
  highlight: (turnIndex) => {
    state.turn = turnIndex;
    saveLocal();
    render(actions);
  },
};

/** Labels (or, with null, clears) the highlighted turn; `advance` then highlights the next turn to label. */
function setLabel(score: AgreementScore | null, advance: boolean): void {
  const conversation = current();
  const turnIndex = state.turn!;
  const key = keyOf(conversation.conversationId, turnIndex);
  let labelledAt = new Date().toISOString();
  const previous = state.labels.get(key);
  // Two labels within one millisecond must still be ordered.
  if (previous && Date.parse(previous.labelledAt) >= Date.parse(labelledAt)) labelledAt = new Date(Date.parse(previous.labelledAt) + 1).toISOString();
  const label: LabelPost = { conversationId: conversation.conversationId, turnIndex, score, labelledAt };
  state.labels.set(key, label);
  state.failure = '';
  if (advance) {
    const turns = turnsToLabel(conversation);
    const next = turns[positionOf(turns, state.turn) + 1];
    if (next !== undefined) state.turn = next;
  }
  state.pending.set(key, label);
  saveLocal();
  render(actions);
  flush();
}

function moveTurn(step: 1 | -1): void {
  const turns = turnsToLabel(current());
  const next = turns[positionOf(turns, state.turn) + step];
  if (next === undefined) return;
  state.turn = next;
  saveLocal();
  render(actions);
}

function showConversation(position: number, turn?: number): void {
  if (position < 0 || position >= state.session!.conversations.length) return;
  const conversation = conversationAt(position)!;
  state.conversation = position;
  // A conversation opens at its first unlabelled turn, or, when done, at its last (all of it shown).
  state.turn = turn !== undefined ? turn : unlabelled(conversation)[0] || turnsToLabel(conversation).at(-1);
  saveLocal();
  render(actions);
}

function onKey(event: KeyboardEvent): void {
  if (!state.session || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  if (key.length === 1 && key >= '1' && key <= '5') setLabel(Number(key) as AgreementScore, true);
  else if (key === '0' || key === 'Backspace' || key === 'Delete') setLabel(null, false);
  else if (key === 'ArrowDown' || key === 'j') moveTurn(1);
  else if (key === 'ArrowUp' || key === 'k') moveTurn(-1);
  else if (key === 'ArrowRight' || key === 'n') showConversation(state.conversation + 1);
  else if (key === 'ArrowLeft' || key === 'p') showConversation(state.conversation - 1);
  else if (key === 'u') {
    const next = firstUnlabelled();
    if (next) showConversation(next.position, next.turn);
  } else if (key === '?') {
    const guide = byId<HTMLDetailsElement>('guide');
    guide.open = !guide.open;
  } else return;
  event.preventDefault();
}

/** Loads the task set and the labels (this browser's and the server's), then opens where the annotator was. */
async function start(): Promise<void> {
  setStatus('saving', 'Loading...');
  let session: SessionAnswer;
  try {
    session = await getJson<SessionAnswer>('/api/session');
  } catch (error) {
    setStatus('error', `Could not load the tasks (${(error as Error).message}): is pmiyc annotate serve still running?`);
    return;
  }
  state.session = session;
  for (const conversation of session.conversations) for (const index of turnsToLabel(conversation)) state.known.add(keyOf(conversation.conversationId, index));
  state.storageKey = `pmiyc-annotation/${session.taskSetId}/${session.annotator}`;
  byId('annotator').textContent = session.annotator;
  byId('run').textContent = session.run;
  byId('guide-text').textContent = session.annotationGuide;
  const local = loadLocal();
  let serverLabels: LabelsAnswer['labels'] = [];
  try {
    serverLabels = (await getJson<LabelsAnswer>('/api/labels')).labels;
  } catch {
    setStatus('offline', 'The server cannot be reached: your labels are kept in this browser.');
  }
  merge(local, serverLabels);
  const position = local.position;
  const saved = position ? conversationAt(position.conversation) : undefined;
  const valid = position && saved && position.turn !== undefined && turnsToLabel(saved).includes(position.turn);
  const next = valid ? { position: position.conversation, turn: position.turn } : firstUnlabelled() || { position: 0, turn: undefined };
  if (state.labels.size === 0) byId<HTMLDetailsElement>('guide').open = true;
  document.addEventListener('keydown', onKey);
  byId('previous-conversation').addEventListener('click', () => showConversation(state.conversation - 1));
  byId('next-conversation').addEventListener('click', () => showConversation(state.conversation + 1));
  showConversation(next.position, next.turn);
  document.body.dataset['ready'] = 'true';
  flush();
}

start();
