import { formatDuration } from "../common/time.js";

/**
 * Rate limiters driven by simulated time: every call passes `now` (kernel ms), nothing reads wall
 * time or starts timers. Times passed to one limiter must be non-decreasing (a RangeError
 * otherwise). A refused acquire consumes nothing. A weight larger than the limiter's capacity can
 * never succeed: it is refused with `retryAfterMs` = the limiter's window (fixed / sliding: its
 * `windowMs`; token bucket: the time to refill from empty to full, rounded up to whole ms).
 */

export type Acquire = { ok: true } | { ok: false; retryAfterMs: number };

export interface RateLimiter {
  tryAcquire(now: number, weight?: number): Acquire;
  /** remaining capacity at now (for quota tools) */
  remaining(now: number): number;
}

function positive(what: string, v: number): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0)
    throw new RangeError(`${what} must be a positive finite number, got ${v}`);
  return v;
}

function positiveInteger(what: string, v: number): number {
  if (!Number.isSafeInteger(v) || v <= 0) throw new RangeError(`${what} must be a positive integer, got ${v}`);
  return v;
}

/** Guards the monotonic-time contract shared by all limiters. */
class MonotonicTime {
  private last = Number.NEGATIVE_INFINITY;

  check(now: number): void {
    if (typeof now !== "number" || !Number.isFinite(now))
      throw new RangeError(`rate limiter: not a finite instant: ${now}`);
    if (now < this.last) throw new RangeError(`rate limiter: time went backwards (${now} < ${this.last})`);
    this.last = now;
  }
}

/**
 * At most `limit` weight per window; windows are aligned to epoch multiples of `windowMs`
 * ([k·windowMs, (k+1)·windowMs)). A refusal's `retryAfterMs` is the time to the next window start.
 */
export class FixedWindowLimiter implements RateLimiter {
  readonly kind = "fixed-window" as const;
  readonly limit: number;
  readonly windowMs: number;
  private readonly time = new MonotonicTime();
  private windowIndex = Number.NEGATIVE_INFINITY;
  private used = 0;

  constructor(o: { limit: number; windowMs: number }) {
    this.limit = positive("limit", o.limit);
    this.windowMs = positiveInteger("windowMs", o.windowMs);
  }

  tryAcquire(now: number, weight = 1): Acquire {
    positive("weight", weight);
    this.roll(now);
    if (weight > this.limit) return { ok: false, retryAfterMs: this.windowMs };
    if (this.used + weight > this.limit) {
      return { ok: false, retryAfterMs: (this.windowIndex + 1) * this.windowMs - now };
    }
    this.used += weight;
    return { ok: true };
  }

  remaining(now: number): number {
    this.roll(now);
    return this.limit - this.used;
  }

  private roll(now: number): void {
    this.time.check(now);
    const index = Math.floor(now / this.windowMs);
    if (index !== this.windowIndex) {
      this.windowIndex = index;
      this.used = 0;
    }
  }
}

/**
 * At most `limit` weight in any window of `windowMs`: an acquire accepted at time s counts for
 * instants in [s, s + windowMs). Keeps an exact log of accepted (time, weight). A refusal's
 * `retryAfterMs` is the time until enough of the logged weight has expired for the request to fit.
 */
export class SlidingWindowLimiter implements RateLimiter {
  readonly kind = "sliding-window" as const;
  readonly limit: number;
  readonly windowMs: number;
  private readonly time = new MonotonicTime();
  private readonly times: number[] = [];
  private readonly weights: number[] = [];
  private head = 0;
  private used = 0;

  constructor(o: { limit: number; windowMs: number }) {
    this.limit = positive("limit", o.limit);
    this.windowMs = positiveInteger("windowMs", o.windowMs);
  }

