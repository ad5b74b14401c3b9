import { type Document, isMap, isSeq, type LineCounter, type Node } from 'yaml';
import type { z } from 'zod';
import { ConfigError, type ConfigProblem } from '../../domain/errors/config-error.js';
import { MAX_LISTED_PROBLEMS } from '../../domain/errors/problem-list.js';
import type { Taxonomy, TaxonomyItem } from '../../domain/taxonomy.js';
import { readYamlValues } from '../yaml-values.js';
import { allowedTaxonomyKeysAt, taxonomySchema } from './taxonomy-schema.js';

/** One thing wrong in a taxonomy file: its line (1-based, when known), the key at fault (`techniques[3].id`) and what to do. */
export interface TaxonomyProblem {
  readonly line?: number;
  readonly keyPath?: string;
  readonly detail: string;
}

/** A taxonomy file's text read: the taxonomy, or every problem found, in the order of the file. */
export type TaxonomyParse =
  | { readonly status: 'parsed'; readonly taxonomy: Taxonomy }
  | { readonly status: 'invalid'; readonly problems: readonly TaxonomyProblem[] };

type Path = readonly PropertyKey[];

/** `techniques[3].id`, as a reader finds it in the file. */
function keyPathOf(path: Path): string | undefined {
  if (path.length === 0) return undefined;
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');
}

/** The line of the key (or list item) at `path`, or of the deepest one on it that the file has. */
function lineOf(document: Document, lineCounter: LineCounter, path: Path): number | undefined {
  let node = document.contents as Node | null;
  let offset = node?.range?.[0];
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
      if (!pair) break;
      offset = (pair.key as Node).range?.[0] ?? offset;
      node = pair.value as Node | null;
    } else if (isSeq(node) && typeof key === 'number' && node.items[key]) {
      node = node.items[key] as Node;
      offset = node.range?.[0] ?? offset;
    } else break;
  }
  return offset === undefined ? undefined : lineCounter.linePos(offset).line;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const allowed = allowedTaxonomyKeysAt(issue.path);
    return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}${allowed ? `; allowed: ${allowed.join(', ')}` : ''}`;
  }
  if (issue.code === 'invalid_type' && /received null/.test(issue.message)) return 'has no value: write it after the colon';
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return `is required (${issue.expected === 'array' ? 'a list' : 'text'})`;
  if (issue.code === 'invalid_type' && issue.expected === 'object')
    return issue.path.length === 0 ? 'must be a map with name, techniques and unethical' : 'must be a map with id, name and definition';
  return issue.message;
}

/** Ids repeated anywhere in the two lists, and names repeated (letter case aside): a judge could not tell the two items apart. */
function repeatProblems(taxonomy: Taxonomy, locate: (path: Path) => number | undefined): TaxonomyProblem[] {
  const problems: TaxonomyProblem[] = [];
  const firstOf = new Map<string, Path>();
  const lists = [
    ['techniques', taxonomy.techniques],
    ['unethical', taxonomy.unethical],
  ] as const;
  for (const [list, items] of lists) {
    items.forEach((item: TaxonomyItem, index) => {
      for (const [field, value] of [
        ['id', item.id],
        ['name', item.name.toLowerCase()],
      ] as const) {
        const path = [list, index, field];
        const first = firstOf.get(`${field}:${value}`);
        if (first === undefined) {
          firstOf.set(`${field}:${value}`, path);
          continue;
        }
        const firstLine = locate(first);
        const where = `${keyPathOf(first.slice(0, 2))}${firstLine === undefined ? '' : ` (line ${firstLine})`}`;
        const shown = field === 'id' ? item.id : item.name;
        problems.push({ line: locate(path), keyPath: keyPathOf(path), detail: `"${shown}" is also the ${field} of ${where}: give each item its own ${field}` });
      }
    });
  }
  return problems;
}

const byLine = (a: TaxonomyProblem, b: TaxonomyProblem) => (a.line ?? 0) - (b.line ?? 0);

/**
 * Reads a taxonomy file's text (docs/design/techniques.md): YAML with a `name`, a list of `techniques`
 * and a list of `unethical` strategies, each item `{id, name, definition, examples?, source?}`. Every
 * problem is found (not only the first), each with its line and key; the caller names the file.
 */
export function parseTaxonomy(text: string): TaxonomyParse {
  const read = readYamlValues(text);
  if (read.status === 'invalid') return { status: 'invalid', problems: [{ line: read.line, detail: read.detail }] };
  const locate = (path: Path) => lineOf(read.document, read.lineCounter, path);
  if (read.values === null || read.values === undefined)
    return { status: 'invalid', problems: [{ line: 1, detail: 'the file is empty: give a name, techniques and unethical (see docs/design/techniques.md)' }] };
  const parsed = taxonomySchema.safeParse(read.values);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue): TaxonomyProblem => {
      const at = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
      return { line: locate(at), keyPath: keyPathOf(issue.path), detail: describeIssue(issue) };
    });
    return { status: 'invalid', problems: problems.sort(byLine) };
  }
  const repeats = repeatProblems(parsed.data, locate);
  return repeats.length > 0 ? { status: 'invalid', problems: repeats.sort(byLine) } : { status: 'parsed', taxonomy: parsed.data };
}

/**
 * The error for a taxonomy file's problems (exit 2): `techniques.yaml:14: techniques[3].id: ...`, one
 * line per problem (at most MAX_LISTED_PROBLEMS). Its location fields are the first problem's.
 */
export function taxonomyError(file: string, problems: readonly TaxonomyProblem[]): ConfigError {
  const located = (problem: TaxonomyProblem): ConfigProblem => ({
    file,
    ...(problem.line === undefined ? {} : { line: problem.line }),
    ...(problem.keyPath === undefined ? {} : { keyPath: problem.keyPath }),
    detail: problem.detail,
  });
  const [first = { detail: 'is not a taxonomy' }, ...others] = problems;
  return new ConfigError(located(first), first.detail, { others: others.slice(0, MAX_LISTED_PROBLEMS - 1).map(located), total: problems.length });
}
