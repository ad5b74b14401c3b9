/*
 * The pages' copy of `visibleBidiControls` (src/domain/printable-text.ts: the pages take no value from
 * outside src/web/browser; src/web/bidi-text.test.ts checks that both show every character alike).
 */

const BIDI_CONTROL = /\p{Bidi_Control}/gu;

/** `text` with each bidirectional control (U+202E and the others) shown as its code point, `[U+202E]`: it reorders nothing on the page. */
export function visibleBidiControls(text: string): string {
  return text.replace(BIDI_CONTROL, (control) => `[U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}
