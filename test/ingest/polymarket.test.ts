import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ImportRefusedError } from "../../src/ingest/import-report.js";
import { inferResult, pmInstant } from "../../src/ingest/polymarket-sources.js";
import {
  DEFAULT_BREAKPOINT_PARAMS,
  detectBreakpoints,
  detectionTime,
  type PricePoint,
} from "../../src/ingest/polymarket-truth.js";
import { importPolymarket } from "../../src/ingest/polymarket-world.js";
import { BreakoutTruth } from "../../src/tasks/breakout-news/breakout-truth.js";
import { BreakoutNewsParams } from "../../src/tasks/breakout-news/params.js";
import { ResolutionDetectParams } from "../../src/tasks/resolution-detect/params.js";
import { ResolutionTruth } from "../../src/tasks/resolution-detect/question-truth.js";
import { TruthStore } from "../../src/world/truth-store.js";
import { WorldStore } from "../../src/world/world-store.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const rawDir = process.env.RELIVE_RAW_DIR ?? resolve(repoRoot, "../shared/data/raw");
const bow = join(rawDir, "polymarket-betting-on-war");
const wom = join(rawDir, "polymarket-wom-raw-api");
const present = existsSync(bow) && existsSync(wom);
if (!present) console.warn(`polymarket sample tests skipped: ${bow} or ${wom} not found`);

