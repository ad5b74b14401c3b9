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

/**
 * "1,234,567": a count with en-US digit groups. Written out rather than `toLocaleString`, whose first
 * call loads ICU's number formatting (~16 ms, on every run's closing lines). Non-integers still go
 * through `toLocaleString`.
 */
export function formatCount(count: number): string {
  if (!Number.isSafeInteger(count)) return count.toLocaleString('en-US');
  const digits = String(Math.abs(count)).replace(/\B(?=(\d{3})+$)/g, ',');
  return count < 0 ? `-${digits}` : digits;
}
