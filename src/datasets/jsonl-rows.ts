/** One non-blank line of a JSON lines file: its 1-based line number and its value. */
export interface NumberedRow {
  readonly line: number;
  readonly value: unknown;
  /** Why the line is no row at all (not JSON). */
  readonly problem?: string;
}

/** The rows of a JSON lines file, blank lines skipped; a line that is not JSON is a row whose problem is said. */
export function jsonlRows(content: string): NumberedRow[] {
  return content.split('\n').flatMap((text, position) => {
    if (text.trim() === '') return [];
    try {
      return [{ line: position + 1, value: JSON.parse(text) as unknown }];
    } catch (error) {
      return [{ line: position + 1, value: undefined, problem: `not valid JSON (${(error as Error).message})` }];
    }
  });
}
