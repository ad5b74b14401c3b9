/** A signed-looking fixed number, or "n/a" for NaN (no data). */
export function formatNumber(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  const text = value.toFixed(digits);
  return text === `-${(0).toFixed(digits)}` ? (0).toFixed(digits) : text;
}

/** "0.42 [0.31, 0.55]" */
export function formatEstimate(value: number, ciLow: number, ciHigh: number): string {
  return `${formatNumber(value)} [${formatNumber(ciLow)}, ${formatNumber(ciHigh)}]`;
}
