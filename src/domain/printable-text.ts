/*
 * Terminal control sequences, as ECMA-48 defines them, each removed whole so that no half of one
 * (a "]0;title" or a "[2J") is left behind:
 * - a string command (OSC `ESC ]`, DCS `ESC P`, SOS `ESC X`, PM `ESC ^`, APC `ESC _`, or their 8-bit
 *   forms U+009D, U+0090, U+0098, U+009E, U+009F) up to its terminator (BEL, `ESC \` or U+009C), or to
 *   the next ESC or the end of the text when it has none: a terminal would swallow that much too;
 * - a CSI sequence (`ESC [` or U+009B), its parameter and intermediate bytes and its final byte;
 * - any other escape: ESC, intermediate bytes, one final byte.
 *
 * (Each holds control characters, which is the point: hence the lint rule switched off for each.)
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences
const STRING_COMMAND = /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences
const CONTROL_SEQUENCE = /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences
const OTHER_ESCAPE = /\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;
/** C0 but tab and line feed, DEL, C1: what is left of control characters once the sequences are gone. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `text` with every terminal escape sequence and control character removed, tab and line feed
 * kept: what may be printed to a terminal or shown on a page when the text came from elsewhere (a
 * server's error message, a model's reply). A carriage return goes too, so that no text can
 * overwrite the line it is on. Text without any is returned as it is.
 */
export function printableText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the quick test for text that needs nothing done
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)) return text;
  return text.replace(STRING_COMMAND, '').replace(CONTROL_SEQUENCE, '').replace(OTHER_ESCAPE, '').replace(CONTROL_CHARACTER, '');
}

/**
 * Unicode's bidirectional controls (the Bidi_Control property): the embeddings and overrides U+202A-U+202E
 * (U+202E, RIGHT-TO-LEFT OVERRIDE, shows "abc" as "cba"), the isolates U+2066-U+2069, and the marks U+200E,
 * U+200F and U+061C. Text from a participant or a model that holds them can make a reader see its words in
 * another order than they were written.
 */
const BIDI_CONTROL = /\p{Bidi_Control}/gu;

/**
 * `text` with each bidirectional control shown as its code point (`[U+202E]`), so that it reorders nothing
 * and the reader sees that it was there. Arabic and Hebrew read in their own direction without any; a mark
 * a writer used to place punctuation is shown too, the price of an order the reader can trust. Text
 * without any is returned as it is.
 */
export function visibleBidiControls(text: string): string {
  return text.replace(BIDI_CONTROL, (control) => `[U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

/**
 * What a reader is shown of text from elsewhere (a participant's or a model's words, in a report, a
 * terminal or a page): printable (`printableText`) and in the order it was written (`visibleBidiControls`).
 */
export function shownText(text: string): string {
  return visibleBidiControls(printableText(text));
}
