import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../src/ledger/events.js";
import { readLedgerLines } from "../../src/ledger/ledger-reader.js";
import { resumeRun } from "../../src/run/runner.js";
import { EXAMPLE_LOG, EXAMPLE_TASK, importExample } from "../tasks/event-response/example-world.js";
import { FORK_T, forkedWorlds } from "./forked-log.js";
import { options, run } from "./helpers.js";

// Issue 15 §5: the cron `when` gate in whole runs (scripted policies, offline).
const ledgerOf = (runDir: string) =>
  readLedgerLines(join(runDir, "ledger.jsonl")).map((l) => JSON.parse(l) as LedgerEvent);
const count = (events: LedgerEvent[], pred: (e: LedgerEvent) => boolean) => events.filter(pred).length;
const isNote = (kind: string) => (e: LedgerEvent) => e.type === "note" && e.kind === kind;
const PRICE = 0.00024; // list_events in examples/event-log/task.yaml
const DAY1 = { sim_start: "2026-03-02T00:00:00Z", sim_end: "2026-03-03T00:00:00Z" };
const Q = 15 * 60_000;

const gateDir = mkdtempSync(join(tmpdir(), "relive-gates-"));
const gateFile = (name: string, source: string) => {
  const p = join(gateDir, name);
  writeFileSync(p, source);
  return p;
};
const HOURLY = gateFile(
  "hourly.js",
  'envkit.handover(new Date(envkit.now()).getUTCMinutes() === 0 ? "wake" : "skip");\n',
);
/** wake only when an event needing a response arrived in the last quarter hour and is unanswered */
const DUE = gateFile(
  "due.js",
  [
    "const r = await envkit.tools.list_events({ since: envkit.now() - 15 * 60000 });",
    "const due = r.value.events.filter((e) => e.needs_response && e.response === null);",
    'envkit.handover(due.length > 0 ? { decision: "wake", reason: due.map((e) => e.id).join(",") } : "skip");',
    "",
  ].join("\n"),
);

