import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DAY_MS, HOUR_MS } from "../../../src/common/time.js";
import { dailyDigestTask } from "../../../src/tasks/daily-digest/index.js";
import { defaultDailyDigestParams } from "../../../src/tasks/daily-digest/params.js";
import { nextDailyAt } from "../../../src/tasks/daily-digest/reference-policies.js";
import {
  daysOpeningIn,
  digestDayOf,
  digestDeadlines,
  nextWindowAfter,
  openWindowAt,
} from "../../../src/tasks/daily-digest/schedule.js";
import { parseTimeArg } from "../../../src/tasks/reddit-tools.js";
import type { TaskRunContext } from "../../../src/tasks/task.js";
import type { AsOfView } from "../../../src/world/as-of-view.js";

const p = defaultDailyDigestParams();
const T = (iso: string) => Date.parse(iso);
const instant = fc.integer({ min: T("2020-01-01T00:00:00Z"), max: T("2030-01-01T00:00:00Z") });

describe("digest calendar", () => {
  it("a window is open exactly during [12:00, 13:00) UTC", () => {
    fc.assert(
      fc.property(instant, (t) => {
        const tod = t % DAY_MS;
        const open = openWindowAt(t, p);
        expect(open !== null).toBe(tod >= 12 * HOUR_MS && tod < 13 * HOUR_MS);
        if (open) expect(open.opens).toBe(t - tod + 12 * HOUR_MS);
      }),
    );
  });

  it("the next window opens strictly after t and within a day", () => {
    fc.assert(
      fc.property(instant, (t) => {
        const n = nextWindowAfter(t, p).opens;
        expect(n).toBeGreaterThan(t);
        expect(n - t).toBeLessThanOrEqual(DAY_MS);
        expect(n % DAY_MS).toBe(12 * HOUR_MS);
      }),
    );
  });

  it("day fields for 2026-03-02", () => {
    expect(digestDayOf(T("2026-03-02T05:00:00Z"), p)).toEqual({
      key: "day:2026-03-02",
      opens: T("2026-03-02T12:00:00Z"),
      closes: T("2026-03-02T13:00:00Z"),
      candidatesFrom: T("2026-03-01T12:00:00Z"),
      settles: T("2026-03-03T12:00:00Z"),
    });
  });

  it("synth-28d has 28 window openings; deadlines are the windows' closes in [from, to)", () => {
    const ep = dailyDigestTask.episodes.find((e) => e.name === "synth-28d")!;
    expect(ep.sim_end).toBe(T("2026-03-29T00:00:00Z"));
    const days = daysOpeningIn(ep.sim_start, ep.sim_end, p);
    expect(days).toHaveLength(28);
    expect(days.filter((d) => d.settles <= ep.sim_end)).toHaveLength(27);
    // the digest's deadlines do not depend on the world
    const view = { now: () => ep.sim_start } as AsOfView;
    const run = dailyDigestTask.open({ params: p, view } as unknown as TaskRunContext<unknown>);
    const dl = run.deadlines(view, ep.sim_end);
    expect(dl).toHaveLength(28);
    expect(dl[0]).toBe(T("2026-03-01T13:00:00Z"));
    expect(digestDeadlines(T("2026-03-01T13:00:00Z"), T("2026-03-02T13:00:00Z"), p)).toEqual([
      T("2026-03-01T13:00:00Z"),
    ]);
  });

  it("nextDailyAt is strictly after now", () => {
    expect(nextDailyAt(T("2026-03-02T12:30:00Z"), 12 * 60 + 30)).toBe(T("2026-03-03T12:30:00Z"));
    expect(nextDailyAt(T("2026-03-02T12:29:59Z"), 12 * 60 + 30)).toBe(T("2026-03-02T12:30:00Z"));
  });
});

describe("time arguments", () => {
  it("reads epoch ms and ISO-8601 (missing zone = UTC)", () => {
    const t = T("2026-03-01T12:00:00Z");
    expect(parseTimeArg("since", t)).toEqual({ ok: true, t });
    expect(parseTimeArg("since", String(t))).toEqual({ ok: true, t });
    expect(parseTimeArg("since", "2026-03-01T12:00:00Z")).toEqual({ ok: true, t });
    expect(parseTimeArg("since", "2026-03-01T12:00:00.000Z")).toEqual({ ok: true, t });
    expect(parseTimeArg("since", "2026-03-01T12:00")).toEqual({ ok: true, t });
    expect(parseTimeArg("since", "2026-03-01 12:00:00")).toEqual({ ok: true, t });
    expect(parseTimeArg("since", "2026-03-01T14:00:00+02:00")).toEqual({ ok: true, t });
    expect(parseTimeArg("since", "2026-03-01")).toEqual({ ok: true, t: T("2026-03-01T00:00:00Z") });
  });

  it("rejects epoch seconds, fractions and junk with a clear text", () => {
    expect(parseTimeArg("until", 1772366400)).toEqual({
      ok: false,
      error: "until: 1772366400 looks like epoch seconds; pass epoch milliseconds or an ISO-8601 string",
    });
    expect(parseTimeArg("until", 1.5e12 + 0.5).ok).toBe(false);
    expect(parseTimeArg("until", "yesterday")).toEqual({
      ok: false,
      error:
        'until: cannot read "yesterday" as an instant; use epoch milliseconds or ISO-8601 like "2026-03-01T12:00:00Z"',
    });
  });
});
