import { SINGLE_TURN_TURNS } from './conversation.js';

/** Why a turn count is not usable, or undefined when it is. */
export function describeInvalidTurns(turns: number): string | undefined {
  if (!Number.isInteger(turns)) return `turns must be a whole number, got ${turns}`;
  if (turns < SINGLE_TURN_TURNS) return `turns must be at least ${SINGLE_TURN_TURNS}, got ${turns}`;
  if (turns % 2 === 0) return `turns must be odd (3 is single-turn, 9 the paper's multi-turn), got ${turns}`;
  return undefined;
}

/**
 * The confidence levels a sequential run accepts (`--confidence`, `experiment.sequential.confidence`).
 * Below 0.5 its intervals would miss more often than they hold: a level such as 1e-300 promises
 * nothing, yet the run stops early as "settled" and reports its intervals (a simulated run stopped
 * after 110 of 200 claims, against 190 at 0.95). Above 0.999999 (alpha 1e-6, split again over the
 * quantities) is a typo rather than a design: no run has the claims to settle it.
 */
export const CONFIDENCE_RANGE = { min: 0.5, max: 0.999999 } as const;

/** What a confidence level must be, for messages. */
export const CONFIDENCE_RULE = `a number from ${CONFIDENCE_RANGE.min} to ${CONFIDENCE_RANGE.max} (the chance that all intervals hold together, e.g. 0.95)`;

/** Why a confidence level is not usable (`given` as the user wrote it), or undefined when it is. */
export function describeInvalidConfidence(confidence: number, given = String(confidence)): string | undefined {
  if (Number.isFinite(confidence) && confidence >= CONFIDENCE_RANGE.min && confidence <= CONFIDENCE_RANGE.max) return undefined;
  return `--confidence must be ${CONFIDENCE_RULE}, got ${given}`;
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