describe("cron when gate in runs (event-response, scripted poll-15m under cron)", () => {
  let world: string;
  beforeAll(async () => {
    world = await importExample();
  });
  // one runs directory for the whole file: an identical config is one run (results.json reused)
  const shared = options();
  const ev = (agent: Record<string, unknown>, w = world, window: object = DAY1) =>
    run(
      {
        task: "event-response",
        world: { dir: w },
        task_params: { task_file: EXAMPLE_TASK },
        ...window,
        agent: { model: "scripted:poll-15m", trigger: "cron", ...agent },
      },
      shared,
    );

  it("a gate that skips all but the hour cuts wakes and cost exactly; skips and wakes are ledgered", async () => {
    const plain = await ev({});
    const gated = await ev({ cron_gate: { program: HOURLY } });
    // 96 quarter hours in the day: the start wake plus 95 firings; on the hour: the start plus 23
    expect(plain.results.resources.wakes).toBe(96);
    expect(gated.results.resources.wakes).toBe(24);
    // each wake of the poller costs one list_events call; the clock-only gate costs nothing
    expect(plain.results.resources.spent_usd).toBeCloseTo(96 * PRICE, 12);
    expect(gated.results.resources.spent_usd).toBeCloseTo(24 * PRICE, 12);
    expect(gated.results.resources.llm_usd).toBe(0);
    const l = ledgerOf(gated.runDir);
    // the gate gates both the base schedule and the poller's own */15 entry: two gate runs per firing
    expect(count(l, isNote("cron_gate_skip"))).toBe(2 * 72);
    expect(count(l, isNote("cron_gate_wake"))).toBe(2 * 23);
    expect(count(l, isNote("cron_gate_error"))).toBe(0);
    // the gate's identity is part of the run's
    const cfg = JSON.parse(readFileSync(join(gated.runDir, "config.json"), "utf8")) as {
      resolved: { cron_gate?: { path: string; sha256: string } };
    };
    expect(cfg.resolved.cron_gate).toMatchObject({ path: HOURLY, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(gated.runDir).not.toBe(plain.runDir);
  }, 900_000);

  it("a gate reading the data wakes the poller only when something is due: same outcome, fewer wakes", async () => {
    const plain = await ev({});
    const gated = await ev({ cron_gate: { program: DUE } });
    // expected from the log itself: quarter hours f with an alert or page in (f - 15 min, f]
    const start = Date.parse(DAY1.sim_start);
    const end = Date.parse(DAY1.sim_end);
    const due = readFileSync(EXAMPLE_LOG, "utf8")
      .split("\n")
      .filter((x) => x.trim() !== "")
      .map((x) => JSON.parse(x) as { ts: string; type: string })
      .filter((x) => x.type === "alert" || x.type === "page")
      .map((x) => Date.parse(x.ts))
      .filter((t) => t > start && t < end);
    const firings = new Set(due.map((t) => Math.ceil(t / Q) * Q).filter((f) => f < end));
    expect(firings.size).toBe(7);
    const wakes = gated.results.resources.wakes;
    expect(wakes).toBe(1 + firings.size);
    expect(gated.results.performance.primary).toEqual(plain.results.performance.primary);
    const l = ledgerOf(gated.runDir);
    // two gate runs per firing (base and the poller's entry), one list_events each, plus one per poller wake
    expect(count(l, (e) => e.type === "tool_call" && e.tool === "list_events")).toBe(2 * 95 + wakes);
    expect(gated.results.resources.spent_usd).toBeCloseTo((2 * 95 + wakes) * PRICE, 12);
    // the first entry's gate wakes the poller; the second, at the same instant, sees the answer and skips
    expect(count(l, isNote("cron_gate_wake"))).toBe(firings.size);
    expect(count(l, isNote("cron_gate_skip"))).toBe(2 * 95 - firings.size);
  }, 900_000);

  it("a crashing gate and a gate looping past its step budget fail open, the error ledgered", async () => {
    const SIX_H = { sim_start: "2026-03-02T00:00:00Z", sim_end: "2026-03-02T06:00:00Z" };
    // (validation runs a gate up to its first data call, so these fail only on what they read)
    const crash = await ev(
      {
        cron_gate: {
          program: gateFile("crash.js", "const r = await envkit.tools.list_events({});\nr.value.nope.x;\n"),
        },
      },
      world,
      SIX_H,
    );
    expect(crash.results.resources.wakes).toBe(24);
    const cl = ledgerOf(crash.runDir);
    expect(count(cl, isNote("cron_gate_error"))).toBe(2 * 23);
    expect(cl.find(isNote("cron_gate_error"))).toMatchObject({
      message: expect.stringMatching(
        /^base: failed open \(wake\): TypeError: cannot read property 'x' of undefined[\s\S]*when:base:2:13/,
      ),
    });
    const loop = await ev(
      {
        cron_gate: {
          program: gateFile("loop.js", "await envkit.tools.list_events({});\nfor (;;) {}\n"),
          step_budget: 2,
        },
      },
      world,
      SIX_H,
    );
    expect(loop.results.resources.wakes).toBe(24);
    const ll = ledgerOf(loop.runDir);
    expect(count(ll, isNote("cron_gate_error"))).toBe(2 * 23);
    expect(ll.find(isNote("cron_gate_error"))).toMatchObject({
      message: expect.stringContaining("step budget exceeded: 2 interrupt polls"),
    });
  }, 900_000);

  it("a gate that does not validate is refused before the run directory exists; cron_gate needs trigger cron", async () => {
    const bad = gateFile("bad.js", "envkit.handover(;\n");
    const o = options();
    await expect(
      run(
        {
          task: "event-response",
          world: { dir: world },
          task_params: { task_file: EXAMPLE_TASK },
          ...DAY1,
          agent: { model: "scripted:poll-15m", trigger: "cron", cron_gate: { program: bad } },
        },
        o,
      ),
    ).rejects.toThrow(/agent.cron_gate.program: .*bad.js does not validate: SyntaxError/);
    expect(existsSync(join(o.runsDir, "event-response"))).toBe(false);
    await expect(ev({ trigger: "sleep", cron_gate: { program: HOURLY } })).rejects.toThrow(/needs trigger "cron"/);
  }, 900_000);

  it("as of: a gate's inputs and decisions up to T are the same in two worlds that differ only after T", async () => {
    const { same, other } = await forkedWorlds();
    const a = ledgerOf((await ev({ cron_gate: { program: DUE } }, same)).runDir);
    const b = ledgerOf((await ev({ cron_gate: { program: DUE } }, other)).runDir);
    // everything the gate read (result hashes of its billed calls) and decided, with the run's own lines
    const upTo = (l: LedgerEvent[], before: boolean) =>
      l
        .filter((e) => e.type !== "run_start" && e.type !== "daily_brief" && (before ? e.t <= FORK_T : e.t > FORK_T))
        .map((e) => JSON.stringify({ ...e, seq: 0 }));
    const gateReads = (l: LedgerEvent[]) => l.filter((e) => e.type === "tool_call" && e.t <= FORK_T);
    expect(gateReads(a).length).toBeGreaterThan(48);
    expect(upTo(a, true)).toEqual(upTo(b, true));
    // the futures differ, and so do the gate's inputs and decisions after T (the comparison can fail)
    expect(upTo(a, false)).not.toEqual(upTo(b, false));
  }, 900_000);

  it("a gated run paused after day 1 resumes to the uninterrupted results; a changed gate file is refused", async () => {
    const TWO_D = { sim_start: "2026-03-02T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };
    const gate = gateFile("due-resume.js", readFileSync(DUE, "utf8"));
    const whole = await ev({ cron_gate: { program: gate } }, world, TWO_D);
    const cfg = (o: ReturnType<typeof options>) =>
      run(
        {
          task: "event-response",
          world: { dir: world },
          task_params: { task_file: EXAMPLE_TASK },
          ...TWO_D,
          agent: { model: "scripted:poll-15m", trigger: "cron", cron_gate: { program: gate } },
        },
        { ...o, stopAfterDay: 1 },
      );
    const o = options();
    const paused = await cfg(o);
    expect(paused.paused).toBeDefined();
    const resumed = await resumeRun(paused.runDir, o);
    expect(resumed.results.performance).toEqual(whole.results.performance);
    expect(resumed.results.resources).toEqual(whole.results.resources);
    expect(ledgerOf(resumed.runDir).map((e) => JSON.stringify(e))).toEqual(
      ledgerOf(whole.runDir).map((e) => JSON.stringify(e)),
    );
    const o2 = options();
    const paused2 = await cfg(o2);
    writeFileSync(gate, 'envkit.handover("wake");\n');
    await expect(resumeRun(paused2.runDir, o2)).rejects.toThrow(
      /cron gate .*due-resume.js changed since the run started/,
    );
  }, 900_000);
});
