import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import { RiskPortfolioParams } from "../../../src/tasks/risk-portfolio/params.js";
import { maxDrawdown, probabilisticSharpe } from "../../../src/tasks/risk-portfolio/performance.js";
import {
  holdCashPolicy,
  momentumPolicy,
  nextDailyWake,
  oraclePolicy,
  silentPolicy,
} from "../../../src/tasks/risk-portfolio/policies.js";
import { RiskPortfolioScorer } from "../../../src/tasks/risk-portfolio/scorer.js";
import { kupiecPof, quantile7 } from "../../../src/tasks/risk-portfolio/stats.js";
import type { WorldStore } from "../../../src/world/world-store.js";
import { buildTestWorld, D, noTruth, runPolicy, T, TEST_WINDOW } from "./fixtures.js";

let world: WorldStore;
let cleanup: () => void;
beforeAll(() => {
  ({ world, cleanup } = buildTestWorld());
});
afterAll(() => cleanup());

const params = RiskPortfolioParams.parse({});
/** trading days 03-01 … 03-09 except the gap 03-04 have their deadline (close + 24 h) inside the window */
const REQUIRED = [
  "2026-03-01",
  "2026-03-02",
  "2026-03-03",
  "2026-03-05",
  "2026-03-06",
  "2026-03-07",
  "2026-03-08",
  "2026-03-09",
];

describe("statistics (values from an independent Python computation)", () => {
  it("Kupiec POF likelihood ratio and χ²(1) p-value (jStat)", () => {
    const a = kupiecPof(0, 26, 0.05);
    expect(a.lr).toBeCloseTo(2.66725130815263, 10);
    expect(a.p_value).toBeCloseTo(0.10243279320177169, 8);
    const b = kupiecPof(3, 10, 0.05);
    expect(b.lr).toBeCloseTo(6.475213721651784, 10);
    expect(b.p_value).toBeCloseTo(0.010938915908123148, 8);
    const c = kupiecPof(5, 20, 0.05);
    expect(c.lr).toBeCloseTo(9.002715782414093, 10);
    expect(c.p_value).toBeCloseTo(0.002695787109621065, 8);
    expect(kupiecPof(1, 20, 0.05)).toEqual({ lr: 0, p_value: 1 });
  });

  it("probabilistic Sharpe ratio with skewness and kurtosis", () => {
    const r = probabilisticSharpe([0.01, -0.005, 0.02, 0.0, 0.01, -0.012]);
    expect(r.sr).toBeCloseTo(0.32850439369802437, 12);
    expect(r.psr).toBeCloseTo(0.7661620914155489, 8);
    expect(probabilisticSharpe([0, 0, 0]).psr).toBe(0.5);
    expect(probabilisticSharpe([0.01]).psr).toBe(0.5);
  });

  it("max drawdown from the starting NAV 1; type-7 quantile", () => {
    expect(maxDrawdown([1.1, 0.99, 1.2, 0.9])).toBeCloseTo(0.25, 15);
    expect(maxDrawdown([0.8, 1.3])).toBeCloseTo(0.2, 15);
    expect(maxDrawdown([1, 1.01])).toBe(0);
    expect(quantile7([5, 1, 3, 2, 4], 0.05)).toBeCloseTo(1.2, 15);
    expect(quantile7([1, 2], 0.5)).toBe(1.5);
  });
});

describe("reference policy anchors (the 10-day test world: three symbols, a non-trading day)", () => {
  it("silent → 0: every book missing", async () => {
    const { report, outcomes } = await runPolicy(silentPolicy, world, params, TEST_WINDOW);
    expect(report.primary).toEqual({ name: "risk_score", value: 0, direction: "higher" });
    expect(report.metrics.books_missing).toBe(8);
    expect(report.metrics.books_required).toBe(8);
    expect(report.metrics.performance_score).toBe(0.5);
    expect(outcomes.filter((o) => o.key.startsWith("book:")).map((o) => [o.key, o.status, o.t])).toEqual(
      REQUIRED.map((d) => [`book:${d}`, "missing", D(d) + 2 * 86_400_000]),
    );
    expect(outcomes.at(-1)).toMatchObject({ key: "portfolio", status: "zeroed", credit: 0, t: TEST_WINDOW.end });
    expect(report.not_scorable).toEqual([
      { key: "var_backtest", reason: "no day with a non-zero position and at least 10 daily returns of history" },
      { key: "book:2026-03-10", reason: "settles after window" },
    ]);
  });

  it("hold-cash → exactly 0.5: correct books, PSR 0.5, no drawdown, no VaR day", async () => {
    const { report, calls } = await runPolicy(holdCashPolicy, world, params, TEST_WINDOW);
    expect(report.primary.value).toBe(0.5);
    expect(report.metrics).toMatchObject({
      books_gate: 1,
      books_reconciled: 8,
      accounting_errors: 0,
      net_return: 0,
      max_drawdown: 0,
      fills: 0,
    });
    expect(calls.submit_orders).toBeUndefined();
    expect(calls.submit_books).toBe(8);
  });

  it("momentum-risk-parity: reconciled books, pinned score, deterministic, attribution adds up", async () => {
    const a = await runPolicy(momentumPolicy, world, params, TEST_WINDOW);
    const b = await runPolicy(momentumPolicy, world, params, TEST_WINDOW);
    expect(b.outcomes).toEqual(a.outcomes);
    const m = a.report.metrics;
    expect(m.books_gate).toBe(1);
    expect(m.accounting_errors).toBe(0);
    expect(m.fills as number).toBeGreaterThan(0);
    const v = a.report.primary.value as number;
    expect(v).toBeGreaterThan(0);
    expect(v).toBeLessThan(1);
    expect(v).toMatchInlineSnapshot(`0.07658588477628421`);
    // Δequity = P&L long + P&L short − costs, over the window
    const pnl = (m.pnl_long as number) + (m.pnl_short as number) - (m.costs_total as number);
    expect(pnl / 10_000_000).toBeCloseTo((m.final_nav as number) - 1, 12);
    expect((m.return_long as number) + (m.return_short as number) + (m.return_costs as number)).toBeCloseTo(
      m.net_return as number,
      12,
    );
  });

  it("oracle: reconciled, pinned, above the heuristic", async () => {
    const o = await runPolicy(oraclePolicy, world, params, TEST_WINDOW);
    const h = await runPolicy(momentumPolicy, world, params, TEST_WINDOW);
    expect(o.report.metrics.books_gate).toBe(1);
    expect(o.report.primary.value as number).toBeGreaterThan(h.report.primary.value as number);
    expect(o.report.primary.value).toMatchInlineSnapshot(`0.9985492308309729`);
    expect(o.report.metrics.pnl_short as number).toBeGreaterThan(0);
  });
});

