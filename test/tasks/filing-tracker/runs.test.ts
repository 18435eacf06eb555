/**
 * filing-tracker end to end through the runner on a short synthetic window (one world for the file):
 * the pinned anchors, the feedback conditions, an LLM agent through the OpenAI test server playing
 * the perfect client, and the perfect client in browser mode on real Chromium.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { FEEDBACK_TOOL, feedbackTool, oracleFeedbackOf } from "../../../src/run/feedback-tool.js";
import { ensureSynthWorld } from "../../../src/synth/synth-world.js";
import {
  newClientState,
  nextSweep,
  perfectClientSweep,
  SWEEP_CRON,
} from "../../../src/tasks/filing-tracker/client-steps.js";
import { filingTrackerTask } from "../../../src/tasks/filing-tracker/index.js";
import { FilingTrackerParams } from "../../../src/tasks/filing-tracker/params.js";
import type { TaskRunContext } from "../../../src/tasks/task.js";
import { chromiumMissing } from "../../../src/tools/browser/launch.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { runWithServer } from "../../agent/support/llm-run.js";
import { type PolicyScript, policyResponder } from "../../agent/support/policy-responder.js";
import { CACHE_DIR, run } from "../../run/helpers.js";
import { toolHarness } from "../../support/leakage.js";

const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-04T00:00:00Z");
const worldDir = ensureSynthWorld(join(CACHE_DIR, "synth"), { seed: 1, start: START, end: END });
const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };
const API = { task: "filing-tracker", ...WINDOW, task_params: { portal_mode: "api" } } as const;

const statuses = (r: { results: { outcomes: { status: string }[] } }) => {
  const c: Record<string, number> = {};
  for (const o of r.results.outcomes) c[o.status] = (c[o.status] ?? 0) + 1;
  return c;
};

describe("filing-tracker runs (synthetic 2026-03-01 → 03-03)", () => {
  it("anchors (API mode, sleep trigger): perfect client 1.0, oracle 1.0, premature client 0.0, silent 0.0", async () => {
    const perfect = await run({ ...API, agent: { model: "scripted:perfect-client" } });
    expect(perfect.results.performance.primary).toEqual({ name: "filing_score", value: 1, direction: "higher" });
    expect(statuses(perfect)).toEqual({ ok: 7 });
    expect(perfect.results.not_scorable.map((n) => n.reason)).toEqual(["settles after window", "settles after window"]);
    const oracle = await run({ ...API, agent: { model: "scripted:oracle" } });
    expect(oracle.results.performance.primary.value).toBe(1);
    const premature = await run({ ...API, agent: { model: "scripted:premature-client" } });
    expect(premature.results.performance.primary.value).toBe(0);
    expect(statuses(premature)).toEqual({ premature: 7 });
    const silent = await run({ ...API, agent: { model: "scripted:silent" } });
    expect(silent.results.performance.primary.value).toBe(0);
    expect(statuses(silent)).toEqual({ miss: 7 });
    // under cron (the sweeps as cron lines on top of the base schedule) the honest client scores the same
    const cron = await run({ ...API, agent: { model: "scripted:perfect-client", trigger: "cron" } });
    expect(cron.results.performance.primary.value).toBe(1);
  }, 900_000);

  it("blind runs carry no feedback; under oracle get_feedback releases each filing's status only once settled", async () => {
    const ctxOf = (feedback: "none" | "oracle", mode: "browser" | "api") => {
      const h = toolHarness("filing-tracker", worldDir, START, {
        start: START,
        end: END,
        params: { portal_mode: mode },
      });
      const world = WorldStore.open(worldDir);
      const ctx = {
        params: FilingTrackerParams.parse({ portal_mode: mode }),
        feedback,
        oracleFeedback: null,
        sim_start: START,
        sim_end: END,
        view: world.at(() => START),
        budget_usd: 20,
      } as unknown as TaskRunContext<FilingTrackerParams>;
      const text =
        filingTrackerTask.open(ctx as TaskRunContext<unknown>).instruction() + JSON.stringify(h.runtime.docs());
      h.close();
      world.close();
      return text;
    };
    for (const mode of ["browser", "api"] as const) {
      const blind = ctxOf("none", mode);
      expect(blind.toLowerCase()).not.toContain("feedback");
      expect(blind).not.toContain(FEEDBACK_TOOL);
      expect(ctxOf("oracle", mode)).toBe(blind);
    }
    const res = await run({ ...API, feedback: "oracle", agent: { model: "scripted:perfect-client" } });
    const events: LedgerEvent[] = readLedger(join(res.runDir, "ledger.jsonl"));
    let now = Date.parse("2026-03-03T00:00:00Z");
    const fbWorld = WorldStore.open(worldDir);
    const ctx = {
      params: FilingTrackerParams.parse({ portal_mode: "api" }),
      feedback: "oracle",
      oracleFeedback: oracleFeedbackOf(events, () => now),
      sim_start: START,
      sim_end: END,
      view: fbWorld.at(() => now),
      budget_usd: 20,
      world: fbWorld,
    } as unknown as TaskRunContext<unknown>;
    const fbRun = filingTrackerTask.open(ctx);
    const tool = feedbackTool("oracle", filingTrackerTask, fbRun, ctx);
    const items = async () => {
      const r = await tool.invoke({}, { now: () => now, actor: "agent" });
      if (!r.ok) throw new Error(r.error);
      return (r.value as { items: { settled_at: string; key: string; status: string }[] }).items;
    };
    const mid = await items();
    expect(mid.map((i) => [i.settled_at, i.status])).toEqual([
      ["2026-03-02T14:30:00.000Z", "ok"],
      ["2026-03-02T14:30:00.000Z", "ok"],
    ]);
    expect(mid[0]).toMatchObject({ ticker: "BWR", form: "8-K", evidence: true, mismatched: [] });
    now = END;
    expect(await items()).toHaveLength(7);
    await fbRun.dispose();
    fbWorld.close();
  }, 900_000);

  it("an LLM agent playing the perfect client through the OpenAI test server scores what the script scores", async () => {
    const state = newClientState();
    const script: PolicyScript = {
      act: (now) => perfectClientSweep(now, state),
      nextWake: nextSweep,
      cron: [...SWEEP_CRON],
    };
    // a sub-window of the same world: three sweeps; the 8-Ks and 10-Ks accepted from 03-02 12:00Z, due 03-03 14:30Z
    const cfg = {
      ...API,
      sim_start: "2026-03-02T12:00:00Z",
      sim_end: "2026-03-03T15:00:00Z",
      world: { dir: worldDir },
    };
    const ref = await run({ ...cfg, agent: { model: "scripted:perfect-client" } });
    expect(ref.results.outcomes.map((o) => o.status)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    const res = await runWithServer(
      { ...cfg, agent: { trigger: "sleep", context_tokens: 8_000 } },
      policyResponder(script, "sleep"),
    );
    expect(res.results.outcomes).toEqual(ref.results.outcomes);
    expect(res.results.performance).toEqual(ref.results.performance);
    expect(res.results.resources.llm_calls).toBeGreaterThan(0);
    expect(JSON.stringify(res.requests.map((r) => r.body)).toLowerCase()).not.toContain("feedback");
  }, 900_000);

  it.skipIf(chromiumMissing() !== null)(
    "browser mode: the perfect client saves through the portal form on Chromium; the browser is closed at the end",
    async () => {
      // the same world, a sub-window holding the two pre-market 8-Ks of 03-02
      const res = await run({
        task: "filing-tracker",
        sim_start: "2026-03-02T00:00:00Z",
        sim_end: "2026-03-02T15:00:00Z",
        world: { dir: worldDir },
        agent: { model: "scripted:perfect-client" },
      });
      // accessions are opaque (synth ids.ts): the 8-Ks accepted in the sub-window, from the world
      const w = WorldStore.open(worldDir);
      const eightKs = (
        w.db
          .prepare(
            "SELECT c.ticker || ':' || f.accession AS key FROM filing f JOIN company c ON c.cik = f.cik" +
              " WHERE f.form = '8-K' AND f.accepted_at >= ? AND f.accepted_at < ? ORDER BY key",
          )
          .all(Date.parse("2026-03-02T00:00:00Z"), Date.parse("2026-03-02T15:00:00Z")) as { key: string }[]
      ).map((r) => r.key);
      w.close();
      expect(eightKs.map((k) => k.split(":")[0])).toEqual(["BWR", "HLCN"]);
      expect(res.results.outcomes.map((o) => [o.key, o.status])).toEqual(eightKs.map((k) => [k, "ok"]));
      const ev = readLedger(join(res.runDir, "ledger.jsonl"));
      const tools = new Set(ev.flatMap((e) => (e.type === "commitment" ? [e.tool] : [])));
      expect([...tools].sort()).toEqual(["browser_click", "browser_fill", "browser_navigate", "browser_select"]);
      const children = execFileSync("ps", ["-o", "comm=", "--ppid", String(process.pid)], { encoding: "utf8" });
      expect(children).not.toMatch(/chrom/i);
    },
    900_000,
  );
});
