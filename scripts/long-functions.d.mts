/** The functions of src/ (tests left out) longer than `mostLines`, longest first (scripts/long-functions.mjs). */
export function longFunctions(mostLines: number): { file: string; name: string; line: number; lines: number }[];
