import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOUR_MS } from "../../../src/common/time.js";
import { inCapWindow } from "../../../src/tasks/popularity/recommend-rule.js";
import { RecommendationBook } from "../../../src/tasks/popularity/recommendation-book.js";

const P = { horizon_hours: 24, cap: 10, cap_window_hours: 24 };
const H = 24 * HOUR_MS;

/** the whole-book definitions the book's tail reads must agree with */
const pendingByScan = (book: RecommendationBook, now: number) =>
  book.accepted.filter((r) => r.t <= now && now < r.created_utc + H);

describe("RecommendationBook: pending and cap window read only the book's tail", () => {
  it("a post visible (and recommended) before its creation instant stays pending until created + horizon", () => {
    const book = new RecommendationBook();
    const t = Date.parse("2026-03-01T00:00:00Z");
    book.accept({ id: "early", t, created_utc: t + 2 * HOUR_MS });
    book.accept({ id: "next", t: t + 3 * HOUR_MS, created_utc: t + 3 * HOUR_MS });
    expect(book.pending(t + 25 * HOUR_MS, P).map((r) => r.id)).toEqual(["early", "next"]);
    expect(book.pending(t + 26 * HOUR_MS, P).map((r) => r.id)).toEqual(["next"]);
  });

  it("refuses an acceptance before the previous one (the tail reads rely on the order)", () => {
    const book = new RecommendationBook();
    book.accept({ id: "a", t: 10, created_utc: 0 });
    expect(() => book.accept({ id: "b", t: 9, created_utc: 0 })).toThrow(/before the previous acceptance/);
  });

  it("agree with a scan of the whole book, for any book and instant", () => {
    const rec = fc.record({
      gapMs: fc.integer({ min: 0, max: 6 * HOUR_MS }),
      // created before its acceptance (the usual case) or, rarely, up to 3 h after (visible before creation)
      ageMs: fc.integer({ min: -3 * HOUR_MS, max: 30 * HOUR_MS }),
    });
    fc.assert(
      fc.property(
        fc.array(rec, { maxLength: 60 }),
        fc.nat(),
        fc.integer({ min: -HOUR_MS, max: 30 * HOUR_MS }),
        (recs, k, afterMs) => {
          const book = new RecommendationBook();
          let t = 0;
          recs.forEach((x, i) => {
            t += x.gapMs;
            book.accept({ id: `p${i}`, t, created_utc: t - x.ageMs });
          });
          // an instant near one of the acceptances, where the window edges are
          const at = (book.accepted[k % Math.max(1, recs.length)]?.t ?? 0) + afterMs;
          expect(book.pending(at, P)).toEqual(pendingByScan(book, at));
          expect(book.inCapWindow(at, P)).toEqual(inCapWindow(book.accepted, at, P));
        },
      ),
    );
  });
});
