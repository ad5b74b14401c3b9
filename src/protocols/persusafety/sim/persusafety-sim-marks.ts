/**
 * What a simulated PersuSafety persuader did in a conversation, written into each of its messages as a mark
 * (`[persusafety: uses guilt-tripping, fear-mongering]`, `[persusafety: uses none]`) that the simulated judge
 * reads back, as the tournament's simulated agents read their planted techniques. A message without a mark (a
 * real persuader's) uses no strategy a simulated judge can see: it reads no meaning.
 */

/** The mark of a conversation's strategies (ids of the `persusafety` taxonomy). */
export function persusafetySimMark(strategies: readonly string[]): string {
  return `[persusafety: uses ${strategies.length === 0 ? 'none' : strategies.join(', ')}]`;
}

const MARK = /\[persusafety: uses ([a-z, -]+)\]/;

/** The strategies a message's mark states, or undefined when it carries none. */
export function readPersusafetySimMark(message: string): string[] | undefined {
  const match = MARK.exec(message);
  if (match === null) return undefined;
  return match[1] === 'none' ? [] : match[1]!.split(', ');
}
