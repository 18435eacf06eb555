/**
 * risk-portfolio real episode over a calm window before the SVB collapse, 2023-02-01 → 02-14, on a
 * candle world built from the shared crypto samples (test/support/real-candle-world.ts; skipped
 * when ../shared/data/raw is absent): the momentum risk-parity heuristic and the silent floor,
 * pinned; and the svb-2023 de-peg window on the shipped recipe's files, imported here (the heuristic's
 * score there is also pinned through the recipe in runs.test.ts).
 */
import { describe, expect, it } from "vitest";
import { RAW_DIR as DEFAULT_RAW, run } from "../../run/helpers.js";
import { buildCalmCandleWorld, haveCalmSources, SVB_SOURCES } from "../../support/real-candle-world.js";

const RAW_DIR = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const present = haveCalmSources(RAW_DIR);
if (!present) console.warn(`skipping risk-portfolio real episodes: crypto samples not found under ${RAW_DIR}`);

describe.skipIf(!present)("risk-portfolio on real candles, 2023-02-01 → 02-14 (Kraken daily closes)", () => {
  it("momentum-risk-parity, hold-cash and silent", async () => {
    const dir = buildCalmCandleWorld(RAW_DIR, "crypto-calm-2023-02", "2023-02-01T00:00:00Z", "2023-02-15T00:00:00Z");
    const got: Record<string, unknown> = {};
    for (const policy of ["momentum-risk-parity", "hold-cash", "silent"]) {
      const r = (await run({ task: "risk-portfolio", world: { dir }, agent: { model: `scripted:${policy}` } })).results;
      const p = r.performance as Record<string, unknown>;
      got[policy] = {
        episode: r.episode,
        primary: p.primary,
        books_gate: p.books_gate,
        books_required: p.books_required,
        books_reconciled: p.books_reconciled,
        net_return: p.net_return,
        not_scorable: r.not_scorable,
      };
    }
    // 13 books due (the 14th settles after the window); the VaR backtest needs 10 daily returns of history
    // (the momentum book holds positions, so its VaR is backtested; flat books have none to test)
    const late = { key: "book:2023-02-14", reason: "settles after window" };
    const noVar = {
      key: "var_backtest",
      reason: "no day with a non-zero position and at least 10 daily returns of history",
    };
    const row = (value: number, books: number, net_return: number) => ({
      episode: "crypto-calm-2023-02",
      primary: { name: "risk_score", value, direction: "higher" },
      books_gate: books ? 1 : 0,
      books_required: 13,
      books_reconciled: books,
      net_return,
      not_scorable: net_return === 0 ? [noVar, late] : [late],
    });
    expect(got).toEqual({
      "momentum-risk-parity": row(0.01842183651943265, 13, -0.06965685247123765),
      "hold-cash": row(0.5, 13, 0),
      silent: row(0, 0, 0),
    });
  }, 900_000);
});

describe.skipIf(!present)(
  "risk-portfolio on the svb-2023 candles, 2023-03-01 → 03-21, imported (not through the recipe)",
  () => {
    it("momentum-risk-parity, hold-cash and silent", async () => {
      const dir = buildCalmCandleWorld(
        RAW_DIR,
        "crypto-svb-2023",
        "2023-03-01T00:00:00Z",
        "2023-03-22T00:00:00Z",
        SVB_SOURCES,
      );
      const score = async (policy: string) => {
        const r = (await run({ task: "risk-portfolio", world: { dir }, agent: { model: `scripted:${policy}` } }))
          .results;
        const p = r.performance as Record<string, unknown>;
        return [p.books_reconciled, (p.primary as { value: number }).value, p.net_return];
      };
      expect(await score("momentum-risk-parity")).toEqual([20, 0.1738213321204375, -0.04086785646763336]);
      expect(await score("hold-cash")).toEqual([20, 0.5, 0]);
      expect(await score("silent")).toEqual([0, 0, 0]);
    }, 900_000);
  },
);
