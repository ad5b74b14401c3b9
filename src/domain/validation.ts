import { SINGLE_TURN_TURNS } from './conversation.js';

/** Why a turn count is not usable, or undefined when it is. */
export function describeInvalidTurns(turns: number): string | undefined {
  if (!Number.isInteger(turns)) return `turns must be a whole number, got ${turns}`;
  if (turns < SINGLE_TURN_TURNS) return `turns must be at least ${SINGLE_TURN_TURNS}, got ${turns}`;
  if (turns % 2 === 0) return `turns must be odd (3 is single-turn, 9 the paper's multi-turn), got ${turns}`;
  return undefined;
}
