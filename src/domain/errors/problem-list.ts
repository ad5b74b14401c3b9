/** Problems of one file listed at most: enough to fix a file in one pass, never a screenful of the same mistake. */
export const MAX_LISTED_PROBLEMS = 20;

/**
 * The message of a file's problems, each already located (`claims.csv:4: the claim is empty`): one
 * line each, as a compiler lists them, up to MAX_LISTED_PROBLEMS, then `claims.csv: and 5 more
 * problems` when `total` says there are more. A single problem is its own line.
 */
export function problemListMessage(file: string, located: readonly string[], total = located.length): string {
  const listed = located.slice(0, MAX_LISTED_PROBLEMS);
  const more = total > listed.length ? [`${file}: and ${total - listed.length} more problems`] : [];
  return [...listed, ...more].join('\n');
}
