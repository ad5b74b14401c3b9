/**
 * Compares strings by Unicode code point, as Python's `sorted` does (the published claim order).
 * JavaScript's default sort compares UTF-16 code units, which differs for characters beyond the
 * Basic Multilingual Plane.
 */
export function compareByCodePoint(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const difference = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
}
