import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureRecipeWorld, type RecipeWorld } from "../../src/recipes/recipe-build.js";
import { loadRecipe } from "../../src/recipes/recipe-file.js";
import { sourcePaths } from "../../src/recipes/recipe-schema.js";
import { createPriceCheckEnv } from "../../src/tasks/price-check/environment.js";
import { PriceCheckParams } from "../../src/tasks/price-check/params.js";
import { PriceCheckScorer } from "../../src/tasks/price-check/scorer.js";
import type { TruthStore } from "../../src/world/truth-store.js";
import { WorldStore } from "../../src/world/world-store.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const rawDir = resolve(repoRoot, "../shared/data/raw");
const present =
  existsSync(join(rawDir, "crypto-kraken-binanceus-iaqf")) && existsSync(join(rawDir, "crypto-binance-index-1h"));
if (!present) console.warn(`crypto-world test skipped: raw crypto data not found under ${rawDir}`);

const H = 3_600_000;
const T0611 = Date.UTC(2023, 2, 11, 6);

describe.skipIf(!present)("svb-2023 world from ../shared/data/raw", () => {
  let root: string;
  let world: WorldStore;
  // the shipped recipe of the episode, built into a fresh cache
  const recipe = loadRecipe(join(repoRoot, "recipes/svb-2023.yaml"));
  let report: RecipeWorld;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "svb-"));
    report = ensureRecipeWorld(recipe, { cacheDir: root, dataDir: rawDir });
    world = WorldStore.open(report.dir);
  });
  afterAll(() => {
    world?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("records every source with its sha256 and row counts; no partial temp dir remains", () => {
    const m = report.manifest;
    expect(m.window).toEqual({ start: Date.UTC(2023, 2, 1), end: Date.UTC(2023, 2, 22) });
    expect(m.sources.map((s) => s.path)).toEqual(sourcePaths(recipe.recipe.sources));
    for (const s of m.sources) expect(s.sha256).toMatch(/^[0-9a-f]{64}$/);
    const byPath = Object.fromEntries(m.sources.map((s) => [s.path, s]));
    expect(byPath["crypto-kraken-binanceus-iaqf/XBTUSDC_60.csv"]).toMatchObject({ rows: 2160, rejected: 0 });
    expect(byPath["crypto-kraken-binanceus-iaqf/BTCUSDC_1m_20230301_20230321.csv"]).toMatchObject({
      rows: 30240,
      rejected: 0,
    });
    expect(report.rejected).toEqual([]);
    // kraken: 22 days (1 day lookback + 21) × 3 pairs; binanceus: 21 × 24 × 3; index: 22 × 24
    const counts = world.db.prepare("SELECT venue, count(*) AS n FROM candle GROUP BY venue ORDER BY venue").all() as {
      venue: string;
      n: number;
    }[];
    expect(counts).toEqual([
      { venue: "binance-index", n: 22 * 24 },
      { venue: "binanceus", n: 21 * 24 * 3 },
      { venue: "kraken", n: 22 * 24 * 3 },
    ]);
    expect(readdirSync(join(root, "worlds")).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("the spec's example: 2023-03-11 06:00 BTC-USDC closed 22,309.7 on Kraken and 20,732.7 on Binance.US (open-time labels)", () => {
    const q = world.db.prepare(
      "SELECT c, visible_at FROM candle WHERE venue = ? AND symbol = 'BTC-USDC' AND open_time = ?",
    );
    expect(q.get("kraken", T0611)).toEqual({ c: 22309.7, visible_at: T0611 + H });
    const bus = q.get("binanceus", T0611) as { c: number; visible_at: number };
    expect(bus.c).toBe(20732.66);
    expect(bus.c.toFixed(1)).toBe("20732.7");
    expect(bus.visible_at).toBe(T0611 + H);
  });

  it("scores against the two-venue median at 07:00 and serves the real shapes", () => {
    const params = PriceCheckParams.parse({ incidents: false });
    const start = Date.UTC(2023, 2, 1);
    const end = Date.UTC(2023, 2, 22);
    const scorer = new PriceCheckScorer({
      sim_start: start,
      sim_end: end,
      world,
      truth: null as unknown as TruthStore,
      params,
    });
    expect(scorer.setup.truthIntervalMs).toBe(H);
    expect(scorer.setup.truthVenues).toEqual({
      "BTC-USD": ["binanceus", "kraken"],
      "BTC-USDC": ["binanceus", "kraken"],
      "BTC-USDT": ["binance-index", "binanceus", "kraken"],
    });
    const mid = (22309.7 + 20732.66) / 2;
    scorer.onEvent({
      seq: 0,
      t: T0611 + H + 10 * 60_000,
      type: "commitment",
      actor: "a",
      tool: "report",
      args: { symbol: "BTC-USDC", price: mid },
    });
    const out = scorer.settle(T0611 + 2 * H).find((o) => o.key === "BTC-USDC@2023-03-11T07");
    expect(out?.status).toBe("ok");
    expect(out?.detail.truth).toBeCloseTo(21521.18, 6);

    const now = T0611 + H + 10 * 60_000;
    const env = createPriceCheckEnv({
      params,
      view: world.at(() => now),
      world,
      env_seed: 1,
      sim_start: start,
      sim_end: end,
    });
    const k = JSON.parse(
      env.api.fetch({
        venue: "kraken",
        path: "/0/public/OHLC",
        params: { pair: "XBTUSDC", interval: 60 },
        timeout_s: 10,
      }).body,
    );
    const rows = k.result.XBTUSDC as unknown[][];
    expect(rows[rows.length - 1]?.slice(0, 5)).toEqual([T0611 / 1000, "21856.19", "23951.49", "21642.20", "22309.70"]);
    const b = JSON.parse(
      env.api.fetch({
        venue: "binanceus",
        path: "/api/v3/klines",
        params: { symbol: "BTCUSDC", interval: "1h", limit: 1 },
        timeout_s: 10,
      }).body,
    );
    expect(b[0][0]).toBe(T0611);
    expect(b[0][4]).toBe("20732.66000000");
    const idx = JSON.parse(
      env.api.fetch({
        venue: "binance-index",
        path: "/fapi/v1/indexPriceKlines",
        params: { pair: "BTCUSDT", interval: "1h", limit: 1 },
        timeout_s: 10,
      }).body,
    );
    expect(idx[0][5]).toBe("0");
    expect(idx[0][8]).toBe(3600);
    expect(
      env.api.fetch({
        venue: "binanceus",
        path: "/api/v3/klines",
        params: { symbol: "BTCUSDC", interval: "5m" },
        timeout_s: 10,
      }).body,
    ).toBe('{"code":-1120,"msg":"Invalid interval."}');
  });
});
