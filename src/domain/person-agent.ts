/**
 * People in a study (issue 31) take part as agents named `person/<pseudonymous id>`. A person is
 * not a model: no provider, no price, never simulated. A config alias cannot contain "/", so no
 * model can be named like a person.
 */
const PERSON_PREFIX = 'person/';

/**
 * The name under which the report's model tables pool every person (one row, one column), so that 80
 * participants are one group "people", not 80 models. No agent can be named so: an alias has no "/"
 * and a person's id no "*".
 */
export const PEOPLE_GROUP = 'person/*';

/** The agent a participant is in a run's conversations: `person/<id>` (never a name, an address or a link's token). */
export function personAgentName(participantId: string): string {
  return `${PERSON_PREFIX}${participantId}`;
}

/** Whether an agent name is a person of a people study (`person/<id>`), or the pooled group of them. */
export function isPersonAgent(agent: string): boolean {
  return agent.startsWith(PERSON_PREFIX);
}

/** The agent as the model tables count it: every person is the group `PEOPLE_GROUP`; a model is itself. */
export function pooledAgent(agent: string): string {
  return isPersonAgent(agent) ? PEOPLE_GROUP : agent;
}
