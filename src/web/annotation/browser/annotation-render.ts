import type { AnnotationConversation, AnnotationTurn } from '../../../studies/annotation/annotation-tasks.js';
import { byId } from '../../browser/dom.js';
import { AGREEMENT_TEXTS, visibleBidiControls } from '../../wire/shown-text.js';
import { current, labelOf, state, unlabelled } from './annotation-state.js';

const KINDS: Readonly<Record<string, string>> = { opening: 'opening', argument: 'argument', reply: 'reply', final: 'final decision' };

/** What a click on the page does: label a turn (`score` 1-5), or highlight one. */
export interface TurnActions {
  readonly label: (turnIndex: number, score: number) => void;
  readonly highlight: (turnIndex: number) => void;
}

function element<Tag extends keyof HTMLElementTagNameMap>(tag: Tag, className?: string, text?: string): HTMLElementTagNameMap[Tag] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = visibleBidiControls(text);
  return node;
}

/** The five agreement buttons of a turn to label, the chosen one pressed. */
function choicesFor(conversation: AnnotationConversation, turn: AnnotationTurn, actions: TurnActions): HTMLElement {
  const chosen = labelOf(conversation, turn.index);
  const choices = element('div', 'choices');
  choices.setAttribute('role', 'group');
  choices.setAttribute('aria-label', 'Agreement with the claim');
  AGREEMENT_TEXTS.forEach((name, position) => {
    const button = element('button', 'choice');
    button.type = 'button';
    button.dataset['score'] = String(position + 1);
    button.setAttribute('aria-pressed', String(chosen === position + 1));
    button.append(element('kbd', '', String(position + 1)), element('span', '', name));
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      actions.label(turn.index, position + 1);
    });
    choices.append(button);
  });
  return choices;
}

function turnElement(conversation: AnnotationConversation, turn: AnnotationTurn, actions: TurnActions): HTMLElement {
  const item = element('li', `turn ${turn.role}`);
  item.dataset['index'] = String(turn.index);
  const head = element('div', 'turn-head');
  head.append(
    element('span', 'speaker', turn.role === 'persuader' ? 'Persuader' : 'Persuadee'),
    element('span', 'kind', KINDS[turn.kind] || turn.kind),
    element('span', 'number', `turn ${turn.index}`),
  );
  item.append(head, element('p', 'message', turn.message));
  if (!turn.toLabel) return item;
  item.classList.add('to-label');
  item.tabIndex = -1;
  const chosen = labelOf(conversation, turn.index);
  if (chosen !== null) item.dataset['score'] = String(chosen);
  if (turn.index === state.turn) {
    item.classList.add('current');
    item.setAttribute('aria-current', 'step');
  }
  item.append(choicesFor(conversation, turn, actions));
  item.addEventListener('click', () => actions.highlight(turn.index));
  return item;
}

/** Draws the conversation shown up to the highlighted turn (later turns stay hidden), and the progress. */
export function render(actions: TurnActions): void {
  const conversations = state.session!.conversations;
  const conversation = current();
  byId('conversation-position').textContent = `Conversation ${state.conversation + 1} of ${conversations.length}`;
  const open = unlabelled(conversation).length;
  byId('conversation-state').textContent = open === 0 ? 'every turn labelled' : `${open} to label`;
  byId('domain').textContent = conversation.question === null ? 'Claim' : 'Question, and the answer the persuader argues for';
  byId('question').hidden = conversation.question === null;
  byId('question').textContent = visibleBidiControls(conversation.question || '');
  byId('claim').textContent = visibleBidiControls(conversation.claim);
  const list = byId('turns');
  list.replaceChildren();
  let hidden = 0;
  for (const turn of conversation.turns) {
    if (state.turn !== undefined && turn.index > state.turn) hidden += 1;
    else list.append(turnElement(conversation, turn, actions));
  }
  byId('hidden-later').textContent =
    hidden === 0 ? '' : `${hidden}${hidden === 1 ? ' later turn appears' : ' later turns appear'} as you move on (down arrow or j).`;
  const total = state.known.size;
  const done = [...state.labels.entries()].filter(([key, label]) => state.known.has(key) && label.score !== null).length;
  byId('progress').textContent = `${done} of ${total} turns labelled`;
  const bar = byId<HTMLProgressElement>('progress-bar');
  bar.max = total;
  bar.value = done;
  byId('hint').textContent =
    done === total
      ? 'Every turn is labelled. Thank you! You may close this page.'
      : open === 0
        ? 'This conversation is done: press n for the next one (u jumps to the next unlabelled turn).'
        : '';
  const focused = list.querySelector<HTMLElement>('li.current');
  if (focused) {
    focused.focus({ preventScroll: true });
    focused.scrollIntoView({ block: 'nearest' });
  }
}
