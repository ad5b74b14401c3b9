/*
 * Building blocks of the pages: elements made from text only. A string or number child becomes a
 * text node, never markup, so stored text (a model's `<script>`) stays text; its bidirectional
 * controls are shown as code points, so that a participant's U+202E cannot reorder what a reader sees.
 */
import { visibleBidiControls } from '../wire/shown-text.js';

/** What `el` and `append` take as children: nodes, text, nothing (skipped), or lists of these. */
export type Child = Node | string | number | false | null | undefined | readonly Child[];

/** Attributes by name; `className` sets the class, a function listens (`onClick` to 'click'), false, null and undefined are left out. */
export type Attributes = Readonly<Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>>;

export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

/** Appends children in order, flattening lists. */
export function append(node: ParentNode, children: readonly Child[]): void {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (typeof child === 'string' || typeof child === 'number') node.append(document.createTextNode(visibleBidiControls(String(child))));
    else if (child instanceof Node) node.append(child);
    else append(node, child);
  }
}

/** An HTML element with attributes and children. */
export function el<Tag extends keyof HTMLElementTagNameMap>(tag: Tag, attributes?: Attributes | null, ...children: Child[]): HTMLElementTagNameMap[Tag] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'className') node.className = String(value);
    else if (typeof value === 'function') node.addEventListener(name.slice(2).toLowerCase(), value);
    else node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

/** The value of the input or select an event came from. */
export const inputValue = (event: Event): string => (event.target as HTMLInputElement | HTMLSelectElement).value;
