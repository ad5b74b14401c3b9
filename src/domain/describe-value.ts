/** How many characters of a value's start `describeValue` shows unless told. */
const PREFIX_CHARACTERS = 40;

/**
 * A short account of a value that came from outside (a model's reply, a server's body) for a
 * problem's message: what kind of value it is and how it starts, as JSON, at most `maxCharacters`
 * of it ("a list [[[[[[…", "the string \"mind-contr…\"", "the number 3", "null").
 *
 * The value is never serialised whole: `JSON.stringify` and `String` of a list nested 100,000 deep
 * overflow the stack, and of a list of ten million items build a string that size. Here each level
 * of nesting and each item writes at least one character before the next is looked at, and the
 * walk stops when the budget is spent, so the depth reached and the work done are both bounded by
 * `maxCharacters`, whatever the value holds.
 */
export function describeValue(value: unknown, maxCharacters = PREFIX_CHARACTERS): string {
  const kind = kindOf(value);
  const prefix = jsonPrefix(value, maxCharacters);
  return kind === '' ? prefix : `${kind} ${prefix}`;
}

/** The start of `value`'s JSON, at most `maxCharacters` and "…" when cut, bounded as `describeValue` is. */
export function jsonPrefix(value: unknown, maxCharacters = PREFIX_CHARACTERS): string {
  const out = { text: '' };
  writePrefix(value, out, maxCharacters);
  return out.text.length > maxCharacters ? `${out.text.slice(0, maxCharacters)}…` : out.text;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'an object';
  if (typeof value === 'string') return 'the string';
  if (typeof value === 'number') return 'the number';
  // true, false, null and what JSON never holds (undefined, a function) say what they are themselves.
  return '';
}

/** Appends the JSON of `value` to `out.text`, stopping once it holds more than `max` characters. */
function writePrefix(value: unknown, out: { text: string }, max: number): void {
  if (out.text.length > max) return;
  if (Array.isArray(value)) {
    out.text += '[';
    for (let index = 0; index < value.length && out.text.length <= max; index++) {
      if (index > 0) out.text += ',';
      writePrefix(value[index], out, max);
    }
    out.text += ']';
  } else if (typeof value === 'object' && value !== null) {
    out.text += '{';
    let first = true;
    for (const key in value) {
      if (out.text.length > max) break;
      if (!Object.hasOwn(value, key)) continue;
      out.text += `${first ? '' : ','}${JSON.stringify(key.slice(0, max + 1))}:`;
      first = false;
      writePrefix((value as Record<string, unknown>)[key], out, max);
    }
    out.text += '}';
  } else if (typeof value === 'string') out.text += JSON.stringify(value.slice(0, max + 1));
  else if (typeof value === 'number' || typeof value === 'boolean' || value === null) out.text += String(value);
  else out.text += typeof value;
}
