/** "sim/eloquent [simulated]": simulated agents are labelled wherever a model is named. */
export function labelModel(model: string): string {
  return model.startsWith('sim/') ? `${model} [simulated]` : model;
}

/** "850 ms", "3.2 s", "4 min 10 s" */
export function formatDuration(durationMs: number): string {
  if (durationMs < 1000) return `${Math.round(durationMs)} ms`;
  if (durationMs < 60_000) return `${(durationMs / 1000).toFixed(1)} s`;
  const seconds = Math.round(durationMs / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
