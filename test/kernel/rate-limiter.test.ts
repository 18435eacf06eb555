import { describe, expect, it } from "vitest";
import {
  describeLimiter,
  FixedWindowLimiter,
  SlidingWindowLimiter,
  TokenBucketLimiter,
} from "../../src/kernel/rate-limiter.js";

const ok = { ok: true };
const wait = (retryAfterMs: number) => ({ ok: false, retryAfterMs });

describe("FixedWindowLimiter", () => {
  it("counts per epoch-aligned window and says when the window resets", () => {
    const l = new FixedWindowLimiter({ limit: 3, windowMs: 1000 });
    expect(l.remaining(10_200)).toBe(3);
    expect(l.tryAcquire(10_200)).toEqual(ok);
    expect(l.tryAcquire(10_300, 2)).toEqual(ok);
    expect(l.remaining(10_400)).toBe(0);
    // window [10000, 11000): next window starts in 600 ms
    expect(l.tryAcquire(10_400)).toEqual(wait(600));
    expect(l.tryAcquire(10_999)).toEqual(wait(1));
    expect(l.tryAcquire(11_000)).toEqual(ok);
    expect(l.remaining(11_000)).toBe(2);
    // a refused acquire consumes nothing
    expect(l.tryAcquire(11_500, 3)).toEqual(wait(500));
    expect(l.tryAcquire(11_500, 2)).toEqual(ok);
    // weight above the limit: always refused with the window
    expect(l.tryAcquire(50_000, 4)).toEqual(wait(1000));
    expect(l.remaining(50_000)).toBe(3);
  });

  it("rejects bad input", () => {
    const l = new FixedWindowLimiter({ limit: 1, windowMs: 1000 });
    l.tryAcquire(5000);
    expect(() => l.tryAcquire(4999)).toThrow(/backwards/);
    expect(() => l.tryAcquire(6000, 0)).toThrow(RangeError);
    expect(() => new FixedWindowLimiter({ limit: 1, windowMs: 0.5 })).toThrow(RangeError);
  });
});

describe("SlidingWindowLimiter", () => {
  it("keeps an exact log and says when enough weight expires", () => {
    const l = new SlidingWindowLimiter({ limit: 3, windowMs: 1000 });
    expect(l.tryAcquire(0)).toEqual(ok);
    expect(l.tryAcquire(100)).toEqual(ok);
    expect(l.tryAcquire(200)).toEqual(ok);
    // the call at 0 stops counting at 1000
    expect(l.tryAcquire(500)).toEqual(wait(500));
    // weight 2 needs the calls at 0 and 100 to expire: 1100
    expect(l.tryAcquire(500, 2)).toEqual(wait(600));
    expect(l.remaining(999)).toBe(0);
    expect(l.remaining(1000)).toBe(1);
    expect(l.tryAcquire(1000, 2)).toEqual(wait(100));
    expect(l.tryAcquire(1100, 2)).toEqual(ok);
    expect(l.remaining(1100)).toBe(0);
    // log now: 200 (w1), 1100 (w2)
    expect(l.tryAcquire(1150, 3)).toEqual(wait(950)); // frees both at 2100
    expect(l.tryAcquire(1150, 4)).toEqual(wait(1000)); // above the limit
    expect(l.tryAcquire(1200)).toEqual(ok);
  });

  it("handles long runs without losing weight", () => {
    const l = new SlidingWindowLimiter({ limit: 5, windowMs: 60_000 });
    let accepted = 0;
    for (let t = 0; t < 3_600_000; t += 1000) if (l.tryAcquire(t).ok) accepted++;
    // 5 accepted per minute: at 0..4 s, 60..64 s, ..., 3540..3544 s
    expect(accepted).toBe(300);
    expect(l.remaining(3_599_999)).toBe(0);
    expect(l.remaining(3_600_000)).toBe(1); // the call at 3540 s expired
    expect(l.remaining(3_603_999)).toBe(4);
    expect(l.remaining(3_604_000)).toBe(5);
  });
});

describe("TokenBucketLimiter", () => {
  it("starts full, refills continuously and says when enough tokens are back", () => {
    const l = new TokenBucketLimiter({ capacity: 2, refillPerSec: 1 });
    expect(l.remaining(0)).toBe(2);
    expect(l.tryAcquire(0)).toEqual(ok);
    expect(l.tryAcquire(0)).toEqual(ok);
    expect(l.tryAcquire(0)).toEqual(wait(1000));
    expect(l.tryAcquire(500)).toEqual(wait(500));
    expect(l.tryAcquire(500, 2)).toEqual(wait(1500));
    expect(l.remaining(999)).toBe(0);
    expect(l.tryAcquire(1000)).toEqual(ok);
    // refill caps at capacity
    expect(l.remaining(60_000)).toBe(2);
    expect(l.tryAcquire(60_000, 2)).toEqual(ok);
    // above capacity: the time to refill from empty
    expect(l.tryAcquire(60_000, 3)).toEqual(wait(2000));
  });

  it("rounds fractional waits up to whole ms", () => {
    const l = new TokenBucketLimiter({ capacity: 1, refillPerSec: 3 });
    expect(l.tryAcquire(0)).toEqual(ok);
    expect(l.tryAcquire(0)).toEqual(wait(334)); // 1000/3 ms
    expect(l.tryAcquire(333)).toEqual(wait(1)); // 999 of 1000 milli-tokens back
    expect(l.tryAcquire(334)).toEqual(ok);
  });
});

describe("describeLimiter", () => {
  it("describes each limiter in one sentence", () => {
    expect(describeLimiter(new FixedWindowLimiter({ limit: 60, windowMs: 60_000 }))).toBe(
      "at most 60 calls per 1 minute (fixed windows aligned to the clock; a refused call costs nothing and says when the window resets)",
    );
    expect(describeLimiter(new SlidingWindowLimiter({ limit: 1, windowMs: 3_600_000 }))).toBe(
      "at most 1 call in any 1 hour (sliding window; a refused call costs nothing and says when to retry)",
    );
    expect(describeLimiter(new TokenBucketLimiter({ capacity: 10, refillPerSec: 0.5 }))).toBe(
      "bursts of up to 10 calls, refilled at 0.5 per second (token bucket; a refused call costs nothing and says when to retry)",
    );
  });
});
