/** How models are named in a report: simulated agents always carry the word "simulated". */
export interface ModelLabels {
  /** "sim/weak [simulated]" or the plain name. */
  readonly text: (model: string) => string;
  /** The same on two lines, for chart axes: "sim/weak\n[simulated]". */
  readonly chart: (model: string) => string;
  readonly isSimulated: (model: string) => boolean;
}

/** Labels from the models a run saw; a `sim/` name counts as simulated even without a flag. */
export function createModelLabels(models: ReadonlyArray<{ readonly model: string; readonly simulated: boolean }>): ModelLabels {
  const flagged = new Set(models.filter((entry) => entry.simulated).map((entry) => entry.model));
  const isSimulated = (model: string) => flagged.has(model) || model.startsWith('sim/');
  return {
    isSimulated,
    text: (model) => (isSimulated(model) ? `${model} [simulated]` : model),
    chart: (model) => (isSimulated(model) ? `${model}\n[simulated]` : model),
  };
}
