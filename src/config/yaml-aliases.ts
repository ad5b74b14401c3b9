import { type Alias, type Document, isAlias, isCollection, isNode, isPair, type Node, Scalar, visit } from 'yaml';

/**
 * How many values aliases may stand for in a config, as yaml counts them (its `maxAliasCount`; 100
 * is its default, said here). A config repeats a value a few times; a billion-laughs file (aliases
 * of lists of aliases) stands for billions, which the schema's checks would walk for hours.
 */
export const MAX_ALIAS_COUNT = 100;

/**
 * Anchors and aliases a config may have. yaml resolves each alias by a scan of those before it, so
 * a file of a million aliases (even of an empty list, which the count above lets pass) takes hours.
 */
const MAX_ANCHORS_AND_ALIASES = 1000;

/** An alias (or a key) a config cannot use: where it starts in the text, and what is wrong. */
export interface AliasProblem {
  readonly offset: number;
  readonly detail: string;
}

const offsetOf = (node: Node) => node.range?.[0] ?? 0;

/** What is wrong with an alias, given the anchors before it and the nodes it sits in. */
function aliasDetail(alias: Alias, anchors: ReadonlyMap<string, Node>, path: readonly unknown[]): string | undefined {
  const source = anchors.get(alias.source);
  if (source === undefined) return `*${alias.source} has no anchor &${alias.source} before it: mark the value with &${alias.source} first, or write it out`;
  if (path.includes(source)) return `*${alias.source} is inside the value &${alias.source} marks, which would contain itself: write the value out`;
  return undefined;
}

/**
 * The first alias that names no anchor before it, or sits inside the value its anchor marks (a
 * loop, which would make a value that contains itself), the first key that is a list or a map (a
 * config's keys are names), and the anchor or alias past the thousandth: what turning the document
 * into values would throw on, warn about or be slow on. Anchors are looked up in one pass, in
 * document order, as yaml resolves them (the last before the alias).
 */
export function findAliasProblem(document: Document): AliasProblem | undefined {
  const anchors = new Map<string, Node>();
  let marks = 0;
  let problem: AliasProblem | undefined;
  visit(document, (_key, node, path) => {
    if (isPair(node)) {
      const key = isAlias(node.key) ? anchors.get(node.key.source) : node.key;
      if (isCollection(key) && isNode(node.key))
        problem = { offset: offsetOf(node.key), detail: 'a key must be a name, not a list or a map: write it as plain text' };
      return problem === undefined ? undefined : visit.BREAK;
    }
    if (!isNode(node) || (!isAlias(node) && !node.anchor)) return undefined;
    if (++marks > MAX_ANCHORS_AND_ALIASES)
      problem = { offset: offsetOf(node), detail: `more than ${MAX_ANCHORS_AND_ALIASES} anchors and aliases: a config needs a few; write the values out` };
    else if (isAlias(node)) {
      const detail = aliasDetail(node, anchors, path);
      if (detail !== undefined) problem = { offset: offsetOf(node), detail };
    } else anchors.set(node.anchor!, node);
    return problem === undefined ? undefined : visit.BREAK;
  });
  return problem;
}

/**
 * Whether turning the document into values overflows the alias count with only its first `active`
 * aliases resolved: the others stand in as null for the trial, then are put back (a copy of a large
 * document costs more than the two walks).
 */
function overflowsWith(document: Document, active: number): boolean {
  const standIns = new Map<Scalar, Alias>();
  let seen = 0;
  visit(document, {
    Alias(_key, alias) {
      if (seen++ < active) return undefined;
      const standIn = new Scalar(null);
      standIns.set(standIn, alias);
      return standIn;
    },
  });
  try {
    document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return false;
  } catch (error) {
    // yaml throws a ReferenceError for the count (its aliases' other ReferenceErrors are found before).
    if (error instanceof ReferenceError) return true;
    throw error;
  } finally {
    if (standIns.size > 0) visit(document, { Scalar: (_key, scalar) => standIns.get(scalar) });
  }
}

/**
 * The alias at which yaml found too many alias expansions (it throws without saying where): the
 * first alias that, resolved after all those before it, overflows the count, found by halving.
 * Undefined when the document does not overflow (yaml threw for another reason).
 */
export function findAliasOverflow(document: Document): AliasProblem | undefined {
  const aliases: Alias[] = [];
  visit(document, { Alias: (_key, alias) => void aliases.push(alias) });
  if (!overflowsWith(document, aliases.length)) return undefined;
  // The first `fits` aliases resolve within the count; the first `overflows` do not.
  let fits = 0;
  let overflows = aliases.length;
  while (overflows - fits > 1) {
    const middle = Math.floor((fits + overflows) / 2);
    if (overflowsWith(document, middle)) overflows = middle;
    else fits = middle;
  }
  return {
    offset: offsetOf(aliases[overflows - 1]!),
    detail: `too many alias expansions (a YAML alias bomb?): a config's aliases may stand for ${MAX_ALIAS_COUNT} values; write the values out instead of aliasing lists of aliases`,
  };
}
