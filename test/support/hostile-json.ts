import fc from 'fast-check';

/**
 * JSON built to break a reader rather than to be read: nested far past anything asked for (100,000
 * lists deep parses, and then overflows the stack of any recursive walk over it: JSON.stringify,
 * String), lists and objects of a great many items, and huge strings. As text, so that a test can put
 * it where a reply or a body would hold a value.
 */
export function nestedJson(depth: number, shape: 'list' | 'object' | 'mixed'): string {
  if (shape === 'list') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
  if (shape === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const half = Math.floor(depth / 2);
  return `${'[{"a":'.repeat(half)}[]${'}]'.repeat(half)}`;
}

const deepJson = fc
  .record({ depth: fc.integer({ min: 10_000, max: 120_000 }), shape: fc.constantFrom<'list' | 'object' | 'mixed'>('list', 'object', 'mixed') })
  .map(({ depth, shape }) => nestedJson(depth, shape));

const wideJson = fc.oneof(
  fc.integer({ min: 10_000, max: 200_000 }).map((items) => `[${'1,'.repeat(items)}1]`),
  fc.integer({ min: 10_000, max: 100_000 }).map((items) => `[${'"logos",'.repeat(items)}"logos"]`),
  fc.integer({ min: 10_000, max: 50_000 }).map((keys) => `{${Array.from({ length: keys }, (_, index) => `"k${index}":0`).join(',')}}`),
);

const hugeJsonString = fc.integer({ min: 100_000, max: 1_000_000 }).map((length) => `"${'x'.repeat(length)}"`);

/** A deep, a wide and a huge JSON value, as text: one of each, so that every run tries all three. */
export const hostileJson = fc.tuple(deepJson, wideJson, hugeJsonString);

const MARK = '\u0000hostile\u0000';

/**
 * The JSON text of `shape` once for each of its values (at every depth, the whole included) with that
 * value replaced by `value`'s text: every place a reader could meet it.
 */
export function everyPlaceIn(shape: unknown, value: string): string[] {
  const marked = JSON.stringify(MARK);
  return pathsOf(shape).map((path) => JSON.stringify(replaceAt(shape, path, MARK)).replace(marked, () => value));
}

type Path = ReadonlyArray<string | number>;

function pathsOf(value: unknown, path: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [path];
  const children = Array.isArray(value)
    ? value.map((item, index) => pathsOf(item, [...path, index]))
    : Object.entries(value).map(([key, item]) => pathsOf(item, [...path, key]));
  return [path, ...children.flat()];
}

function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? replaceAt(item, rest, replacement) : item));
  return Object.fromEntries(Object.entries(value as object).map(([key, item]) => [key, key === head ? replaceAt(item, rest, replacement) : item]));
}
