import { describe, expect, it } from "vitest";
import { parseRunConfig } from "../../src/run/config.js";
import { checkDeadlineGuardMargin, deadlineGuardMarginMs } from "../../src/run/deadline-lead.js";
import { resolveRun } from "../../src/run/resolve-run.js";
import { DailyDigestParams } from "../../src/tasks/daily-digest/params.js";
import { PopularityParams } from "../../src/tasks/popularity/params.js";
import { getTask } from "../../src/tasks/registry.js";
import { CACHE_DIR, freshRunsDir, RAW_DIR } from "./helpers.js";

/** DESIGN.md invariant 5: parameter combinations that would release information early are refused at config time. */

const issuesOf = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (r.error?.issues ?? []).map((i) => ({ path: i.path.join("."), message: i.message }));

const resolveOptions = () => ({ runsDir: freshRunsDir(), cacheDir: CACHE_DIR, rawDir: RAW_DIR, allowOracle: true });

describe("popularity: feedback ages within the cascade horizon", () => {
  it("refuses an age beyond horizon_hours, naming the age and why", () => {
    expect(issuesOf(PopularityParams.safeParse({ feedback_ages_hours: [1, 30] }))).toEqual([
      {
        path: "feedback_ages_hours.1",
        message:
          "feedback age 30 h is beyond horizon_hours (24 h): feedback is released at the post's reveal (24 h after " +
          "posting), when comments after that age are not visible yet",
      },
    ]);
    expect(PopularityParams.safeParse({ feedback_ages_hours: [1, 6, 24] }).success).toBe(true);
    // the bound follows the horizon parameter
    expect(PopularityParams.safeParse({ horizon_hours: 48, feedback_ages_hours: [30] }).success).toBe(true);
  });

  it("every entry point refuses it: resolveRun reports it as a task_params error", () => {
    const config = parseRunConfig({ task: "popularity", task_params: { feedback_ages_hours: [48] } });
    expect(() => resolveRun(config, resolveOptions())).toThrow(
      "invalid task_params for popularity:\n  task_params.feedback_ages_hours.0: feedback age 48 h is beyond " +
        "horizon_hours (24 h): feedback is released at the post's reveal (24 h after posting), when comments " +
        "after that age are not visible yet",
    );
  });
});

describe("daily-digest: settlement not before the cascade horizon", () => {
  it("refuses settle_hours below 24 h with the reason", () => {
    expect(issuesOf(DailyDigestParams.safeParse({ settle_hours: 12 }))).toEqual([
      {
        path: "settle_hours",
        message:
          "settle_hours must be at least the cascade horizon (24 h): a hit is a post with ≥ hit_threshold comments " +
          "within 24 h of posting, and a candidate posted just before the window opens completes its cascade only " +
          "that long after, so an earlier settlement would mark posts as hits before their cascades are complete",
      },
    ]);
    expect(DailyDigestParams.safeParse({ settle_hours: 24 }).success).toBe(true);
    expect(DailyDigestParams.safeParse({ settle_hours: 36 }).success).toBe(true);
  });
});

describe("agent.deadline_guard_margin_min: not longer than a task's deadline lead", () => {
  const brokerOps = getTask("broker-ops");
  const params = brokerOps.params.parse({});

  it("defaults to 60 min and is read in minutes", () => {
    expect(deadlineGuardMarginMs(parseRunConfig({ task: "broker-ops" }))).toBe(3_600_000);
    expect(
      deadlineGuardMarginMs(parseRunConfig({ task: "broker-ops", agent: { deadline_guard_margin_min: 90 } })),
    ).toBe(5_400_000);
  });

  it("refuses a margin longer than broker-ops's shortest duty window, naming the window parameter", () => {
    const config = parseRunConfig({
      task: "broker-ops",
      agent: { deadline_guard: true, deadline_guard_margin_min: 180 },
    });
    expect(() => checkDeadlineGuardMargin(config, brokerOps, params)).toThrow(
      "agent.deadline_guard_margin_min: 180 min is longer than broker-ops's shortest deadline lead " +
        "(task_params.stop_window_ms: 120 min): a guard wake that early would come before the event that makes " +
        "the deadline known; use a margin of at most the lead",
    );
    // the shorter window is the bound, whichever it is
    const shortFunding = brokerOps.params.parse({ funding_window_ms: 30 * 60_000 });
    const cfg45 = parseRunConfig({
      task: "broker-ops",
      agent: { deadline_guard: true, deadline_guard_margin_min: 45 },
    });
    expect(() => checkDeadlineGuardMargin(cfg45, brokerOps, shortFunding)).toThrow(
      "agent.deadline_guard_margin_min: 45 min is longer than broker-ops's shortest deadline lead " +
        "(task_params.funding_window_ms: 30 min): a guard wake that early would come before the event that makes " +
        "the deadline known; use a margin of at most the lead",
    );
  });

  it("the default margin with a duty window shorter than an hour is refused too (the issue's case)", () => {
    const config = parseRunConfig({ task: "broker-ops", agent: { deadline_guard: true } });
    expect(() =>
      checkDeadlineGuardMargin(config, brokerOps, brokerOps.params.parse({ stop_window_ms: 20 * 60_000 })),
    ).toThrow(
      "agent.deadline_guard_margin_min: 60 min is longer than broker-ops's shortest deadline lead " +
        "(task_params.stop_window_ms: 20 min)",
    );
  });

  it("accepts a margin within the lead, any margin without the guard, and tasks whose deadlines come from a schedule", () => {
    const within = parseRunConfig({
      task: "broker-ops",
      agent: { deadline_guard: true, deadline_guard_margin_min: 120 },
    });
    expect(() => checkDeadlineGuardMargin(within, brokerOps, params)).not.toThrow();
    const noGuard = parseRunConfig({ task: "broker-ops", agent: { deadline_guard_margin_min: 600 } });
    expect(() => checkDeadlineGuardMargin(noGuard, brokerOps, params)).not.toThrow();
    const digest = getTask("daily-digest");
    const long = parseRunConfig({
      task: "daily-digest",
      agent: { deadline_guard: true, deadline_guard_margin_min: 600 },
    });
    expect(() => checkDeadlineGuardMargin(long, digest, digest.params.parse({}))).not.toThrow();
  });

  it("resolveRun refuses it before building anything", () => {
    const config = parseRunConfig({
      task: "broker-ops",
      agent: { deadline_guard: true, deadline_guard_margin_min: 121 },
    });
    expect(() => resolveRun(config, resolveOptions())).toThrow(
      /^agent\.deadline_guard_margin_min: 121 min is longer than broker-ops's shortest deadline lead \(task_params\.stop_window_ms: 120 min\)/,
    );
  });

  it("refuses a non-positive margin in the run config schema", () => {
    expect(() => parseRunConfig({ task: "broker-ops", agent: { deadline_guard_margin_min: 0 } })).toThrow(
      /agent\.deadline_guard_margin_min/,
    );
  });
});
