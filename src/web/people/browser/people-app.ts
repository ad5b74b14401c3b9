/*
 * The participant's page (src/web/people/people-page.ts): it fetches its own state from its link and builds
 * everything as text nodes (dom.ts), so what a model or another text says is never markup. A reload
 * or a lost connection fetches the state again and carries on where the participant stopped: the
 * server holds the conversation, the page only shows it. While the other side writes, it polls.
 * An answer the server has not acknowledged is kept by the page (pending-answer.ts) and sent again
 * until it is: the participant sees "Saving…", then "Saved".
 */
import type { TextBlock, TextSpan } from '../../../studies/people/markdown-blocks.js';
import type { ParticipantView, VisibleTurn } from '../../../studies/people/participant-view.js';
import { byId, type Child, el } from '../../browser/dom.js';
import { AGREEMENT_TEXTS, agreementText } from '../../wire/shown-text.js';
import { AnswerKeeper, type AnswerStorage, type PendingAnswer, type SaveState, type SendOutcome } from './pending-answer.js';

const POLL_MS = 1000;

const base = location.pathname.replace(/\/+$/, '');
let poll: ReturnType<typeof setTimeout> | undefined;
let countdown: ReturnType<typeof setInterval> | undefined;
let shownStep = '';
let shownTurns = -1;
/** The last state the server sent: drawn again when an answer is kept or refused. */
let lastView: ParticipantView | undefined;
/** An answer the server refused as it was (too short, say): put back in the form to be corrected. */
let draft: PendingAnswer | undefined;

const SAVE_TEXT: Record<SaveState, string> = {
  idle: '',
  saving: 'Saving…',
  retrying:
    "Saving… The study's server has not taken your answer yet (it may be restarting). It is kept on this page and sent again by itself; you may also close the page and come back through the same link later.",
  saved: 'Saved.',
};

function localStorageOrNone(): AnswerStorage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

const keeper = new AnswerKeeper<ParticipantView>({
  storage: localStorageOrNone(),
  key: `pmiyc-pending-answer ${base}`,
  send: sendAnswer,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  onState: (state) => {
    document.body.dataset['save'] = state;
    byId('save-status').textContent = SAVE_TEXT[state];
    if (state === 'saving' && lastView) render(lastView, true);
  },
  onSaved: (view) => render(view, true),
  onRefused: (answer, status, text) => {
    problem(text);
    if (status === 400) draft = answer;
    if (lastView) render(lastView, true);
    void refresh();
  },
});

function spans(list: readonly TextSpan[]): Child[] {
  return list.map((span) => (span.style === 'strong' ? el('strong', null, span.text) : span.style === 'em' ? el('em', null, span.text) : span.text));
}

function blocks(list: readonly TextBlock[]): Child[] {
  return list.map((block) =>
    block.kind === 'heading'
      ? el('h2', null, ...spans(block.spans))
      : block.kind === 'paragraph'
        ? el('p', null, ...spans(block.spans))
        : el('ul', null, ...block.items.map((item) => el('li', null, ...spans(item)))),
  );
}

function problem(text: string): void {
  byId('problem').textContent = text;
}

async function send(action: string, body: unknown): Promise<ParticipantView | undefined> {
  try {
    const response = await fetch(`${base}/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await response.json()) as ParticipantView | { error: string };
    if (!response.ok) {
      problem('error' in answer ? answer.error : `the server answered ${response.status}`);
      return undefined;
    }
    problem('');
    return answer as ParticipantView;
  } catch {
    problem('The connection was lost: your answers so far are kept. Try again in a moment.');
    return undefined;
  }
}

/** One try to send an answer: saved, refused for good, or to be sent again (no connection, the server restarting or catching up). */
async function sendAnswer(answer: PendingAnswer): Promise<SendOutcome<ParticipantView>> {
  try {
    const response = await fetch(`${base}/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer) });
    if (response.status === 503 || response.status === 429 || response.status >= 500) {
      const retryAfterS = Number(response.headers.get('retry-after'));
      return Number.isFinite(retryAfterS) && retryAfterS > 0 ? { kind: 'retry', retryAfterMs: retryAfterS * 1000 } : { kind: 'retry' };
    }
    const body = (await response.json()) as ParticipantView | { error: string };
    if (!response.ok) return { kind: 'refused', status: response.status, problem: 'error' in body ? body.error : `the server answered ${response.status}` };
    problem('');
    return { kind: 'saved', view: body as ParticipantView };
  } catch {
    return { kind: 'retry' };
  }
}

async function refresh(): Promise<void> {
  clearTimeout(poll);
  try {
    const response = await fetch(`${base}/state`);
    if (!response.ok) {
      problem(response.status === 404 ? 'This link is not valid.' : `The server answered ${response.status}: reload the page in a moment.`);
      return;
    }
    render((await response.json()) as ParticipantView);
  } catch {
    problem('The connection was lost: trying again.');
    poll = setTimeout(() => void refresh(), POLL_MS * 3);
  }
}

