import { SESSION_TOKEN_HEADER } from '../../wire/page-session.js';
import type { ErrorAnswer } from '../../wire/view-answers.js';

/*
 * The viewer's write token (issue 32). `pmiyc view` makes a random token each time it starts and
 * prints its address with the token in the fragment (`#token=...`), which the browser never sends to
 * any server. The page takes it from there once, keeps it for this tab (sessionStorage: it is gone
 * when the tab closes, and a restarted viewer's new token replaces it) and sends it in a header with
 * each write. A tab opened without it reads everything and says how to write.
 */

const KEY = 'pmiyc-view-token';

/** Takes a token from the address (`#token=...`) into this tab's storage and leaves the address at the runs. */
export function takeTokenFromAddress(): void {
  const match = /^#token=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match) return;
  sessionStorage.setItem(KEY, match[1]!);
  history.replaceState(null, '', `${location.pathname}#/`);
}

/** Whether this tab holds a write token. */
export const hasToken = (): boolean => sessionStorage.getItem(KEY) !== null;

/** A write of the notes API with the token; an error answer becomes an Error with its message. */
export async function sendNote<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/api/${path}`, {
    method,
    headers: {
      accept: 'application/json',
      [SESSION_TOKEN_HEADER]: sessionStorage.getItem(KEY) ?? '',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer: unknown = await response.json();
  if (!response.ok) throw new Error((answer as Partial<ErrorAnswer>).error || `${response.status} ${response.statusText}`);
  return answer as T;
}
