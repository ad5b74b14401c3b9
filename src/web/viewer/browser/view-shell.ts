import { append, byId, type Child } from '../../browser/dom.js';
import type { ErrorAnswer } from '../../wire/view-answers.js';
import { bundleAnswer, bundleInfo } from './bundle-source.js';

/*
 * What every page of the viewer shares: the API, the crumbs, the view, the error box, the rows
 * that j/k move over, the refresh of a live run, and which route is current (an answer for a page
 * the reader has left is dropped).
 */

let refreshTimer = 0;
let routeNumber = 0;
let rows: HTMLElement[] = [];
let selected = -1;

/** A GET of the JSON API (in a static bundle, its files: bundle-source.ts); an error answer becomes an Error with its message. */
export async function api<T>(path: string): Promise<T> {
  const bundle = bundleInfo();
  if (bundle) return bundleAnswer<T>(path, bundle);
  const response = await fetch(`/api/${path}`, { headers: { accept: 'application/json' } });
  const body: unknown = await response.json();
  if (!response.ok) throw new Error((body as Partial<ErrorAnswer>).error || `${response.status} ${response.statusText}`);
  return body as T;
}

/** Starts a new route: the number a page checks with `isCurrent` after each wait. */
export function nextRoute(): number {
  routeNumber += 1;
  clearTimeout(refreshTimer);
  return routeNumber;
}

export const isCurrent = (route: number): boolean => route === routeNumber;

export function showError(error: unknown): void {
  const box = byId('error');
  box.hidden = !error;
  box.textContent = error ? String((error as Error).message || error) : '';
}

export function crumbs(...items: Child[]): void {
  const nav = byId('crumbs');
  nav.replaceChildren();
  items.forEach((item, index) => {
    append(nav, [index > 0 ? ' / ' : '', item]);
  });
}

export function show(...children: Child[]): void {
  const view = byId('view');
  view.replaceChildren();
  append(view, children);
}

/** Rows that j/k move over and Enter opens: each a table row with a link. */
export function selectable(list: HTMLElement[]): void {
  rows = list;
  selected = rows.length > 0 ? 0 : -1;
  mark();
}

function mark(): void {
  rows.forEach((row, index) => {
    row.classList.toggle('selected', index === selected);
  });
  rows[selected]?.scrollIntoView({ block: 'nearest' });
}

/** Moves the highlight one row down (1) or up (-1); false when there are no rows. */
export function moveSelection(step: 1 | -1): boolean {
  if (rows.length === 0) return false;
  selected = step > 0 ? Math.min(rows.length - 1, selected + 1) : Math.max(0, selected - 1);
  mark();
  return true;
}

/** The link of the highlighted row, if any. */
export const selectedLink = (): string | null => rows[selected]?.querySelector('a')?.getAttribute('href') ?? null;

/** While a run is live, its page is drawn again every 3 s. */
export function refreshWhileLive(live: boolean, again: () => unknown): void {
  clearTimeout(refreshTimer);
  if (live) refreshTimer = setTimeout(again, 3000);
}
