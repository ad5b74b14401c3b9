/**
 * How long a server asked us to wait, from `retry-after-ms` (milliseconds, OpenAI and Azure) or
 * `Retry-After` (seconds or an HTTP date). Undefined when neither is usable. Header names are
 * matched case-insensitively; `nowMs` is passed in for HTTP dates.
 */
export function retryAfterMsFromHeaders(headers: Readonly<Record<string, string>> | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const lowerCased = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const milliseconds = Number.parseFloat(lowerCased.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const retryAfter = lowerCased.get('retry-after')?.trim();
  if (!retryAfter) return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number.parseFloat(retryAfter) * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
