/**
 * How deep the JSON of a model's reply or a server's body may nest. Every answer pmiyc asks for
 * nests a few levels (a provider's body about six, a judge's labels two); a limit far above that
 * costs a real reply nothing and keeps every value read shallow enough for any code that walks it
 * recursively (JSON.stringify among them) to stay far from the stack's end.
 */
export const MAX_JSON_DEPTH = 128;

/** JSON text read: the value, or why it was not read. */
export type JsonReading =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: 'not-json' | 'too-deep'; readonly detail: string };

/**
 * Parses JSON text from outside pmiyc, refusing it (as data, never a throw) when it is not JSON or
 * when its lists and objects nest deeper than `maxDepth`. `JSON.parse` itself reads any depth, but
 * what it returns then breaks the first recursive walk over it: the depth is counted first, in one
 * pass over the text.
 */
export function parseBoundedJson(text: string, maxDepth = MAX_JSON_DEPTH): JsonReading {
  if (nestsBeyond(text, maxDepth)) return { ok: false, problem: 'too-deep', detail: `its lists and objects nest more than ${maxDepth} deep` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, problem: 'not-json', detail: 'it is not JSON' };
  }
}

/**
 * Whether `text`'s lists and objects nest deeper than `limit` outside its strings. Text with at most
 * `limit` opening brackets and braces in all cannot, and nearly every reply is such text: those are
 * counted first with the engine's own search (a model's reply is read on every call, and a scan of
 * its every character in JavaScript cost more than parsing it), and only text with more is scanned.
 */
export function nestsBeyond(text: string, limit: number): boolean {
  let openings = 0;
  for (const opening of ['[', '{']) {
    for (let at = text.indexOf(opening); at !== -1; at = text.indexOf(opening, at + 1)) {
      openings++;
      if (openings > limit) return jsonDepthBeyond(text, limit) > limit;
    }
  }
  return false;
}

/**
 * The deepest nesting of brackets and braces in `text` outside its strings, counting stops at
 * `limit + 1`. Text that is not JSON is counted as far as it goes (JSON.parse then refuses it).
 */
export function jsonDepthBeyond(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}
