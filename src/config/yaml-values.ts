import { type Document, LineCounter, parseDocument } from 'yaml';
import { findAliasOverflow, findAliasProblem, MAX_ALIAS_COUNT } from './yaml-aliases.js';

/** A YAML text as values with the document they came from (to find a key's line), or why it is not one. */
export type YamlValues =
  | { readonly status: 'parsed'; readonly document: Document; readonly lineCounter: LineCounter; readonly values: unknown }
  /** `detail` says what is wrong, without the file; `line` is 1-based. */
  | { readonly status: 'invalid'; readonly line: number; readonly detail: string; readonly cause?: unknown };

/**
 * Reads a hand-written YAML file's text (a config, a taxonomy) into values: not valid YAML, an alias
 * problem (`findAliasProblem`) and an alias bomb are answered with the line, before any value is made.
 */
export function readYamlValues(text: string): YamlValues {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const firstError = document.errors[0];
  if (firstError)
    return { status: 'invalid', line: lineCounter.linePos(firstError.pos[0]).line, detail: `not valid YAML (${firstError.message.split('\n')[0]})` };
  const problem = findAliasProblem(document);
  if (problem) return { status: 'invalid', line: lineCounter.linePos(problem.offset).line, detail: problem.detail };
  try {
    return { status: 'parsed', document, lineCounter, values: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    const overflow = findAliasOverflow(document);
    if (!overflow) throw error;
    return { status: 'invalid', line: lineCounter.linePos(overflow.offset).line, detail: overflow.detail, cause: error };
  }
}
