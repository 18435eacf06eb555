import { readFileSync } from "node:fs";
import { join } from "node:path";
import { options, run } from "../run/helpers.js";

/** A finished scripted run made by the real runner (3 simulated days of daily-digest). */
export interface RealRun {
  runsDir: string;
  runDir: string;
  config: Record<string, unknown>;
  results: Record<string, unknown>;
}

/** Runs daily-digest with its heuristic policy over 3 simulated days into `runsDir` (a few seconds). */
export async function makeRealRun(runsDir: string): Promise<RealRun> {
  const res = await run(
    {
      task: "daily-digest",
      sim_start: "2026-03-01T00:00:00Z",
      sim_end: "2026-03-04T00:00:00Z",
      agent: { model: "scripted:top-comments" },
    },
    options(runsDir),
  );
  return {
    runsDir,
    runDir: res.runDir,
    config: JSON.parse(readFileSync(join(res.runDir, "config.json"), "utf8")),
    results: JSON.parse(readFileSync(join(res.runDir, "results.json"), "utf8")),
  };
}
