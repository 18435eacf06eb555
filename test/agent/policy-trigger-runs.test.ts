import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { readLedgerLines } from "../../src/ledger/ledger-reader.js";
import { ConfigError, type RunConfigInput } from "../../src/run/config.js";
import { freshRunsDir, options, run } from "../run/helpers.js";
import { EXAMPLE_TASK, importExample } from "../tasks/event-response/example-world.js";
import { runWithServer } from "./support/llm-run.js";
import { policyResponder, topCommentsScript } from "./support/policy-responder.js";

const ledgerOf = (runDir: string) =>
  readLedgerLines(join(runDir, "ledger.jsonl")).map((l) => JSON.parse(l) as LedgerEvent);
const wakeTimes = (ev: LedgerEvent[]) => ev.flatMap((e) => (e.type === "wake" ? [e.t] : []));

// Issue 15 §3: trigger policies as code, for scripted and LLM runs.
describe("trigger policies through the runner", () => {
  let world: string;
  beforeAll(async () => {
    world = await importExample();
  });
  const ev = (agent: NonNullable<RunConfigInput["agent"]>, o = options()) =>
    run({ task: "event-response", world: { dir: world }, task_params: { task_file: EXAMPLE_TASK }, agent }, o);

  it("interval:15m wakes the poller exactly when its own 15-minute sleeps do: same wakes, spend and score", async () => {
    const sleep = await ev({ model: "scripted:poll-15m" });
    const interval = await ev({ model: "scripted:poll-15m", trigger: "policy", trigger_policy: "interval:15m" });
    expect(interval.results.trigger).toBe("policy");
    expect(interval.results.resources.wakes).toBe(288);
    expect(wakeTimes(ledgerOf(interval.runDir))).toEqual(wakeTimes(ledgerOf(sleep.runDir)));
    expect(interval.results.resources.spent_usd).toBeCloseTo(sleep.results.resources.spent_usd, 12);
    expect(interval.results.performance).toEqual(sleep.results.performance);
    const wakes = ledgerOf(interval.runDir).filter((e) => e.type === "wake");
    expect(wakes.slice(0, 2).map((w) => (w.type === "wake" ? [w.reason, w.trigger_id ?? null] : []))).toEqual([
      ["start", null],
      ["trigger", "policy"],
    ]);
  }, 900_000);

  it("keyword:page wakes only when a page became visible (as of each check), and the deadline guard composes", async () => {
    const r = await ev({ model: "scripted:poll-15m", trigger: "policy", trigger_policy: "keyword:^page$" });
    const e = ledgerOf(r.runDir);
    const policyWakes = e.filter((x) => x.type === "wake" && x.trigger_id === "policy");
    // the example log has 9 pages (tests/tasks/event-response anchors); each is seen at the next 5-minute check
    expect(policyWakes.length).toBeGreaterThan(0);
    expect(policyWakes.length).toBeLessThanOrEqual(9);
    expect(r.results.resources.wakes).toBeLessThan(288);
    const guarded = await ev({
      model: "scripted:poll-15m",
      trigger: "policy",
      trigger_policy: "keyword:^page$",
      deadline_guard: true,
      deadline_guard_margin_min: 5,
    });
    const g = ledgerOf(guarded.runDir);
    expect(g.some((x) => x.type === "wake" && x.reason === "deadline")).toBe(true);
    expect(g.filter((x) => x.type === "wake" && x.trigger_id === "policy").length).toBe(policyWakes.length);
  }, 900_000);

  it("--trigger-module: a policy file (fresh per run) is loaded, its path and sha256 recorded", async () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-trigmod-"));
    const file = join(dir, "hourly-or-alert.mjs");
    writeFileSync(
      file,
      [
        "// wakes on the hour, and at once when an alert became visible",
        "export function createTriggerPolicy() {",
        "  return {",
        '    name: "hourly-or-alert",',
        "    check(now, obs) {",
        "      const H = 3600000;",
        '      if (now % H === 0 || obs.some((o) => o.kind === "alert")) return "wake";',
        "      return { sleepUntil: Math.min((Math.floor(now / H) + 1) * H, now + 60000) };",
        "    },",
        "  };",
        "}",
        "",
      ].join("\n"),
    );
    const r = await ev({ model: "scripted:poll-15m", trigger: "policy", trigger_module: file });
    const cfg = JSON.parse(readFileSync(join(r.runDir, "config.json"), "utf8"));
    expect(cfg.resolved.trigger_module).toEqual({
      path: file,
      sha256: createHash("sha256").update(readFileSync(file)).digest("hex"),
    });
    const wakes = ledgerOf(r.runDir).filter((e) => e.type === "wake" && e.trigger_id === "policy");
    // 72 hours on the hour, plus a wake within a minute of each alert that is not on the hour
    expect(wakes.length).toBeGreaterThan(72);
    expect(r.results.performance.primary.value).toBeGreaterThan(0);

    // a module that exports no policy is refused before the run directory exists
    const bad = join(dir, "nothing.mjs");
    writeFileSync(bad, "export const x = 1;\n");
    const runsDir = freshRunsDir();
    await expect(ev({ trigger: "policy", trigger_module: bad }, options(runsDir))).rejects.toThrow(
      /agent\.trigger_module: .*nothing\.mjs exports no trigger policy/,
    );
    await expect(ev({ trigger: "policy", trigger_module: bad }, options(runsDir))).rejects.toThrow(ConfigError);
    expect(existsSync(runsDir) ? readdirSync(runsDir) : []).toEqual([]);
  }, 900_000);

  it("an LLM agent under interval:30m (done ends each wake) scores like the scripted policy under it", async () => {
    // two days: the first day's digest settles inside the window
    const DIGEST = {
      task: "daily-digest",
      sim_start: "2026-03-01T00:00:00Z",
      sim_end: "2026-03-03T00:00:00Z",
    } as const;
    const ref = await run({
      ...DIGEST,
      agent: { model: "scripted:top-comments", trigger: "policy", trigger_policy: "interval:30m" },
    });
    const res = await runWithServer(
      { ...DIGEST, agent: { trigger: "policy", trigger_policy: "interval:30m" } },
      policyResponder(topCommentsScript(), "policy"),
    );
    expect(res.results.performance).toEqual(ref.results.performance);
    expect(res.results.performance.primary.value).toBe(1);
    expect(wakeTimes(ledgerOf(res.runDir))).toEqual(wakeTimes(ledgerOf(ref.runDir)));
    expect(res.results.resources.wakes).toBe(2 * 48);
    expect(res.results.resources.llm_calls).toBeGreaterThan(96);
  }, 600_000);
});
