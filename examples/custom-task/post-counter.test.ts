import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureSynthWorld, type LedgerEvent, registerTask, runEpisode, TruthStore, WorldStore } from "relive";
import { PostCounterScorer, postCounterTask } from "./post-counter.js";

registerTask(postCounterTask);
const runsDir = mkdtempSync(join(tmpdir(), "relive-post-counter-"));
const cacheDir = process.env.RELIVE_CACHE_DIR ?? join(process.cwd(), ".relive-cache");
const run = (model: string) =>
  runEpisode({ task: "post-counter", agent: { model } }, { runsDir, cacheDir, allowOracle: false });

describe("post-counter (a task defined outside relive)", () => {
  it("anchors: silent 0, the counter policy 1.0 over the 47 scored hours", async () => {
    const silent = await run("scripted:silent");
    expect(silent.results.performance.primary).toEqual({ name: "count_acc", value: 0, direction: "higher" });
    const counter = await run("scripted:counter");
    expect(counter.results.performance.primary.value).toBe(1);
    expect(counter.results.performance.hours).toBe(47);
  }, 600_000);

  it("scores a right, a wrong, a late and a missing report by hand", () => {
    const ep = postCounterTask.episodes[0]!;
    const dir = ensureSynthWorld(join(cacheDir, "synth"), { seed: 1, start: ep.sim_start, end: ep.sim_end });
    const world = WorldStore.open(dir);
    const truth = TruthStore.open(dir);
    try {
      const scorer = new PostCounterScorer({ sim_start: ep.sim_start, sim_end: ep.sim_end, world, truth, params: {} });
      const H = 3_600_000;
      const h = (i: number) => ep.sim_start + i * H;
      const count = (i: number) =>
        world.at(() => h(i + 1)).reddit.listPosts({ since: h(i), until: h(i + 1) - 1, limit: 1 }).total;
      const report = (seq: number, t: number, i: number, n: number): LedgerEvent => ({
        seq,
        type: "commitment",
        t,
        actor: "agent",
        tool: "report_count",
        args: { hour: new Date(h(i)).toISOString(), count: n },
      });
      scorer.onEvent(report(0, h(1) + 60_000, 0, count(0))); // hour 0: right, in its window
      scorer.onEvent(report(1, h(2) + 60_000, 1, count(1) + 1)); // hour 1: wrong count
      scorer.onEvent(report(2, h(4), 2, count(2))); // hour 2: after its window closed (ignored)
      const out = scorer.settle(h(5));
      expect(out.map((o) => o.status)).toEqual(["ok", "wrong", "miss", "miss"]);
      expect(out.map((o) => o.t)).toEqual([h(2), h(3), h(4), h(5)]);
      expect(out[1]!.detail).toEqual({ truth: count(1), reported: count(1) + 1 });
      scorer.settle(ep.sim_end);
      expect(scorer.report().primary.value).toBe(1 / 47);
    } finally {
      world.close();
      truth.close();
    }
  });
});