describe("the grader reconstructs, never trusts", () => {
  async function heuristicLedger() {
    const { events } = await runPolicy(momentumPolicy, world, params, TEST_WINDOW);
    return events;
  }
  function score(events: readonly LedgerEvent[], window = TEST_WINDOW) {
    const s = new RiskPortfolioScorer({ sim_start: window.start, sim_end: window.end, world, truth: noTruth, params });
    const outcomes = [];
    for (const e of events) {
      outcomes.push(...s.settle(e.t));
      if (e.t < window.end) s.onEvent(e);
    }
    outcomes.push(...s.settle(window.end));
    return { report: s.report(), outcomes };
  }

  it("one tampered filed number zeroes the score with the explicit error, on that day only", async () => {
    const events = await heuristicLedger();
    const honest = score(events);
    expect(honest.report.metrics.books_gate).toBe(1);
    const tampered = structuredClone(events);
    const filing = tampered.find(
      (e) => e.type === "commitment" && e.tool === "submit_books" && (e.args as { day: string }).day === "2026-03-06",
    ) as Extract<LedgerEvent, { type: "commitment" }>;
    (filing.args as { book: { nav: number } }).book.nav += 1e-9;
    const r = score(tampered);
    expect(r.report.primary.value).toBe(0);
    expect(r.report.metrics.performance_score).toBe(honest.report.metrics.performance_score);
    const day = r.outcomes.find((o) => o.key === "book:2026-03-06")!;
    expect(day.status).toBe("mismatch");
    expect((day.detail.errors as { code: string }[]).map((e) => e.code)).toEqual(["nav_mismatch", "nav_identity"]);
    expect(r.outcomes.filter((o) => o.status === "mismatch")).toHaveLength(1);
    const fin = r.outcomes.find((o) => o.key === "portfolio");
    expect(fin).toMatchObject({ status: "zeroed", credit: 0, detail: { gate: false, accounting_errors: 2 } });
  });

  it("outcome details carry the rebuilt book; orders are numbered from the ledger like the environment", async () => {
    const events = await heuristicLedger();
    const r = score(events);
    const day = r.outcomes.find((o) => o.key === "book:2026-03-05")!;
    expect(day.status).toBe("reconciled");
    const rb = day.detail.rebuilt as { cash: number; fills: { fill_id: string }[]; shares: Record<string, number> };
    const filed = events.find(
      (e) => e.type === "commitment" && e.tool === "submit_books" && (e.args as { day: string }).day === "2026-03-05",
    ) as Extract<LedgerEvent, { type: "commitment" }>;
    const book = (
      filed.args as { book: { cash: number; fills: { fill_id: string }[]; shares: Record<string, number> } }
    ).book;
    expect(Math.abs(book.cash - rb.cash)).toBeLessThanOrEqual(1e-6);
    expect(book.fills.map((f) => f.fill_id)).toEqual(rb.fills.map((f) => f.fill_id));
    expect(book.shares).toEqual(rb.shares);
  });

  it("a window with no book deadline inside is not scorable, never 0", () => {
    const w = { start: TEST_WINDOW.start, end: TEST_WINDOW.start + 86_400_000 };
    const r = score([], w);
    expect(r.report.primary.value).toBeNull();
    expect(r.report.not_scorable).toContainEqual({
      key: "risk_score",
      reason: "no book's filing deadline falls inside the window",
    });
    expect(r.outcomes.map((o) => [o.key, o.status])).toEqual([["portfolio", "not_scorable"]]);
  });

  it("the daily wake is 00:05 UTC", () => {
    expect(nextDailyWake(T("2026-03-01T00:00:00Z"))).toBe(T("2026-03-01T00:05:00Z"));
    expect(nextDailyWake(T("2026-03-01T00:05:00Z"))).toBe(T("2026-03-02T00:05:00Z"));
  });
});
