import type { Claim } from '../../domain/claim.js';
import type { ConversationSpec } from '../../domain/conversation.js';
import { personAgentName } from '../../domain/person-agent.js';
import type { Sampling } from '../design-parts.js';
import type { PersonRole } from './people-results.js';

/** What a people study is: who the person plays against, on which claims, in how many turns. Stored with the run. */
export interface PeopleDesign {
  readonly role: PersonRole;
  /** The model on the other side (`--opponent`). */
  readonly opponent: string;
  readonly claims: readonly Claim[];
  readonly turns: number;
  readonly sampling: Sampling;
  readonly runSeed: number;
}

/**
 * The claim of the participant invited `order`-th (from 0): the claims in turn, so that each claim has
 * as many participants as any other, give or take one, whatever the number who come.
 */
export function claimOfParticipant(claims: readonly Claim[], order: number): Claim {
  if (claims.length === 0) throw new RangeError('a people study needs at least one claim');
  return claims[order % claims.length]!;
}

/** The conversation a participant has: the person on their side, the opponent on the other, one repetition. */
export function participantSpec(design: PeopleDesign, participantId: string, claim: Claim): ConversationSpec {
  return peopleSideSpec(design, personAgentName(participantId), claim);
}

/**
 * A conversation of the study on `claim`: `agent` on the people's side (a person, or a `--compare` model
 * in their place), the opponent on the other, one repetition.
 */
export function peopleSideSpec(design: PeopleDesign, agent: string, claim: Claim): ConversationSpec {
  return {
    claim,
    persuaderModel: design.role === 'persuader' ? agent : design.opponent,
    persuadeeModel: design.role === 'persuadee' ? agent : design.opponent,
    turns: design.turns,
    repetition: 0,
    runSeed: design.runSeed,
  };
}
