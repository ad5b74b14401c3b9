import { isPersonAgent, PEOPLE_GROUP } from '../domain/person-agent.js';

/** How models are named in a report: simulated agents always carry the word "simulated". */
export interface ModelLabels {
  /** "sim/weak [simulated]" or the plain name. */
  readonly text: (model: string) => string;
  /** The same on two lines, for chart axes: "sim/weak\n[simulated]". */
  readonly chart: (model: string) => string;
  readonly isSimulated: (model: string) => boolean;
}

/** How the model tables name the pooled people of a study (`person/*`): a group of persons, not a model. */
const PEOPLE_LABEL = 'people (every participant)';

/**
 * Labels from the models a run saw; a `sim/` name counts as simulated even without a flag. A person
 * (`person/<id>`) is never simulated, whatever a record says, and reads "person/p-7f3a2c [person]" (in the
 * conversations the report gives to read); the pooled `person/*` of the model tables reads "people".
 */
export function createModelLabels(models: ReadonlyArray<{ readonly model: string; readonly simulated: boolean }>): ModelLabels {
  const flagged = new Set(models.filter((entry) => entry.simulated).map((entry) => entry.model));
  const isSimulated = (model: string) => !isPersonAgent(model) && (flagged.has(model) || model.startsWith('sim/'));
  const plain = (model: string) => (model === PEOPLE_GROUP ? PEOPLE_LABEL : isPersonAgent(model) ? `${model} [person]` : model);
  return {
    isSimulated,
    text: (model) => (isSimulated(model) ? `${model} [simulated]` : plain(model)),
    chart: (model) => (isSimulated(model) ? `${model}\n[simulated]` : plain(model)),
  };
}
