/** Validity guards for `--world DIR`: streams the task needs, the episode window, the world as the episode. */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRunConfig } from "../../src/run/config.js";
import { ConfigError } from "../../src/run/config-error.js";
import { resolveRun } from "../../src/run/resolve-run.js";
import { missingStreams, requiredStreams, uncoveredWindow } from "../../src/run/world-check.js";
import { ensureSynthWorld } from "../../src/synth/synth-world.js";
import { getTask } from "../../src/tasks/registry.js";
import type { NewsRow } from "../../src/world/types.js";
import { WorldBuilder } from "../../src/world/world-builder.js";
import { readWorldManifest } from "../../src/world/world-store.js";
import { CACHE_DIR, freshRunsDir, options, REPO, run } from "./helpers.js";

const D = (s: string) => Date.parse(`${s}T00:00:00Z`);

/** a one-day world holding news only (2026-03-01) */
function newsOnlyWorld(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "relive-newsonly-")), "world");
  const b = WorldBuilder.create(dir, {
    name: "news-only-1d",
    window: { start: D("2026-03-01"), end: D("2026-03-02") },
    builder: "test",
    builder_version: "1",
  });
  const rows: NewsRow[] = [0, 1, 2].map((i) => ({
    id: `n${i}`,
    url: `https://news.test/${i}`,
    domain: "news.test",
    title: `Headline ${i}`,
    text: `Body ${i}.`,
    published_at: D("2026-03-01") + i * 3_600_000,
    visible_at: D("2026-03-01") + i * 3_600_000,
  }));
  b.insert("news", rows);
  b.finish();
  return dir;
}

const resolveWith = (cfg: Record<string, unknown>) =>
  resolveRun(parseRunConfig(cfg), { runsDir: freshRunsDir(), cacheDir: CACHE_DIR, allowOracle: true });

describe("world validity guards", () => {
  const newsOnly = newsOnlyWorld();

  it("required streams: a task's streams minus its optional ones", () => {
    expect(requiredStreams(getTask("breakout-news"))).toEqual(["market", "market_price", "news"]);
    expect(requiredStreams(getTask("open-forecast"))).toEqual(["question", "question_resolution"]);
    expect(requiredStreams(getTask("filing-tracker"))).toEqual(["company", "filing", "broker_event"]);
    expect(missingStreams(getTask("breakout-news"), readWorldManifest(newsOnly))).toEqual(["market", "market_price"]);
  });

  it("uncovered window: the spans before the world starts and after it ends", () => {
    const m = readWorldManifest(newsOnly);
    expect(uncoveredWindow({ start: D("2026-03-01"), end: D("2026-03-02") }, m)).toEqual([]);
    expect(uncoveredWindow({ start: D("2026-02-27"), end: D("2026-03-04") }, m)).toEqual([
      "2026-02-27 → 2026-03-01 (before the world starts)",
      "2026-03-02 → 2026-03-04 (after the world ends)",
    ]);
    expect(uncoveredWindow({ start: D("2026-03-05"), end: D("2026-03-06") }, m)).toEqual([
      "2026-03-05 → 2026-03-06 (after the world ends)",
    ]);
  });

  it("refuses a news-only world for breakout-news, naming the missing streams; the default window is the world's", () => {
    let err: unknown;
    try {
      resolveWith({ task: "breakout-news", world: { dir: newsOnly } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(
      `world.dir ${newsOnly} (world "news-only-1d") cannot serve task breakout-news:\n` +
        "  - it has no market, market_price rows (task breakout-news needs market, market_price, news; the world has news 3)",
    );
  });

  it("refuses a named episode the world does not cover, saying which part is missing", () => {
    expect(() => resolveWith({ task: "breakout-news", episode: "synth-7d", world: { dir: newsOnly } })).toThrow(
      /does not cover the episode window 2026-03-01 → 2026-03-08: missing 2026-03-02 → 2026-03-08 \(after the world ends\); the world covers 2026-03-01 → 2026-03-02/,
    );
  });

  it("with a world and no episode the run uses the world's window and names the world", async () => {
    const start = D("2026-03-01");
    const end = D("2026-03-03");
    const dir = ensureSynthWorld(join(CACHE_DIR, "synth"), { seed: 7, start, end });
    const name = readWorldManifest(dir).name;
    const res = await run({ task: "price-check", world: { dir } }, options());
    expect(res.results.episode).toBe(name);
    expect([res.results.sim_start, res.results.sim_end]).toEqual([
      "2026-03-01T00:00:00.000Z",
      "2026-03-03T00:00:00.000Z",
    ]);
    // an explicit window inside the world is still accepted, and one outside it refused
    expect(() =>
      resolveWith({ task: "price-check", sim_start: "2026-03-02", sim_end: "2026-03-05", world: { dir } }),
    ).toThrow(/missing 2026-03-03 → 2026-03-05 \(after the world ends\)/);
  }, 900_000);

  it("`relive run --task breakout-news --world <news-only>` exits 2 naming the missing streams", () => {
    const r = spawnSync(
      process.execPath,
      [join(REPO, "bin/relive.js"), "run", "--task", "breakout-news", "--world", newsOnly, "--runs", freshRunsDir()],
      { encoding: "utf8", cwd: REPO },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("it has no market, market_price rows");
    expect(r.stderr).not.toContain("    at ");
  }, 900_000);
});
