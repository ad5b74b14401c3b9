/*
 * A researcher's search of a run's text (pmiyc view, issue 32): the words asked for, read the way the
 * store's full-text index reads text (SQLite FTS5's unicode61 tokenizer with diacritics removed), and
 * where they occur in a stored text, so that the page can mark them.
 */

/** Where a search looks: the claim (and its question), every message, or one role's messages; `all` is the claim and every message. */
export const SEARCH_FIELDS = ['all', 'claim', 'messages', 'persuader', 'persuadee'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * One thing to find: a word, or a phrase (words next to each other, in order), as folded tokens;
 * `prefix` when its last word ends in `*` (finds every word that starts with it).
 */
export interface SearchTerm {
  readonly tokens: readonly string[];
  readonly prefix: boolean;
}

/** A search: every term must occur in one message, or in the claim with its question. */
export interface SearchQuery {
  readonly terms: readonly SearchTerm[];
  readonly field: SearchField;
}

/** The longest query text, and the most terms, one search takes. */
const MAX_SEARCH_LENGTH = 500;
const MAX_TERMS = 16;

// A token is a run of letters, digits and private-use characters (unicode61's default categories); everything else separates tokens.
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
const DIACRITIC = /\p{M}/gu;

/** A token as the index keeps it: diacritics removed, lower case. */
const foldToken = (token: string): string => token.normalize('NFD').replace(DIACRITIC, '').toLowerCase();

/** The tokens of a text with where each starts and ends (UTF-16 offsets into the text). */
function tokensOf(text: string): Array<{ token: string; start: number; end: number }> {
  return [...text.matchAll(TOKEN)].map((match) => ({ token: foldToken(match[0]), start: match.index, end: match.index + match[0].length }));
}

function termOf(text: string, quoted: boolean): SearchTerm | undefined {
  const prefix = !quoted && text.endsWith('*');
  const tokens = tokensOf(text)
    .map((entry) => entry.token)
    .filter((token) => token !== '');
  return tokens.length === 0 ? undefined : { tokens, prefix };
}

/**
 * Reads a user's search text: words separated by spaces, `"several words"` a phrase, a word ending
 * in `*` a prefix. Nothing else is an operator: `AND`, `OR`, `NOT`, `NEAR`, parentheses, `:`, `^`,
 * `-` and an unpaired `"` are plain text (punctuation separates words, as in the index). Throws a
 * RangeError that says what is wrong when nothing is left to search for or the text is too long.
 */
export function parseSearchText(text: string): SearchTerm[] {
  if (text.length > MAX_SEARCH_LENGTH) throw new RangeError(`q is ${text.length} characters long: search for at most ${MAX_SEARCH_LENGTH}`);
  const terms: SearchTerm[] = [];
  // Quoted phrases first (an unpaired quote is left as text); the rest split on white space.
  const pieces = text.split(/("[^"]*")/);
  for (const piece of pieces) {
    if (piece.length >= 2 && piece.startsWith('"') && piece.endsWith('"')) {
      const term = termOf(piece.slice(1, -1), true);
      if (term) terms.push(term);
      continue;
    }
    for (const word of piece.split(/\s+/)) {
      const term = termOf(word, false);
      if (term) terms.push(term);
    }
  }
  if (terms.length === 0) throw new RangeError(`q "${text}" has no word to search for: give letters or digits (a "quoted phrase", a prefix*)`);
  if (terms.length > MAX_TERMS) throw new RangeError(`q has ${terms.length} words or phrases: search for at most ${MAX_TERMS}`);
  return terms;
}

/** Where the terms occur in a text: [start, end) offsets (UTF-16) of each occurrence, in order, not overlapping. */
export function markMatches(text: string, terms: readonly SearchTerm[]): Array<[number, number]> {
  const tokens = tokensOf(text);
  const marks: Array<[number, number]> = [];
  for (let at = 0; at < tokens.length; at += 1) {
    let longest = 0;
    for (const term of terms) {
      const matches = term.tokens.every((wanted, offset) => {
        const token = tokens[at + offset]?.token;
        if (token === undefined) return false;
        return term.prefix && offset === term.tokens.length - 1 ? token.startsWith(wanted) : token === wanted;
      });
      if (matches) longest = Math.max(longest, term.tokens.length);
    }
    if (longest > 0) {
      marks.push([tokens[at]!.start, tokens[at + longest - 1]!.end]);
      at += longest - 1;
    }
  }
  return marks;
}

/** A piece of a text around its first mark, with the marks inside it (offsets into the piece). */
export interface Snippet {
  readonly text: string;
  /** Where the piece starts in the whole text (0: it is the beginning). */
  readonly start: number;
  /** Whether the whole text goes on after the piece. */
  readonly cut: boolean;
  readonly marks: ReadonlyArray<readonly [number, number]>;
}

/** At most `length` characters of `text` around its first mark (the start when none), cut at spaces where it can. */
export function snippetOf(text: string, marks: ReadonlyArray<readonly [number, number]>, length = 240): Snippet {
  const first = marks[0]?.[0] ?? 0;
  let start = Math.max(0, first - Math.floor(length / 3));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space >= 0 && space < first) start = space + 1;
  }
  let end = Math.min(text.length, start + length);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > Math.max(start, marks[0]?.[1] ?? start)) end = space;
  }
  const inside = marks.filter(([from, to]) => from >= start && to <= end).map(([from, to]) => [from - start, to - start] as const);
  return { text: text.slice(start, end), start, cut: end < text.length, marks: inside };
}
