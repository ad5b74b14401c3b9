import { isPersonAgent } from './person-agent.js';
import { printableText } from './printable-text.js';
/** "sim/eloquent [simulated]": simulated agents are labelled wherever a model is named. */
export function labelModel(model: string): string {
  // An agent's name is printed to terminals: it carries no escape sequence, whatever the store holds.
  const name = printableText(model);
  if (isPersonAgent(model)) return `${name} [person]`;
  return model.startsWith('sim/') ? `${name} [simulated]` : name;
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

/**
 * "1 claim", "2 claims", "1,234 conversations": a count and its noun, singular for exactly one.
 * `many` is for nouns whose plural is not the singular and an "s" ("reply", "replies").
 */
export function formatCounted(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** A p-value as the tables show it: "0.003", "< 0.001", or "n/a" when there is none. */
export function formatP(p: number): string {
  if (!Number.isFinite(p)) return 'n/a';
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/**
 * A header or a name as a camelCase field name, the form of every CSV column: "p (Holm)" -> "pHolm",
 * "turn-1 attempt, harmful" -> "turn1AttemptHarmful", "Fear-mongering" -> "fearMongering".
 */
export function camelCaseName(title: string): string {
  const words = title.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  return words.map((word, index) => (index === 0 ? word.charAt(0).toLowerCase() : word.charAt(0).toUpperCase()) + word.slice(1)).join('');
}
