import { SINGLE_TURN_TURNS } from './conversation.js';

/** Why a turn count is not usable, or undefined when it is. */
export function describeInvalidTurns(turns: number): string | undefined {
  if (!Number.isInteger(turns)) return `turns must be a whole number, got ${turns}`;
  if (turns < SINGLE_TURN_TURNS) return `turns must be at least ${SINGLE_TURN_TURNS}, got ${turns}`;
  if (turns % 2 === 0) return `turns must be odd (3 is single-turn, 9 the paper's multi-turn), got ${turns}`;
  return undefined;
}

/** The longest run or study name accepted. */
const MAX_RUN_NAME_LENGTH = 64;

const RUN_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Why a run (or study) name is not usable, or undefined when it is. A name is a letter or digit
 * (ASCII), then letters, digits, `.`, `_` or `-`, at most 64 characters: it is typed in resume
 * commands and joined with commas in `report --run a,b`, so it may hold no separator, space,
 * line break or path step (`.`, `..`).
 */
export function describeInvalidRunName(name: string): string | undefined {
  const rule = `a run name must start with a letter or digit and hold only letters, digits, ".", "_" and "-", at most ${MAX_RUN_NAME_LENGTH} characters`;
  if (name.length > MAX_RUN_NAME_LENGTH) return `${rule}; got ${name.length} characters`;
  if (!RUN_NAME_PATTERN.test(name)) return `${rule}; got ${JSON.stringify(name)}`;
  return undefined;
}
