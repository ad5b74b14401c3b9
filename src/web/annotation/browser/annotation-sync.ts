import { byId } from '../../browser/dom.js';
import type { LabelPost, LabelsAnswer } from '../../wire/annotation-answers.js';
import { SESSION_TOKEN_HEADER, SESSION_TOKEN_META_NAME } from '../../wire/page-session.js';
import { keyOf, state } from './annotation-state.js';

/*
 * Keeping labels safe: localStorage first (a reload, or a server that is down, loses nothing), then
 * the server, re-sending until it confirms.
 */

/** The session's token: the server puts it in a meta element (data, never code); every API call carries it. */
const token = document.querySelector(`meta[name="${SESSION_TOKEN_META_NAME}"]`)?.getAttribute('content') ?? '';

/** What this browser keeps of a task set: the labels by key, and where the annotator was. */
export interface LocalCopy {
  readonly labels?: Readonly<Record<string, LabelPost>>;
  readonly position?: { readonly conversation: number; readonly turn: number | undefined };
}

export function setStatus(kind: string, text: string): void {
  const status = byId('save-status');
  status.dataset['state'] = kind;
  status.textContent = text;
}

export function loadLocal(): LocalCopy {
  try {
    return (JSON.parse(localStorage.getItem(state.storageKey) || 'null') as LocalCopy | null) || {};
  } catch {
    return {};
  }
}

export function saveLocal(): void {
  const labels: Record<string, LabelPost> = {};
  for (const [key, label] of state.labels) labels[key] = label;
  try {
    localStorage.setItem(state.storageKey, JSON.stringify({ labels, position: { conversation: state.conversation, turn: state.turn } }));
  } catch (error) {
    setStatus('error', `This browser could not keep the labels (${(error as Error).message}); they are still sent to the server.`);
  }
}

/** Local and server labels: the later of the two wins; whatever the server lacks is sent again. */
export function merge(local: LocalCopy, serverLabels: LabelsAnswer['labels']): void {
  const server = new Map<string, LabelPost>(serverLabels.map((label) => [keyOf(label.conversationId, label.turnIndex), label]));
  for (const [key, label] of Object.entries(local.labels || {})) if (state.known.has(key)) state.labels.set(key, label);
  for (const [key, label] of server) {
    const mine = state.labels.get(key);
    if (!mine || Date.parse(mine.labelledAt) < Date.parse(label.labelledAt)) state.labels.set(key, label);
  }
  for (const [key, label] of state.labels) {
    const theirs = server.get(key);
    const differs = theirs ? theirs.score !== label.score || theirs.labelledAt !== label.labelledAt : label.score !== null;
    if (differs) state.pending.set(key, label);
  }
}

/** Sends the pending labels one at a time; when the server is unreachable, tries again in 2 s. */
export async function flush(): Promise<void> {
  if (state.sending) return;
  state.sending = true;
  while (state.pending.size > 0) {
    const [key, label] = state.pending.entries().next().value!;
    setStatus('saving', 'Saving...');
    let response: Response | null = null;
    try {
      response = await fetch('/api/labels', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SESSION_TOKEN_HEADER]: token },
        body: JSON.stringify(label),
      });
    } catch {
      response = null;
    }
    if (response === null || response.status >= 500) {
      state.sending = false;
      setStatus('offline', 'The server cannot be reached: your labels are kept in this browser and will be sent when it is back.');
      clearTimeout(state.retry);
      state.retry = setTimeout(flush, 2000);
      return;
    }
    if (state.pending.get(key) === label) state.pending.delete(key);
    if (!response.ok) {
      const problem = (await response.json().catch(() => ({}))) as { error?: string };
      state.failure = `The server refused a label: ${problem.error || `status ${response.status}`}`;
    }
  }
  state.sending = false;
  if (state.failure) setStatus('error', state.failure);
  else setStatus('saved', 'All labels saved.');
}

/** A GET of the API with the session's token; an error status is an Error naming the path. */
export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { [SESSION_TOKEN_HEADER]: token }, cache: 'no-store' });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return (await response.json()) as T;
}
