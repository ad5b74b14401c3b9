import { AGREEMENT_LABELS, AGREEMENT_SCORES } from '../../../domain/agreement-score.js';

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A reply's JSON Schema as node-llama-cpp's JSON-schema grammar reads it: `anyOf` is written
 * `oneOf` there, and a list of distinct items from an enum (`uniqueItems`, which no grammar can
 * say) gets `maxItems` of the enum's size, so that a model repeating itself stops within its
 * output limit. The reply is still read strictly (a repeated item is refused there). Keywords the
 * grammar does not know are left as they are; it ignores them. The input is not changed.
 */
export function grammarJsonSchema(schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if ((keyword === 'properties' || keyword === '$defs') && isRecord(value)) {
      copy[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isRecord(sub) ? grammarJsonSchema(sub) : sub]));
    } else if ((keyword === 'items' || keyword === 'additionalProperties') && isRecord(value)) {
      copy[keyword] = grammarJsonSchema(value);
    } else if ((keyword === 'anyOf' || keyword === 'oneOf') && Array.isArray(value)) {
      copy['oneOf'] = value.map((sub) => (isRecord(sub) ? grammarJsonSchema(sub) : sub));
    } else {
      copy[keyword] = value;
    }
  }
  const items = schema['items'];
  if (schema['uniqueItems'] === true && schema['maxItems'] === undefined && isRecord(items) && Array.isArray(items['enum'])) {
    copy['maxItems'] = items['enum'].length;
  }
  return copy;
}
