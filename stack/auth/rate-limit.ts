// In-memory limiters: a token bucket per client IP (GoTrue's per-IP request limits) and a
// global hourly budget for outgoing mail.

export class IpRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updated: number }>();

  /**
   * @param limit requests allowed per window and the burst size
   * @param windowMs refill period for `limit` tokens (GoTrue: 5 minutes)
   */
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Consumes one token for `key`; false when the key is over its limit. */
  take(key: string): boolean {
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.limit, updated: now };
    const refill = ((now - b.updated) / this.windowMs) * this.limit;
    b.tokens = Math.min(this.limit, b.tokens + refill);
    b.updated = now;
    this.buckets.set(key, b);
    if (this.buckets.size > 10_000) this.prune(now);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  private prune(now: number): void {
    for (const [key, b] of this.buckets) {
      if (now - b.updated > this.windowMs) this.buckets.delete(key);
    }
  }
}

/** Sliding one-hour budget shared by all mail the server sends. */
export class EmailBudget {
  private sent: number[] = [];

  constructor(
    private readonly perHour: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reserves one mail; false when the hourly budget is used up (0 blocks all mail). */
  take(): boolean {
    const now = this.now();
    this.sent = this.sent.filter((t) => now - t < 3_600_000);
    if (this.sent.length >= this.perHour) return false;
    this.sent.push(now);
    return true;
  }

  /** Gives back a reservation when the mail could not be sent. */
  release(): void {
    this.sent.pop();
  }
}

/** Client IP: first X-Forwarded-For entry (set by the gateway), else the socket peer. */
export function clientIp(
  forwardedFor: string | string[] | undefined,
  remoteAddress: string | undefined,
): string {
  const header = Array.isArray(forwardedFor) ? forwardedFor[0] : forwardedFor;
  const first = header?.split(',')[0]?.trim();
  return first || remoteAddress || 'unknown';
}
