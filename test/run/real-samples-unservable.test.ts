/**
 * The tasks the shared real samples cannot serve, and why, pinned (skipped when
 * ../shared/data/raw is absent). Each import is real; the run is refused by the world check
 * (src/run/world-check.ts) naming the missing stream, so no degenerate score is ever reported:
 * - breakout-news and resolution-detect on the Betting-on-War Polymarket world: it has 61
 *   breakpoints and 4 determinations (t_det) but no news, and no news sample overlaps its prices
 *   (2022-12-17 → 2024-01-01; the headlines end 2022-07-11, the WARC articles are 2020–2022): a
 *   notify must cite an article, and resolution-detect's agent sees no prices, only news;
 * - popularity and daily-digest on the Arctic Shift / Pushshift lines: 31 posts from 2005–2024,
 *   none of the 27 comments belongs to one of them, so no cascade reaches 50 and no digest day is
 *   ready.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { importPolymarket } from "../../src/ingest/polymarket-world.js";
import { importRedditDumps } from "../../src/ingest/reddit-ndjson.js";
import { RAW_DIR as DEFAULT_RAW, run } from "./helpers.js";

const RAW_DIR = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const BOW = join(RAW_DIR, "polymarket-betting-on-war");
const RD = join(RAW_DIR, "reddit-arcticshift-pushshift-importer");
const present = existsSync(join(BOW, "polymarket_prices.csv")) && existsSync(join(RD, "test_submissions.json"));
if (!present) console.warn(`skipping the unservable-samples tests: samples not found under ${RAW_DIR}`);

const root = mkdtempSync(join(tmpdir(), "relive-unservable-"));

const refusal = (task: string, dir: string, task_params: Record<string, unknown> = {}) =>
  run({ task, world: { dir }, task_params, agent: { model: "scripted:silent" } }).then(
    () => "ran",
    (e: Error) => e.message,
  );

describe.skipIf(!present)("real samples that cannot serve a task are refused, naming what is missing", () => {
  const pm = join(root, "bow");
  const rd = join(root, "reddit");
  beforeAll(async () => {
    const p = await importPolymarket([join(BOW, "polymarket_markets.csv"), join(BOW, "polymarket_prices.csv")], pm, {
      name: "pm-betting-on-war",
    });
    expect(p.counts).toMatchObject({ breakpoints: 61, t_det: 4, resolved: 4 });
    const r = await importRedditDumps([join(RD, "test_submissions.json"), join(RD, "test_comments.json")], rd, {
      name: "reddit-pushshift-lines",
    });
    expect(r.counts).toMatchObject({ posts: 31, comments: 0, posts_reaching_50: 0, digest_days_ready: 0 });
  }, 300_000);

  it("breakout-news and resolution-detect on the Polymarket CSV world: no news", async () => {
    for (const task of ["breakout-news", "resolution-detect"])
      expect(await refusal(task, pm)).toMatch(
        new RegExp(`world "pm-betting-on-war"\\) cannot serve task ${task}:\\n  - it has no news rows`),
      );
  });

  it("popularity and daily-digest on the Pushshift lines: no comment of any imported post", async () => {
    for (const task of ["popularity", "daily-digest"])
      expect(await refusal(task, rd)).toMatch(
        new RegExp(`world "reddit-pushshift-lines"\\) cannot serve task ${task}:\\n  - it has no reddit_comment rows`),
      );
  });
});