function whoSaid(turn: VisibleTurn, view: ParticipantView): string {
  if (turn.from === 'you') return 'You';
  return view.role === 'persuadee' ? 'The AI' : 'The AI (your conversation partner)';
}

function turnItem(turn: VisibleTurn, view: ParticipantView): HTMLElement {
  const scoreText =
    turn.score === null ? undefined : turn.from === 'you' ? `Your agreement: ${agreementText(turn.score)}` : `Its agreement: ${agreementText(turn.score)}`;
  return el(
    'li',
    { className: turn.from, 'data-turn': turn.index },
    el('span', { className: 'who' }, turn.kind === 'final' ? `${whoSaid(turn, view)}, final decision` : whoSaid(turn, view)),
    turn.message,
    scoreText ? el('span', { className: 'score' }, scoreText) : null,
  );
}

function agreementChoices(name: string, checked?: number): HTMLElement {
  return el(
    'fieldset',
    null,
    el('legend', null, 'How much do you agree with the claim now?'),
    ...AGREEMENT_TEXTS.map((label, position) =>
      el('label', null, el('input', { type: 'radio', name, value: position + 1, checked: checked === position + 1 }), ` ${position + 1}: ${label}`),
    ),
  );
}

/** The participant's answer while the server has not acknowledged it: shown in its place in the conversation, marked as saving. */
function pendingItem(answer: PendingAnswer): HTMLElement {
  return el(
    'li',
    { className: 'you saving', 'data-turn': answer.turnIndex, id: 'pending-answer' },
    el('span', { className: 'who' }, 'You (saving…)'),
    answer.message.trim(),
    el('span', { className: 'score' }, `Your agreement: ${agreementText(answer.score)}`),
  );
}

function chosen(name: string): number | undefined {
  const input = document.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`);
  return input ? Number(input.value) : undefined;
}

function askPrompt(view: ParticipantView): string {
  const kind = view.ask!.kind;
  if (kind === 'opening') return 'Before the conversation: how much do you agree with the claim? You may say why (optional).';
  if (kind === 'final') return 'The conversation is over. Your final decision: how much do you agree with the claim? You may say why (optional).';
  if (kind === 'argument') return 'Write your argument for the claim. Your agreement below is recorded for the researchers only; the AI never sees it.';
  return 'Answer in your own words, and say how much you agree with the claim now.';
}

function answerForm(view: ParticipantView): HTMLElement {
  const ask = view.ask!;
  const counter = el('span', { className: 'quiet', id: 'counter' }, '');
  const clock = el('p', { className: 'quiet', id: 'clock' }, '');
  const message = el('textarea', { id: 'message', maxlength: ask.maxChars, 'aria-label': 'Your message' });
  const updateCounter = () => {
    const length = [...message.value.trim()].length;
    counter.textContent = ask.minChars > 0 ? `${length} characters (at least ${ask.minChars})` : `${length} characters`;
  };
  message.addEventListener('input', updateCounter);
  const refused = draft?.turnIndex === ask.turnIndex ? draft : undefined;
  if (refused) message.value = refused.message;
  updateCounter();
  const deadline = Date.now() + ask.remainingMs;
  const tick = () => {
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    clock.textContent = `Time left for this turn: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    if (left === 0) void refresh();
  };
  clearInterval(countdown);
  countdown = setInterval(tick, 1000);
  tick();
  const submit = async () => {
    const score = chosen('agreement');
    if (score === undefined) return problem('Choose how much you agree (1 to 5).');
    if ([...message.value.trim()].length < ask.minChars) return problem(`Write at least ${ask.minChars} characters.`);
    problem('');
    draft = undefined;
    await keeper.submit({ turnIndex: ask.turnIndex, message: message.value, score });
  };
  return el(
    'form',
    {
      id: 'answer',
      'data-turn': ask.turnIndex,
      onSubmit: (event: Event) => {
        event.preventDefault();
        void submit();
      },
    },
    el('p', null, askPrompt(view)),
    message,
    counter,
    agreementChoices('agreement', refused?.score),
    clock,
    el('button', { type: 'submit', id: 'send' }, 'Send'),
  );
}

function leaveButton(): HTMLElement {
  return el(
    'button',
    {
      type: 'button',
      id: 'leave',
      onClick: async () => {
        if (!confirm('Stop taking part? Your conversation ends here.')) return;
        const next = await send('withdraw', {});
        if (next) render(next);
      },
    },
    'Stop taking part',
  );
}

