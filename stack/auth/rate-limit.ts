// In-memory limiters: a token bucket per client IP (GoTrue's per-IP request limits) and a
// global hourly budget for outgoing mail.

export class IpRateLimiter {
  // Insertion order is recency order: every take() moves its key to the end, so the first key
  // is the least recently seen one and eviction is O(1).
  private readonly buckets = new Map<string, { tokens: number; updated: number }>();

  /**
   * @param limit requests allowed per window and the burst size
   * @param windowMs refill period for `limit` tokens (GoTrue: 5 minutes)
   * @param maxKeys addresses remembered at most; the least recently seen one is forgotten first
   */
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 10_000,
  ) {}

  /** Consumes one token for `key`; false when the key is over its limit. O(1). */
  take(key: string): boolean {
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.limit, updated: now };
    const refill = ((now - b.updated) / this.windowMs) * this.limit;
    b.tokens = Math.min(this.limit, b.tokens + refill);
    b.updated = now;
    this.buckets.delete(key);
    this.buckets.set(key, b);
    if (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** Addresses currently remembered (bounded by maxKeys). */
  get size(): number {
    return this.buckets.size;
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

/**
 * Client IP as the gateway reports it. The gateway appends the socket peer as the LAST
 * X-Forwarded-For entry; everything before it was written by the client and proves nothing, so
 * only that one hop is trusted. Without the header (a direct caller) the socket peer counts.
 */
export function clientIp(
  forwardedFor: string | string[] | undefined,
  remoteAddress: string | undefined,
): string {
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const last = header?.split(',').at(-1)?.trim();
  return last || remoteAddress || 'unknown';
}
