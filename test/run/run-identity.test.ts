import { describe, expect, it } from "vitest";
import { parseRunConfig } from "../../src/run/config.js";
import { resolveRun } from "../../src/run/resolve-run.js";
import { CACHE_DIR, freshRunsDir } from "./helpers.js";

const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-02T00:00:00Z" };
const idOf = (raw: Record<string, unknown>) =>
  resolveRun(parseRunConfig({ task: "daily-digest", ...WINDOW, ...raw }), {
    runsDir: freshRunsDir(),
    cacheDir: CACHE_DIR,
  }).runId;

describe("run identity: one resolved config + seed is one run", () => {
  it("defaults written out and left out give the same run id", () => {
    const implicit = idOf({});
    expect(idOf({ agent: { model: "scripted:top-comments" } })).toBe(implicit);
    expect(idOf({ episode: "synth-28d" })).toBe(implicit);
    expect(idOf({ budget_usd: 20 })).toBe(implicit);
    expect(idOf({ world: { seed: 1 } })).toBe(implicit);
    expect(idOf({ task_params: { window_minutes: 60 } })).toBe(implicit);
    // the seed is a label, outside the id; a changed setting is another run
    expect(idOf({ seed: 3 })).toBe(implicit);
    expect(idOf({ agent: { model: "scripted:silent" } })).not.toBe(implicit);
    expect(idOf({ world: { seed: 2 } })).not.toBe(implicit);
  }, 600_000);
});