function followUpPart(view: ParticipantView): Child {
  const followUp = view.followUp;
  if (!followUp) return null;
  if (followUp.given) return el('p', { id: 'follow-up-done' }, 'Thank you: your follow-up answer is recorded.');
  if (followUp.opensInMs > 0) {
    const hours = Math.ceil(followUp.opensInMs / 3_600_000);
    return el('p', { id: 'follow-up-later' }, `Please come back through this same link in about ${hours} hour${hours === 1 ? '' : 's'} for one last question.`);
  }
  return el(
    'form',
    {
      id: 'follow-up',
      onSubmit: async (event: Event) => {
        event.preventDefault();
        const score = chosen('follow-up');
        if (score === undefined) return problem('Choose how much you agree (1 to 5).');
        const next = await send('follow-up', { score });
        if (next) render(next);
      },
    },
    el('h2', null, 'One last question'),
    agreementChoices('follow-up'),
    el('button', { type: 'submit', id: 'send-follow-up' }, 'Send'),
  );
}

function render(view: ParticipantView, force = false): void {
  clearTimeout(poll);
  lastView = view;
  const pending = keeper.pending;
  // An answer on its way is shown in its place, and no form asks for that turn again meanwhile.
  const saving = pending !== undefined && view.turns.length < pending.turnIndex ? pending : undefined;
  document.title = view.title;
  byId('title').textContent = view.title;
  document.body.dataset['step'] = view.step;
  document.body.dataset['turns'] = String(view.turns.length);
  // While waiting, an unchanged view is left alone (the participant may be reading); a new turn or step redraws.
  const unchanged = view.step === shownStep && view.turns.length === shownTurns;
  shownStep = view.step;
  shownTurns = view.turns.length;
  if (view.step === 'waiting') poll = setTimeout(() => void refresh(), POLL_MS);
  if (unchanged && !force && view.step !== 'consent') return;
  // The turn's countdown runs only while the form asks for an answer.
  if (view.step !== 'answer' || saving) clearInterval(countdown);
  byId('app').replaceChildren(el('div', null, ...stepParts(view, saving)));
}

/** What the page shows at the participant's step; `saving` is an answer on its way, shown in its turn's place. */
function stepParts(view: ParticipantView, saving: PendingAnswer | undefined): Child[] {
  const claim =
    view.claim === null ? null : el('section', { className: 'claim', 'aria-label': 'The claim' }, el('p', null, el('strong', null, 'Claim: '), view.claim));
  const turns = el(
    'ol',
    { className: 'turns', 'aria-label': 'The conversation' },
    ...view.turns.map((turn) => turnItem(turn, view)),
    saving ? pendingItem(saving) : null,
  );
  switch (view.step) {
    case 'consent':
      return [
        ...blocks(view.consent),
        sendButton('consent-agree', 'consent', 'I agree to take part'),
        sendButton('consent-decline', 'withdraw', 'I do not want to take part'),
      ];
    case 'waiting':
      return [
        ...blocks(view.instructions),
        claim,
        turns,
        el('p', { id: 'waiting', role: 'status' }, 'The other side is writing. This page updates by itself.'),
        leaveButton(),
      ];
    case 'answer':
      return [...blocks(view.instructions), claim, turns, saving ? null : answerForm(view), leaveButton()];
    case 'debrief':
      return [claim, turns, el('section', { id: 'debrief' }, ...blocks(view.debrief)), followUpPart(view)];
    case 'ended':
      return [
        el(
          'p',
          { id: 'ended' },
          view.endedBecause === 'time limit' ? 'The time for a turn ran out, so the conversation has ended.' : 'Your participation has ended.',
        ),
        el('section', { id: 'debrief' }, ...blocks(view.debrief)),
      ];
  }
}

/** A button that sends `action` (with nothing to say) and shows the state the server answers. */
function sendButton(id: string, action: string, label: string): HTMLElement {
  return el(
    'button',
    {
      type: 'button',
      id,
      onClick: async () => {
        const next = await send(action, {});
        if (next) render(next);
      },
    },
    label,
  );
}

async function join(): Promise<void> {
  byId('title').textContent = 'Join the study';
  document.body.dataset['step'] = 'join';
  const start = async () => {
    const response = await fetch(`${base}/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const answer = (await response.json()) as { link?: string; error?: string };
    if (answer.link) location.replace(answer.link);
    else problem(answer.error ?? `the server answered ${response.status}`);
  };
  byId('app').replaceChildren(
    el('p', null, 'This link starts a study session of your own. Keep the address you are taken to: it lets you come back.'),
    el('button', { type: 'button', id: 'join', onClick: () => void start() }, 'Start'),
  );
}

const mode = document.querySelector<HTMLMetaElement>('meta[name="pmiyc-mode"]')?.content;
if (mode === 'join') void join();
else {
  void refresh();
  // An answer kept from before a reload (or a closed tab) is sent again: it is answered as the first send would have been.
  void keeper.deliver();
}
