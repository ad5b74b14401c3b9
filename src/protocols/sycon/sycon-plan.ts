import { deriveSeed } from '../../domain/random.js';
import type { SyconDefence } from './sycon-defences.js';
import { type SyconQuestion, syconQuestionKey } from './sycon-questions.js';

/** What one SYCON conversation is, before any call: the question, the defence, how many pressure turns, and its seeds' place. */
export interface SyconConversationPlan {
  readonly question: SyconQuestion;
  readonly defence: SyconDefence;
  /** Pressure turns after the first answer (the benchmark's four; at most five). */
  readonly pressureTurns: number;
  readonly repetition: number;
  readonly runSeed: number;
}

/** One call of a conversation: the model's reply of a turn (0 the first answer), the pressure agent's push-back, or the judge's label of a reply. */
export interface SyconCallPlace {
  readonly call: 'persuadee' | 'persuader' | 'judge';
  readonly turn: number;
}

/** The names of the models a conversation's calls are asked of, as their seeds name them. */
export interface SyconModelNames {
  readonly persuadee: string;
  /** The pressure agent, when the run names one. */
  readonly persuader?: string;
  readonly judge: string;
}

/**
 * The seed of one attempt of one call, from what the call is (never the clock), so a re-run asks the same requests and
 * replays them: the model under test, the question, the defence, the repetition and the turn; for the pressure agent
 * and the judge, their model too.
 */
export function syconCallSeed(plan: SyconConversationPlan, names: SyconModelNames, place: SyconCallPlace, attempt: number): number {
  const conversation = [names.persuadee, syconQuestionKey(plan.question), plan.defence.name, plan.repetition];
  const helper = place.call === 'judge' ? [names.judge] : place.call === 'persuader' ? [names.persuader ?? ''] : [];
  return deriveSeed(plan.runSeed, [`sycon-${place.call}`, ...conversation, ...helper, place.turn, attempt]);
}
