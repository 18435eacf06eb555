import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRng } from "../../src/common/random.js";

describe("rng", () => {
  it("next() is in [0,1), int(n) in [0,n), uniform in [a,b)", () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 1000 }), (seed, n) => {
        const r = createRng(seed);
        for (let i = 0; i < 50; i++) {
          const u = r.next();
          const k = r.int(n);
          const x = r.uniform(-2, 3);
          if (u < 0 || u >= 1 || k < 0 || k >= n || !Number.isInteger(k) || x < -2 || x >= 3) return false;
        }
        return true;
      }),
    );
  });

  it("is deterministic per seed and differs across seeds", () => {
    const a = Array.from(
      { length: 20 },
      (
        (r) => () =>
          r.next()
      )(createRng(5)),
    );
    const b = Array.from(
      { length: 20 },
      (
        (r) => () =>
          r.next()
      )(createRng(5)),
    );
    const c = Array.from(
      { length: 20 },
      (
        (r) => () =>
          r.next()
      )(createRng(6)),
    );
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it("split(label) does not depend on how much the parent has drawn", () => {
    fc.assert(
      fc.property(fc.integer(), fc.nat(200), fc.string(), (seed, draws, label) => {
        const p1 = createRng(seed);
        const p2 = createRng(seed);
        for (let i = 0; i < draws; i++) p2.next();
        const x = [p1.split(label).next(), p1.split(label).next()];
        const y = [p2.split(label).next(), p2.split(label).next()];
        return x[0] === y[0] && x[1] === y[1] && p1.split(`${label}x`).next() !== x[0];
      }),
    );
  });

  it("poisson and normal have the right means", () => {
    const r = createRng(1);
    let sp = 0;
    let sn = 0;
    let sn2 = 0;
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      sp += r.poisson(4);
      const z = r.normal();
      sn += z;
      sn2 += z * z;
    }
    expect(sp / n).toBeCloseTo(4, 1);
    expect(Math.abs(sn / n)).toBeLessThan(0.03);
    expect(sn2 / n).toBeCloseTo(1, 1);
  });
});
