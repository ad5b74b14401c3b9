import { AGREEMENT_LABELS, AGREEMENT_SCORES } from '../../domain/agreement-score.js';

/** The message bound used unless a model is configured otherwise: a few sentences. */
export const DEFAULT_MAX_MESSAGE_CHARS = 600;

/** Escapes text for a double-quoted GBNF string literal. */
function gbnfLiteral(text: string): string {
  return `"${text.replace(/[\\"]/g, (character) => `\\${character}`).replace(/\n/g, '\\n')}"`;
}

/**
 * A GBNF grammar (llama.cpp's constrained-sampling format) that admits exactly one reply in
 * the tagged wire format (SPEC 1.2):
 * `<message>TEXT</message>\n<support_ranking>LABEL</support_ranking>`.
 *
 * TEXT has 1..`maxMessageChars` characters, never contains `<` (so it cannot open or close a
 * tag) and starts with a non-space character (so the parser never sees an empty message).
 * LABEL is one of the five agreement labels, written exactly. A model that cannot follow
 * instructions still produces a parseable reply under this grammar, provided its output-token
 * limit leaves room for the whole reply.
 *
 * @throws RangeError when `maxMessageChars` is not an integer >= 1.
 */
export function buildReplyGrammar(maxMessageChars: number = DEFAULT_MAX_MESSAGE_CHARS): string {
  if (!Number.isInteger(maxMessageChars) || maxMessageChars < 1) {
    throw new RangeError(`maxMessageChars must be an integer >= 1, got ${maxMessageChars}`);
  }
  const labels = AGREEMENT_SCORES.map((score) => gbnfLiteral(AGREEMENT_LABELS[score])).join(' | ');
  // The first character is separate so that a reply of spaces alone cannot match.
  const rest = maxMessageChars > 1 ? ` [^<]{0,${maxMessageChars - 1}}` : '';
  return [
    `root ::= ${gbnfLiteral('<message>')} message ${gbnfLiteral('</message>\n<support_ranking>')} label ${gbnfLiteral('</support_ranking>')}`,
    `message ::= [^< \\t\\n\\r]${rest}`,
    `label ::= ${labels}`,
  ].join('\n');
}
