import { describe, expect, it } from "vitest";
import { MINUTE_MS, parseDurationMs as parseDuration } from "../../src/common/time.js";
import { parseRunConfig } from "../../src/run/config.js";
import {
  builtInTriggerPolicy,
  intervalPolicy,
  KEYWORD_CHECK_MS,
  keywordPolicy,
} from "../../src/triggers/trigger-policy.js";

const T = Date.parse("2026-03-01T00:00:00Z");

describe("built-in trigger policies", () => {
  it("reads durations", () => {
    expect(parseDuration("15m")).toBe(15 * MINUTE_MS);
    expect(parseDuration("2h")).toBe(120 * MINUTE_MS);
    expect(parseDuration("30s")).toBe(30_000);
    expect(parseDuration("1d")).toBe(24 * 60 * MINUTE_MS);
    for (const bad of ["", "0m", "15", "m", "1.5h", "15 m", "-1m"]) expect(parseDuration(bad), bad).toBeNull();
  });

  it("interval: wakes on the grid, otherwise sleeps to the next grid instant", () => {
    const p = intervalPolicy(15 * MINUTE_MS);
    expect(p.check(T, [])).toBe("wake");
    expect(p.check(T + 1, [])).toEqual({ sleepUntil: T + 15 * MINUTE_MS });
    expect(p.check(T + 14 * MINUTE_MS, [])).toEqual({ sleepUntil: T + 15 * MINUTE_MS });
    expect(p.check(T + 15 * MINUTE_MS, [])).toBe("wake");
  });

  it("keyword: wakes only on a matching new observation (summary, kind or id; case-insensitive)", () => {
    const p = keywordPolicy("outage|page");
    const obs = (summary: string, kind = "event") => [{ t: T, kind, id: "x1", summary }];
    expect(p.check(T + 1, obs("all fine"))).toEqual({ sleepUntil: T + KEYWORD_CHECK_MS });
    expect(p.check(T + 1, obs("Database OUTAGE"))).toBe("wake");
    expect(p.check(T + 1, obs("quiet", "page"))).toBe("wake");
    expect(p.check(T + 1, [])).toEqual({ sleepUntil: T + KEYWORD_CHECK_MS });
  });

  it("refuses unreadable names with a message naming the problem", () => {
    expect(() => builtInTriggerPolicy("interval:soon")).toThrow(/cannot read the interval "soon"/);
    expect(() => builtInTriggerPolicy("keyword:")).toThrow(/give a regular expression/);
    expect(() => builtInTriggerPolicy("keyword:(")).toThrow(/not a regular expression/);
    expect(() => builtInTriggerPolicy("every:5m")).toThrow(/unknown trigger policy "every"/);
  });
});

describe("the run config's trigger policy fields", () => {
  const agent = (a: Record<string, unknown>) => parseRunConfig({ task: "daily-digest", agent: a }).agent;
  it("`trigger: interval:15m` is trigger policy with that trigger_policy", () => {
    expect(agent({ trigger: "interval:15m" })).toMatchObject({ trigger: "policy", trigger_policy: "interval:15m" });
    expect(agent({ trigger: "keyword:down|outage" })).toMatchObject({
      trigger: "policy",
      trigger_policy: "keyword:down|outage",
    });
    expect(agent({ trigger: "policy", trigger_module: "./p.mjs" })).toMatchObject({ trigger_module: "./p.mjs" });
  });
  it("refuses incomplete or contradictory settings, naming the field", () => {
    expect(() => agent({ trigger: "interval:0m" })).toThrow(/agent\.trigger_policy: .*cannot read the interval "0m"/);
    expect(() => agent({ trigger: "policy" })).toThrow(/agent\.trigger: trigger "policy" needs exactly one of/);
    expect(() => agent({ trigger: "policy", trigger_policy: "interval:1h", trigger_module: "./p.mjs" })).toThrow(
      /needs exactly one of/,
    );
    expect(() => agent({ trigger: "cron", trigger_module: "./p.mjs" })).toThrow(
      /agent\.trigger_module: needs trigger "policy" \(the run's trigger is "cron"\)/,
    );
    expect(() => agent({ trigger: "sometimes" })).toThrow(/agent\.trigger/);
  });
});
