import { formatDuration } from "./day.js";
function positive(what, v) {
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0)
    throw new RangeError(`${what} must be a positive finite number, got ${v}`);
  return v;
}
function positiveInteger(what, v) {
  if (!Number.isSafeInteger(v) || v <= 0) throw new RangeError(`${what} must be a positive integer, got ${v}`);
  return v;
}
class MonotonicTime {
  last = Number.NEGATIVE_INFINITY;
  check(now) {
    if (typeof now !== "number" || !Number.isFinite(now))
      throw new RangeError(`rate limiter: not a finite instant: ${now}`);
    if (now < this.last) throw new RangeError(`rate limiter: time went backwards (${now} < ${this.last})`);
    this.last = now;
  }
}
class FixedWindowLimiter {
  kind = "fixed-window";
  limit;
  windowMs;
  time = new MonotonicTime();
  windowIndex = Number.NEGATIVE_INFINITY;
  used = 0;
  constructor(o) {
    this.limit = positive("limit", o.limit);
    this.windowMs = positiveInteger("windowMs", o.windowMs);
  }
  tryAcquire(now, weight = 1) {
    positive("weight", weight);
    this.roll(now);
    if (weight > this.limit) return { ok: false, retryAfterMs: this.windowMs };
    if (this.used + weight > this.limit) {
      return { ok: false, retryAfterMs: (this.windowIndex + 1) * this.windowMs - now };
    }
    this.used += weight;
    return { ok: true };
  }
  remaining(now) {
    this.roll(now);
    return this.limit - this.used;
  }
  roll(now) {
    this.time.check(now);
    const index = Math.floor(now / this.windowMs);
    if (index !== this.windowIndex) {
      this.windowIndex = index;
      this.used = 0;
    }
  }
}
class SlidingWindowLimiter {
  kind = "sliding-window";
  limit;
  windowMs;
  time = new MonotonicTime();
  times = [];
  weights = [];
  head = 0;
  used = 0;
  constructor(o) {
    this.limit = positive("limit", o.limit);
    this.windowMs = positiveInteger("windowMs", o.windowMs);
  }
  tryAcquire(now, weight = 1) {
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
      freed += this.weights[i];
      if (freed >= mustFree) return { ok: false, retryAfterMs: this.times[i] + this.windowMs - now };
    }
    throw new Error("sliding window accounting is inconsistent");
  }
  remaining(now) {
    this.expire(now);
    return this.limit - this.used;
  }
  expire(now) {
    this.time.check(now);
    while (this.head < this.times.length && this.times[this.head] + this.windowMs <= now) {
      this.used -= this.weights[this.head];
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
class TokenBucketLimiter {
  kind = "token-bucket";
  capacity;
  refillPerSec;
  time = new MonotonicTime();
  /** milli-tokens available at `last` */
  milli;
  last = null;
  constructor(o) {
    this.capacity = positive("capacity", o.capacity);
    this.refillPerSec = positive("refillPerSec", o.refillPerSec);
    this.milli = this.capacity * 1e3;
  }
  tryAcquire(now, weight = 1) {
    positive("weight", weight);
    this.refill(now);
    if (weight > this.capacity) return { ok: false, retryAfterMs: this.fullRefillMs() };
    const need = weight * 1e3;
    if (this.milli >= need) {
      this.milli -= need;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.ceil((need - this.milli) / this.refillPerSec) };
  }
  remaining(now) {
    this.refill(now);
    return Math.floor(this.milli / 1e3);
  }
  /** Time to refill an empty bucket completely (the "window" used for impossible weights). */
  fullRefillMs() {
    return Math.ceil(this.capacity * 1e3 / this.refillPerSec);
  }
  refill(now) {
    this.time.check(now);
    if (this.last !== null) {
      this.milli = Math.min(this.capacity * 1e3, this.milli + (now - this.last) * this.refillPerSec);
    }
    this.last = now;
  }
}
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
function describeLimiter(l) {
  switch (l.kind) {
    case "fixed-window":
      return `at most ${plural(l.limit, "call")} per ${formatDuration(l.windowMs)} (fixed windows aligned to the clock; a refused call costs nothing and says when the window resets)`;
    case "sliding-window":
      return `at most ${plural(l.limit, "call")} in any ${formatDuration(l.windowMs)} (sliding window; a refused call costs nothing and says when to retry)`;
    case "token-bucket":
      return `bursts of up to ${plural(l.capacity, "call")}, refilled at ${l.refillPerSec} per second (token bucket; a refused call costs nothing and says when to retry)`;
    default: {
      const never = l;
      throw new Error(`unknown limiter ${JSON.stringify(never)}`);
    }
  }
}
export {
  FixedWindowLimiter,
  SlidingWindowLimiter,
  TokenBucketLimiter,
  describeLimiter
};
//# sourceMappingURL=rate-limiter.js.map
