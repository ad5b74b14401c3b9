import { shownText } from '../../domain/printable-text.js';
/**
 * HTML built by a tagged template that escapes every interpolated value unless it is already
 * `SafeHtml`. Model text, claims and model names can therefore never become markup: escaping is
 * the default, and only our own fragments (and Vega's SVG, which escapes its text) are trusted.
 */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for use in element content and in quoted attribute values. Terminal escape sequences
 * and control characters (a participant's or a model's text may hold them) are removed first: a
 * page read as text, with `cat` or `less -r`, must not drive the terminal. Bidirectional controls are
 * shown as their code points, so that no text reads in another order than it was written.
 */
export function escapeHtml(text: string): string {
  return shownText(text).replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** `html\`<td>${text}</td>\`` with `text` escaped; arrays are joined; null, undefined and false vanish. */
export function html(strings: TemplateStringsArray, ...values: readonly Interpolation[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, position) => {
    out += render(value) + strings[position + 1]!;
  });
  return new SafeHtml(out);
}

/** Marks markup we produced ourselves as safe. Never pass model or user text here. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
