/** Edits beyond which a name is no longer a likely typo of another. */
const MAX_EDITS = 3;

/**
 * Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`: the optimal string
 * alignment distance, the measure commander uses for its "Did you mean --models?". Stops early with
 * a value above MAX_EDITS when the lengths alone say it is more.
 */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_EDITS) return MAX_EDITS + 1;
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i]!;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The name among `names` that `typed` most likely meant, for a "did you mean ...?": one that differs
 * only in case (`baseUrl` for `baseURL`), else the nearest within three edits that keeps most of
 * the word (as commander suggests flags). Undefined when none is near, or when two are equally near.
 */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  const sameLetters = names.filter((name) => name.toLowerCase() === typed.toLowerCase() && name !== typed);
  if (sameLetters.length === 1) return sameLetters[0];
  let best: string[] = [];
  let bestEdits = MAX_EDITS + 1;
  for (const name of names) {
    if (name === typed || name.length <= 1) continue;
    const edits = editDistance(typed.toLowerCase(), name.toLowerCase());
    const length = Math.max(typed.length, name.length);
    if (edits > MAX_EDITS || (length - edits) / length <= 0.4) continue;
    if (edits < bestEdits) [best, bestEdits] = [[name], edits];
    else if (edits === bestEdits) best.push(name);
  }
  return best.length === 1 ? best[0] : undefined;
}
