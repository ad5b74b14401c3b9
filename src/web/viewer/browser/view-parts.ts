import { type Child, el } from '../../browser/dom.js';
import type { ViewRun } from '../../wire/view-answers.js';

/** A query of a viewer link: empty values are left out. */
export type RouteQuery = Readonly<Record<string, string | number | null | undefined>> | null;

/** Only ever a link inside the viewer: '#/' and encoded parts. */
export function route(parts: ReadonlyArray<string | number>, query?: RouteQuery): string {
  const path = `#/${parts.map((part) => encodeURIComponent(String(part))).join('/')}`;
  const search = query
    ? new URLSearchParams(
        Object.entries(query)
          .filter(([, value]) => value !== undefined && value !== null && value !== '')
          .map(([name, value]) => [name, String(value)]),
      ).toString()
    : '';
  return search ? `${path}?${search}` : path;
}

export const link = (parts: ReadonlyArray<string | number>, query: RouteQuery, ...text: Child[]) => el('a', { href: route(parts, query) }, ...text);
export const td = (content: Child, className?: string) => el('td', { className }, content);
export const numberCell = (content: Child) => el('td', { className: 'number' }, content);

export function table(headers: readonly Child[], bodyRows: readonly Child[], className?: string): HTMLTableElement {
  return el(
    'table',
    { className },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        headers.map((header) => el('th', {}, header)),
      ),
    ),
    el('tbody', {}, bodyRows),
  );
}

/** Red below zero, blue above, white at zero; NC lies in [-1, 1]. */
export function paint<T extends HTMLElement>(node: T, value: number | null | undefined): T {
  if (value === null || value === undefined) return node;
  const strength = Math.min(1, Math.abs(value));
  const [r, g, b] = value < 0 ? [178, 24, 43] : [33, 102, 172];
  node.style.backgroundColor = `rgba(${r},${g},${b},${(0.1 + 0.6 * strength).toFixed(2)})`;
  return node;
}

export const badge = (text: string, kind?: string) => el('span', { className: `badge ${kind || ''}` }, text);

export function statusBadge(run: ViewRun): HTMLElement {
  if (run.live) return badge('live', 'live');
  return badge(run.statusText || (run.why ? `${run.status} (${run.why})` : run.status), run.status);
}
