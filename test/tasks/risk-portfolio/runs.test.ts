/**
 * End-to-end runs through the runner: the heuristic on a short synthetic window, the same policy
 * played by an "LLM" through the OpenAI test server (oracle condition), and the real-data
 * episode on the svb-2023 crypto closes (skipped when ../shared/data/raw is absent).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLedger } from "../../../src/ledger/ledger-reader.js";
import { ResultsSchema } from "../../../src/run/results.js";
import { synthWorldDir } from "../../../src/synth/synth-world.js";
import { nextDailyWake } from "../../../src/tasks/risk-portfolio/policies.js";
import { momentumSteps, type Step, type Steps } from "../../../src/tasks/risk-portfolio/policy-steps.js";
import { runWithServer } from "../../agent/support/llm-run.js";
import { type PolicyScript, policyResponder } from "../../agent/support/policy-responder.js";
import { CACHE_DIR, RAW_DIR, run } from "../../run/helpers.js";

const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-06T00:00:00Z" };
const CFG = { task: "risk-portfolio", ...WINDOW } as const;
/** 03-01 … 03-04: the books whose deadline (close + 24 h) is ≤ sim_end */
const REQUIRED = 4;

/** the heuristic as an LLM script; with `askFirst`, each wake starts with get_feedback */
function script(askFirst: boolean): PolicyScript {
  return {
    *act() {
      if (askFirst) yield { tool: "get_feedback", args: {} } as Step;
      yield* momentumSteps() as Steps;
    },
    nextWake: nextDailyWake,
    cron: ["5 0 * * *"],
  };
}

describe("risk-portfolio through the runner (synthetic, 5 days)", () => {
  it("heuristic, hold-cash and silent anchors on a short synthetic window; the blind ledger never mentions feedback", async () => {
    const ref = await run({ ...CFG, agent: { model: "scripted:momentum-risk-parity" } });
    expect(ResultsSchema.safeParse(ref.results).success).toBe(true);
    const perf = ref.results.performance as Record<string, unknown>;
    expect(perf.books_gate).toBe(1);
    expect(perf.books_required).toBe(REQUIRED);
    expect(perf.books_reconciled).toBe(REQUIRED);
    expect(perf.accounting_errors).toBe(0);
    expect(perf.fills as number).toBeGreaterThan(0);
    const primary = perf.primary as { name: string; value: number };
    expect(primary.name).toBe("risk_score");
    expect(primary.value).toBeGreaterThan(0);
    expect(primary.value).toBeLessThan(1);
    const keys = ref.results.outcomes.map((o) => o.key);
    expect(keys).toEqual(["book:2026-03-01", "book:2026-03-02", "book:2026-03-03", "book:2026-03-04", "portfolio"]);
    expect(ref.results.outcomes.slice(0, 4).every((o) => o.status === "reconciled" && o.credit === 1)).toBe(true);
    expect(ref.results.not_scorable).toContainEqual({ key: "book:2026-03-05", reason: "settles after window" });
    expect(ref.results.timing.anytime.map((p) => p.primary)).toEqual([
      null,
      expect.any(Number),
      expect.any(Number),
      expect.any(Number),
      primary.value,
    ]);
    expect(readFileSync(join(ref.runDir, "ledger.jsonl"), "utf8").toLowerCase()).not.toContain("feedback");

    const cash = await run({ ...CFG, agent: { model: "scripted:hold-cash" } });
    expect((cash.results.performance.primary as { value: number }).value).toBe(0.5);
    const silent = await run({ ...CFG, agent: { model: "scripted:silent" } });
    expect((silent.results.performance.primary as { value: number }).value).toBe(0);
    expect(silent.results.outcomes.filter((o) => o.status === "missing")).toHaveLength(REQUIRED);
  }, 900_000);

  it("an LLM replaying the heuristic (asking get_feedback at every wake, oracle condition) scores like the script; feedback holds only settled outcomes", async () => {
    // the same synthetic world (built by the test above), a 3-day window
    const world = {
      dir: synthWorldDir(join(CACHE_DIR, "synth"), {
        seed: 1,
        start: Date.parse(WINDOW.sim_start),
        end: Date.parse(WINDOW.sim_end),
      }),
    };
    const short = { task: "risk-portfolio", world, sim_start: WINDOW.sim_start, sim_end: "2026-03-04T00:00:00Z" };
    const ref = await run({ ...short, agent: { model: "scripted:momentum-risk-parity" } });
    const res = await runWithServer(
      { ...short, feedback: "oracle", agent: { trigger: "sleep", context_tokens: 20_000 } },
      policyResponder(script(true), "sleep"),
    );
    expect(res.results.performance).toEqual(ref.results.performance);
    expect(res.results.outcomes).toEqual(ref.results.outcomes);
    const toolNames = (b: { tools: { function: { name: string } }[] }) => b.tools.map((t) => t.function.name);
    expect(toolNames(res.requests[0]!.body)).toEqual(
      expect.arrayContaining([
        "get_prices",
        "get_account",
        "submit_orders",
        "submit_books",
        "validate_books",
        "get_feedback",
      ]),
    );
    const ev = readLedger(join(res.runDir, "ledger.jsonl"));
    const asks = ev.filter((e) => e.type === "tool_call" && e.tool === "get_feedback" && e.status === "ok");
    expect(asks.length).toBeGreaterThanOrEqual(3);
    let seen = 0;
    for (const req of res.requests) {
      for (const m of req.body.messages as { role: string; content?: string }[]) {
        if (m.role !== "tool" || !m.content?.startsWith('{"now"')) continue;
        const v = JSON.parse(m.content) as { now: string; items?: { settled_at: string; key: string }[] };
        if (!v.items) continue;
        for (const it of v.items) expect(Date.parse(it.settled_at)).toBeLessThanOrEqual(Date.parse(v.now));
        seen = Math.max(seen, v.items.length);
      }
    }
    // by the last wake (03-03 00:05) only the book of 03-01 had settled (at 03-03 00:00)
    expect(seen).toBe(1);
  }, 900_000);
});

describe("real-data episode svb-2023 (Kraken daily closes of BTC-USD, BTC-USDC, BTC-USDT)", () => {
  const have =
    existsSync(join(RAW_DIR, "crypto-kraken-binanceus-iaqf")) && existsSync(join(RAW_DIR, "crypto-binance-index-1h"));
  it.skipIf(!have)(
    "the heuristic files reconciled books over the de-peg; pinned score",
    async () => {
      const r = await run({
        task: "risk-portfolio",
        episode: "svb-2023",
        agent: { model: "scripted:momentum-risk-parity" },
      });
      const p = r.results.performance as Record<string, unknown>;
      expect(p.books_gate).toBe(1);
      expect(p.books_required).toBe(20);
      expect(p.books_reconciled).toBe(20);
      expect((p.primary as { value: number }).value).toMatchInlineSnapshot(`0.1738213321204375`);
      expect(p.net_return).toMatchInlineSnapshot(`-0.04086785646763336`);
      expect(r.results.not_scorable).toContainEqual({ key: "book:2023-03-21", reason: "settles after window" });
    },
    900_000,
  );
});
