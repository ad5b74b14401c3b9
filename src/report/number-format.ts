/** A signed-looking fixed number, or "n/a" for NaN (no data). */
export function formatNumber(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  const text = value.toFixed(digits);
  return text === `-${(0).toFixed(digits)}` ? (0).toFixed(digits) : text;
}

/** "0.42 [0.31, 0.55]", or "0.42 ~[0.31, 0.55]" when the interval rests on too few claims to be trusted. */
export function formatEstimate(value: number, ciLow: number, ciHigh: number, thin = false): string {
  return `${formatNumber(value)} ${thin ? '~' : ''}[${formatNumber(ciLow)}, ${formatNumber(ciHigh)}]`;
}

/** "2026-11-30 12:00 UTC" from an ISO timestamp; other text is shown as it is. */
export function formatTimestamp(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(\.\d+)?)?Z$/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}