const root = mkdtempSync(join(tmpdir(), "pm-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

/** an hourly series: flat 0.3 with ±0.002 wiggle, then a planted jump to 0.45 over two hours at step 60 (0.302 → 0.452) */
function planted(): PricePoint[] {
  const out: PricePoint[] = [];
  for (let k = 0; k < 120; k++) {
    const base = k < 60 ? 0.3 : k === 60 ? 0.38 : 0.45;
    out.push({ t: T0 + k * H, p: Math.round((base + (k % 2 ? 0.002 : -0.002)) * 1000) / 1000 });
  }
  return out;
}

describe("breakpoint detection", () => {
  it("finds exactly the planted move, with its first and last price points and signed size", () => {
    const bps = detectBreakpoints("m", planted(), { ...DEFAULT_BREAKPOINT_PARAMS, grid_ms: H });
    expect(bps).toEqual([{ id: "m-bp01", market: "m", t_start: T0 + 60 * H, t_end: T0 + 61 * H, size: 0.15 }]);
    const down = planted().map((p) => ({ t: p.t, p: Math.round((1 - p.p) * 1000) / 1000 }));
    expect(detectBreakpoints("m", down, { ...DEFAULT_BREAKPOINT_PARAMS, grid_ms: H })[0]?.size).toBe(-0.15);
  });
  it("finds nothing in noise, nor in a move under min_move", () => {
    expect(detectBreakpoints("m", planted().slice(0, 60), DEFAULT_BREAKPOINT_PARAMS)).toEqual([]);
    expect(detectBreakpoints("m", planted(), { ...DEFAULT_BREAKPOINT_PARAMS, grid_ms: H, min_move: 0.2 })).toEqual([]);
  });
});

describe("t_det and outcome inference", () => {
  it("t_det: first entry into ≥ 0.99 that never falls back under 0.95", () => {
    const s = (ps: number[]) => ps.map((p, i) => ({ t: i, p }));
    expect(detectionTime(s([0.5, 0.99, 0.96, 0.995]))).toBe(1);
    expect(detectionTime(s([0.5, 0.99, 0.94, 0.97, 0.991, 1]))).toBe(4);
    expect(detectionTime(s([0.5, 0.99, 0.9]))).toBeNull();
  });
  it("infers a winner only from decisive final prices and a resolved UMA status", () => {
    expect(inferResult(["Yes", "No"], [0, 1], "resolved")).toEqual(["No", null]);
    expect(inferResult(["A", "B"], [0.995, 0.005], undefined)).toEqual(["A", null]);
    expect(inferResult(["Yes", "No"], [0.5, 0.5], "resolved")[0]).toBeNull();
    expect(inferResult(["Yes", "No"], [1, 0], "proposed")).toEqual([null, 'UMA resolution status is "proposed"']);
  });
  it("reads Polymarket's instants", () => {
    expect(pmInstant("2026-01-23 20:56:36+00")).toBe(Date.UTC(2026, 0, 23, 20, 56, 36));
    expect(pmInstant("2026-01-22T00:01:27.770446Z")).toBe(Date.UTC(2026, 0, 22, 0, 1, 27, 770));
    expect(pmInstant("")).toBeNull();
  });
});

describe("importPolymarket (Gamma JSON + CLOB history fixture)", () => {
  it("builds markets, complement prices, a resolution, a breakpoint and t_det that the task truth readers read", async () => {
    const gamma = join(root, "markets.json");
    const yes = "111";
    writeFileSync(
      gamma,
      JSON.stringify([
        {
          id: "9001",
          question: "Will it?",
          outcomes: '["Yes", "No"]',
          outcomePrices: '["1", "0"]',
          clobTokenIds: `["${yes}", "222"]`,
          startDate: "2025-12-01T00:00:00Z",
          endDate: "2026-02-01T00:00:00Z",
          closedTime: "2026-01-06 00:30:00+00",
          closed: true,
          umaResolutionStatus: "resolved",
        },
        { id: "9002", question: "broken", outcomes: "not json" },
      ]),
    );
    const pts = planted().map((p, k) => ({ t: (p.t + (k >= 100 ? 0 : 0)) / 1000, p: k >= 100 ? 0.995 : p.p }));
    const hist = join(root, "h.json");
    writeFileSync(hist, JSON.stringify({ history: [...pts, { t: "x", p: 2 }] }));
    const out = join(root, "w");
    const r = await importPolymarket([gamma], out, { name: "pm", clob: [{ token: yes, file: hist }] });
    expect(r.counts).toMatchObject({ markets: 1, resolved: 1, t_det: 1, breakpoints: 2, complement_points: 101 });
    expect(r.rejected.map((x) => [x.file.endsWith("h.json") ? "h" : "g", x.line])).toEqual([
      ["g", 2],
      ["h", 121],
    ]);
    const world = WorldStore.open(out);
    const truth = TruthStore.open(out);
    const rd = new ResolutionTruth(truth, world, ResolutionDetectParams.parse({ questions: ["9001"] }));
    expect(rd.get("9001")).toMatchObject({ t_det: T0 + 100 * H, det_outcome: "Yes", result: "Yes" });
    const bt = new BreakoutTruth(truth, world, BreakoutNewsParams.parse({ markets: ["9001"] }));
    expect(bt.breakpoints.map((b) => [b.t_start, b.direction])).toEqual([
      [T0 + 60 * H, "up"],
      [T0 + 100 * H, "up"],
    ]);
    const no = world.db.prepare("SELECT p, visible_at FROM market_price WHERE outcome = 'No' ORDER BY t LIMIT 1").get();
    expect(no).toEqual({ p: 0.702, visible_at: T0 + 10 * 60_000 });
    world.close();
    truth.close();
  });
});

describe.skipIf(!present)("importPolymarket on the real samples", () => {
  it("Betting-on-War CSV: 92 priced markets, outcomes inferred from final prices", async () => {
    const out = join(root, "bow");
    const r = await importPolymarket([join(bow, "polymarket_markets.csv"), join(bow, "polymarket_prices.csv")], out, {
      name: "bow",
    });
    expect(r.read).toBe(475 + 14184);
    expect(r.counts).toMatchObject({
      markets: 92,
      price_points: 1498,
      resolved: 4,
      closed_unresolved: 88,
      breakpoints: 61,
      t_det: 4,
      forecast_questions: 4,
    });
    expect(r.rejected).toHaveLength(383);
    expect(r.rejected[0]?.reason).toMatch(/no price rows/);
    // no end_date in the CSV: every market's scheduled end is the import's horizon (the file's last
    // price point, 2024-01-01 00:00:02Z, a repeat the world drops), never the market's own last point
    // (when it stopped trading)
    const w = WorldStore.open(out);
    const ends = w.db.prepare("SELECT DISTINCT scheduled_end AS e FROM market").all();
    const res = w.db.prepare("SELECT closed_at FROM market_resolution WHERE market = '248316'").get();
    w.close();
    expect(ends).toEqual([{ e: Date.parse("2024-01-01T00:00:02Z") }]);
    // the resolution still closes at the market's last price point
    expect(res).toEqual({ closed_at: Date.parse("2023-07-01T00:00:02Z") });
  });

  it("Gamma dumps + the MicroStrategy event + its CLOB history", async () => {
    const out = join(root, "wom");
    const token = "111128191581505463501777127559667396812474366956707382672202929745167742497287";
    const r = await importPolymarket(
      ["gamma_markets_raw_600.json", "active_market.json", "gamma_market_condition.json"].map((f) => join(wom, f)),
      out,
      { name: "wom", clob: [{ token, file: join(wom, "active_prices_max.json") }] },
    );
    expect(r.counts).toMatchObject({
      markets: 616,
      priced_markets: 1,
      resolved: 299,
      duplicates: 4,
      breakpoints: 0,
      t_det: 0,
    });
    const w = WorldStore.open(out);
    expect(w.db.prepare("SELECT result FROM market_resolution WHERE market = '516926'").get()).toEqual({
      result: "No",
    });
    expect(
      w.db.prepare("SELECT count(*) AS n FROM market_price WHERE market = '824952' AND outcome = 'Yes'").get(),
    ).toEqual({
      n: 441,
    });
    w.close();
  });

  it("the summary CSV alone is refused", async () => {
    const out = join(root, "summary");
    const e = await importPolymarket([join(bow, "polymarket_summary.csv")], out, { name: "s" }).catch((x) => x);
    expect(e).toBeInstanceOf(ImportRefusedError);
    expect((e as ImportRefusedError).rejected[0]?.reason).toMatch(/neither a markets nor a prices file/);
    expect(existsSync(out)).toBe(false);
  });
});