  tryAcquire(now: number, weight = 1): Acquire {
    positive("weight", weight);
    this.expire(now);
    if (weight > this.limit) return { ok: false, retryAfterMs: this.windowMs };
    if (this.used + weight <= this.limit) {
      this.times.push(now);
      this.weights.push(weight);
      this.used += weight;
      return { ok: true };
    }
    const mustFree = this.used + weight - this.limit;
    let freed = 0;
    for (let i = this.head; i < this.times.length; i++) {
      freed += this.weights[i] as number;
      if (freed >= mustFree) return { ok: false, retryAfterMs: (this.times[i] as number) + this.windowMs - now };
    }
    // unreachable: freeing everything frees `used` >= mustFree because weight <= limit
    throw new Error("sliding window accounting is inconsistent");
  }

  remaining(now: number): number {
    this.expire(now);
    return this.limit - this.used;
  }

  private expire(now: number): void {
    this.time.check(now);
    while (this.head < this.times.length && (this.times[this.head] as number) + this.windowMs <= now) {
      this.used -= this.weights[this.head] as number;
      this.head++;
    }
    if (this.head === this.times.length) {
      this.times.length = 0;
      this.weights.length = 0;
      this.head = 0;
      this.used = 0;
    } else if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.weights.splice(0, this.head);
      this.head = 0;
    }
  }
}

/**
 * Token bucket of `capacity` tokens refilled continuously at `refillPerSec`; starts full at the
 * first instant it sees. Internally counted in milli-tokens so integer refill rates are exact. A
 * refusal's `retryAfterMs` is the time (rounded up to whole ms) until enough tokens have refilled;
 * `remaining` is the whole number of tokens available.
 */
export class TokenBucketLimiter implements RateLimiter {
  readonly kind = "token-bucket" as const;
  readonly capacity: number;
  readonly refillPerSec: number;
  private readonly time = new MonotonicTime();
  /** milli-tokens available at `last` */
  private milli: number;
  private last: number | null = null;

  constructor(o: { capacity: number; refillPerSec: number }) {
    this.capacity = positive("capacity", o.capacity);
    this.refillPerSec = positive("refillPerSec", o.refillPerSec);
    this.milli = this.capacity * 1000;
  }

  tryAcquire(now: number, weight = 1): Acquire {
    positive("weight", weight);
    this.refill(now);
    if (weight > this.capacity) return { ok: false, retryAfterMs: this.fullRefillMs() };
    const need = weight * 1000;
    if (this.milli >= need) {
      this.milli -= need;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.ceil((need - this.milli) / this.refillPerSec) };
  }

  remaining(now: number): number {
    this.refill(now);
    return Math.floor(this.milli / 1000);
  }

  /** Time to refill an empty bucket completely (the "window" used for impossible weights). */
  fullRefillMs(): number {
    return Math.ceil((this.capacity * 1000) / this.refillPerSec);
  }

  private refill(now: number): void {
    this.time.check(now);
    if (this.last !== null) {
      // milli-tokens per ms = tokens per second
      this.milli = Math.min(this.capacity * 1000, this.milli + (now - this.last) * this.refillPerSec);
    }
    this.last = now;
  }
}

export type KnownLimiter = FixedWindowLimiter | SlidingWindowLimiter | TokenBucketLimiter;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** One sentence for tool docs, e.g. "at most 60 calls per 1 minute (fixed windows aligned to the clock)". */
export function describeLimiter(l: KnownLimiter): string {
  switch (l.kind) {
    case "fixed-window":
      return `at most ${plural(l.limit, "call")} per ${formatDuration(l.windowMs)} (fixed windows aligned to the clock; a refused call costs nothing and says when the window resets)`;
    case "sliding-window":
      return `at most ${plural(l.limit, "call")} in any ${formatDuration(l.windowMs)} (sliding window; a refused call costs nothing and says when to retry)`;
    case "token-bucket":
      return `bursts of up to ${plural(l.capacity, "call")}, refilled at ${l.refillPerSec} per second (token bucket; a refused call costs nothing and says when to retry)`;
    default: {
      const never: never = l;
      throw new Error(`unknown limiter ${JSON.stringify(never)}`);
    }
  }
}
