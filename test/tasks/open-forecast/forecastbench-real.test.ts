/**
 * open-forecast real episodes on the two shared ForecastBench sets (../shared/data/raw/forecastbench;
 * skipped when absent), each imported with buildForecastBenchWorld into a temp dir (not through the
 * recipe) and run with `world: {dir}` over its first 9 days, through the first resolution horizon:
 * the honest base-rate-news heuristic, the crowd and the silent floor, pinned exactly.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildForecastBenchWorld } from "../../../src/ingest/forecastbench.js";
import { RAW_DIR as DEFAULT_RAW, run } from "../../run/helpers.js";

const RAW_DIR = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const FB = join(RAW_DIR, "forecastbench");
const DUES = ["2026-01-04", "2026-01-18"] as const;
const present = DUES.every(
  (d) => existsSync(join(FB, `${d}-llm.json`)) && existsSync(join(FB, `${d}_resolution_set.json`)),
);
if (!present) console.warn(`skipping open-forecast ForecastBench real episodes: sets not found under ${FB}`);

const DAY = 86_400_000;

const PINNED: Record<(typeof DUES)[number], Record<string, [number, number]>> = {
  "2026-01-04": { "base-rate-news": [236, 11800], crowd: [236, 0], silent: [236, 0] },
  "2026-01-18": { "base-rate-news": [250, 13978.741714285701], crowd: [250, 799.9835], silent: [250, 0] },
};

describe.skipIf(!present)("open-forecast on imported ForecastBench sets, first 9 days", () => {
  for (const due of DUES)
    it(`set due ${due}: base-rate-news, crowd, silent`, async () => {
      const dir = join(mkdtempSync(join(tmpdir(), "relive-fb-real-")), "world");
      buildForecastBenchWorld(
        { questionSet: join(FB, `${due}-llm.json`), resolutionSet: join(FB, `${due}_resolution_set.json`) },
        dir,
        { name: `forecastbench-${due}` },
      );
      const sim_start = `${due}T00:00:00Z`;
      const sim_end = new Date(Date.parse(sim_start) + 9 * DAY).toISOString();
      const got: Record<string, unknown> = {};
      for (const policy of ["base-rate-news", "crowd", "silent"]) {
        const r = (
          await run({
            task: "open-forecast",
            world: { dir },
            sim_start,
            sim_end,
            agent: { model: `scripted:${policy}` },
          })
        ).results;
        got[policy] = [r.performance.questions_scored, r.performance.primary.value];
      }
      // [questions scored, tw_score]; a forecast of 0.5 earns 50 a question. Set 01-04: no answer is
      // public before its first horizon (01-11), so base-rate-news forecasts 0.5 everywhere and no
      // scored question is a market question the crowd forecasts; in set 01-18 the crowd values of the market questions resolving by 01-27 move both off 0.5
      expect(got).toEqual(PINNED[due]);
    }, 900_000);
});
