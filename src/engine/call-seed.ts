import { claimKey } from '../domain/claim.js';
import type { ConversationSpec } from '../domain/conversation.js';
import { deriveSeed } from '../domain/random.js';

/**
 * The seed of one call, from what the call *is* (SPEC 6):
 * - the opening from (persuadee, claim): shared by every persuader, setting and repetition;
 * - the first argument from (persuader, persuadee, claim, repetition): shared by both settings;
 * - later turns also from the planned turn count and the turn index;
 * - a re-sample also from its attempt number.
 * Shared calls are therefore literally the same request, and a re-run asks the same questions.
 */
export function callSeed(spec: ConversationSpec, turnIndex: number, attempt: number): number {
  const claim = claimKey(spec.claim);
  if (turnIndex === 1) return deriveSeed(spec.runSeed, ['opening', spec.persuadeeModel, claim, attempt]);
  if (turnIndex === 2) {
    return deriveSeed(spec.runSeed, ['argument', spec.persuaderModel, spec.persuadeeModel, claim, spec.repetition, attempt]);
  }
  return deriveSeed(spec.runSeed, ['turn', spec.persuaderModel, spec.persuadeeModel, claim, spec.repetition, spec.turns, turnIndex, attempt]);
}
