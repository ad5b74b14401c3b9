/**
 * Requests per key (a participant's token, a client address) in a fixed window: enough to stop a
 * script hammering the study server, far above what a person on a page sends (one poll a second).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { startMs: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** Counts a request; the milliseconds to wait when the key is over its limit, else 0. */
  take(key: string): number {
    const nowMs = this.nowMs();
    const window = this.windows.get(key);
    if (!window || nowMs - window.startMs >= this.windowMs) {
      if (this.windows.size > 100_000) this.forgetOld(nowMs);
      this.windows.set(key, { startMs: nowMs, count: 1 });
      return 0;
    }
    window.count += 1;
    return window.count > this.limit ? window.startMs + this.windowMs - nowMs : 0;
  }

  private forgetOld(nowMs: number): void {
    for (const [key, window] of this.windows) if (nowMs - window.startMs >= this.windowMs) this.windows.delete(key);
  }
}
