/**
 * forecast-portfolio on worlds imported from the real Polymarket samples (../shared/data/raw/
 * polymarket-*; skipped when absent): the honest news forecaster and the silent floor, pinned.
 * Neither sample has news of its window (no news sample overlaps 2023 or 2026), so the forecaster
 * runs on the question texts and schedules alone; see the task README "Real episodes".
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { importPolymarket } from "../../../src/ingest/polymarket-world.js";
import type { Results } from "../../../src/run/results.js";
import { RAW_DIR as DEFAULT_RAW, run } from "../../run/helpers.js";

const RAW_DIR = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const BOW = join(RAW_DIR, "polymarket-betting-on-war");
const WOM = join(RAW_DIR, "polymarket-wom-raw-api");
const present = existsSync(join(BOW, "polymarket_prices.csv")) && existsSync(join(WOM, "gamma_markets_raw_600.json"));
if (!present) console.warn(`skipping forecast-portfolio real episodes: Polymarket samples not found under ${RAW_DIR}`);

/** the Yes token of market 824952, whose CLOB history is in the sample (SOURCES.md) */
const WOM_TOKEN = "111128191581505463501777127559667396812474366956707382672202929745167742497287";

const root = mkdtempSync(join(tmpdir(), "relive-fp-real-"));
const bowDir = join(root, "bow");
const womDir = join(root, "wom");

async function episode(dir: string, sim_start: string, sim_end: string, policy: string): Promise<Results> {
  const res = await run({
    task: "forecast-portfolio",
    world: { dir },
    sim_start,
    sim_end,
    // real market ids carry no synthetic `ld-` prefix: every binary market is a question
    task_params: { market_prefix: "" },
    agent: { model: `scripted:${policy}`, trigger: "sleep" },
  });
  return res.results;
}

const metric = (r: Results, k: string) => r.performance[k];

describe.skipIf(!present)("forecast-portfolio real episodes (imported Polymarket samples)", () => {
  beforeAll(async () => {
    await importPolymarket([join(BOW, "polymarket_markets.csv"), join(BOW, "polymarket_prices.csv")], bowDir, {
      name: "pm-betting-on-war",
    });
    await importPolymarket(
      ["gamma_markets_raw_600.json", "active_market.json", "gamma_market_condition.json"].map((f) => join(WOM, f)),
      womDir,
      { name: "pm-wom-gamma", clob: [{ token: WOM_TOKEN, file: join(WOM, "active_prices_max.json") }] },
    );
  }, 300_000);

  it("Betting-on-War CSV, 2023-06-24 → 07-01: 4 questions resolving 07-01; no news and no end date: the forecaster stays uniform", async () => {
    const start = "2023-06-24T00:00:00Z";
    const end = "2023-07-02T00:00:00Z";
    const heur = await episode(bowDir, start, end, "news-forecaster");
    const silent = await episode(bowDir, start, end, "silent");
    expect(heur.episode).toBe("pm-betting-on-war");
    expect(metric(heur, "questions_scored")).toBe(4);
    expect(metric(heur, "base_rate")).toBe(0.5);
    expect(metric(heur, "questions_forecast")).toBe(4);
    // the CSV has no end_date: every market's scheduled end is the import's horizon (2024-01-01), so
    // the deadline prior never moves off 0.5 and, without news, the heuristic is the uniform floor.
    // (With the market's own last price point as its end, as before the leak fix, it scored
    // -0.2824361863882725: the prior read the markets' true deadline from data the agent must not see.)
    expect(heur.performance.primary).toMatchObject({ name: "bss", value: 0 });
    expect(metric(heur, "ta_bss")).toBe(0.5);
    expect(silent.performance.primary).toMatchObject({ name: "bss", value: 0 });
    expect(metric(silent, "questions_scored")).toBe(4);
  }, 900_000);

  it("Gamma dump + MicroStrategy event + CLOB history, 2026-01-12 → 01-18: 20 questions resolving in the week", async () => {
    const start = "2026-01-12T00:00:00Z";
    const end = "2026-01-19T00:00:00Z";
    const heur = await episode(womDir, start, end, "news-forecaster");
    const silent = await episode(womDir, start, end, "silent");
    expect(heur.episode).toBe("pm-wom-gamma");
    expect(metric(heur, "questions_scored")).toBe(20);
    expect(metric(heur, "base_rate")).toBe(0.25);
    expect(metric(heur, "questions_forecast")).toBe(20);
    expect(heur.performance.primary).toMatchObject({ name: "bss", value: -0.22360643551442272 });
    expect(silent.performance.primary).toMatchObject({ name: "bss", value: -0.33333333333333326 });
  }, 900_000);

  it("the shipped recipe episode polymarket-wom-2026-01 is the same week of the same world: the same score", async () => {
    const r = await run({
      task: "forecast-portfolio",
      episode: "polymarket-wom-2026-01",
      agent: { model: "scripted:news-forecaster" },
    });
    expect(r.results.episode).toBe("polymarket-wom-2026-01");
    expect(metric(r.results, "questions_scored")).toBe(20);
    expect(r.results.performance.primary).toMatchObject({ name: "bss", value: -0.22360643551442272 });
  }, 900_000);
});
