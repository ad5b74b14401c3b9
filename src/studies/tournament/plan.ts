import type { Claim } from '../../domain/claim.js';
import { type ConversationSpec, MULTI_TURN_TURNS, type Setting, SINGLE_TURN_TURNS } from '../../domain/conversation.js';
import { conversationId } from '../../domain/conversation-record.js';
import type { VariantBook } from './agents.js';

export interface TournamentDesign {
  readonly persuaders: readonly string[];
  readonly persuadees: readonly string[];
  readonly claims: readonly Claim[];
  readonly settings: readonly Setting[];
  /** Turns of a multi-turn conversation (odd, > 3); 9 as in the paper. */
  readonly multiTurns?: number;
  /** Independent repetitions of every conversation (the paper ran one). */
  readonly repetitions?: number;
  readonly runSeed: number;
  /** The prompt variants the agents use: which requests two agents share follows from them (`seedNamesOf`). */
  readonly variants?: VariantBook;
  /** Each completed conversation's persuader is asked the drift probe after it: one more call each. */
  readonly probeDrift?: boolean;
  /** `--until settled`: claims run in waves of `wave` until every quantity is settled (the plan is still the full design). */
  readonly sequential?: { readonly confidence: number; readonly precision?: number; readonly wave: number };
}

export interface PlannedConversation {
  readonly id: string;
  readonly setting: Setting;
  readonly spec: ConversationSpec;
}

/**
 * Expands a tournament design into its conversations: every persuader x persuadee (self-play
 * included) x claim x setting x repetition. Pure: the plan is data that a dry run, progress
 * totals and the scheduler all read.
 */
export function planTournament(design: TournamentDesign): PlannedConversation[] {
  return [...iteratePlan(design)];
}

/** The plan one conversation at a time, for runs too big to hold as a list. Same order as planTournament. */
export function* iteratePlan(design: TournamentDesign): Generator<PlannedConversation> {
  const repetitions = design.repetitions ?? 1;
  const turnsOf = (setting: Setting) => (setting === 'single' ? SINGLE_TURN_TURNS : (design.multiTurns ?? MULTI_TURN_TURNS));
  // Longest conversations first, so that the end of a run is not a tail of long sequential
  // conversations; single-turn ones then mostly replay their shared prefix from the store.
  const settings = [...design.settings].sort((a, b) => turnsOf(b) - turnsOf(a));
  for (const setting of settings) {
    for (const claim of design.claims) {
      for (const persuadeeModel of design.persuadees) {
        for (const persuaderModel of design.persuaders) {
          for (let repetition = 0; repetition < repetitions; repetition++) {
            const spec: ConversationSpec = { claim, persuaderModel, persuadeeModel, turns: turnsOf(setting), repetition, runSeed: design.runSeed };
            yield { id: conversationId(spec), setting, spec };
          }
        }
      }
    }
  }
}

/** How many conversations a design has, without expanding it. */
export function countPlan(design: TournamentDesign): number {
  return design.claims.length * design.persuadees.length * design.persuaders.length * (design.repetitions ?? 1) * design.settings.length;
}
