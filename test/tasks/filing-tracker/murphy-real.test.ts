/**
 * filing-tracker real episode on a second company: Murphy Oil's real submissions file
 * (../shared/data/raw/edgar-submissions-murphy-raw, no companyfacts; skipped when absent), imported
 * with buildEdgarWorld into a temp dir and run with `world: {dir}` over the Q2 2022 results
 * (8-K with items 2.02, 9.01 and the 10-Q, both accepted 2022-08-04 before the open, New York time). The perfect client and the silent floor are pinned.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildEdgarWorld } from "../../../src/ingest/edgar-world.js";
import { RAW_DIR as DEFAULT_RAW, run } from "../../run/helpers.js";

const RAW_DIR = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const MURPHY = "edgar-submissions-murphy-raw/CIK0000717423.json";
const present = existsSync(join(RAW_DIR, MURPHY));
if (!present) console.warn(`skipping filing-tracker Murphy real episode: ${join(RAW_DIR, MURPHY)} not found`);

const dir = join(mkdtempSync(join(tmpdir(), "relive-mur-run-")), "world");
const SIM_START = "2022-08-01T00:00:00Z";
const SIM_END = "2022-08-12T00:00:00Z";

const episode = (policy: string, portal_mode: "api" | "browser") =>
  run({
    task: "filing-tracker",
    world: { dir },
    sim_start: SIM_START,
    sim_end: SIM_END,
    task_params: { portal_mode },
    agent: { model: `scripted:${policy}` },
  });

describe.skipIf(!present)("filing-tracker on Murphy Oil (real submissions, no companyfacts)", () => {
  beforeAll(() => {
    buildEdgarWorld(RAW_DIR, dir, {
      name: "edgar-murphy-2022",
      builder: "edgar-murphy-2022",
      builder_version: "1",
      window: { start: Date.parse("2022-07-01T00:00:00Z"), end: Date.parse("2022-09-01T00:00:00Z") },
      companies: [{ submissions: MURPHY }],
    });
  });

  it("perfect client and silent, through the api and the browser portal", async () => {
    const got: Record<string, unknown> = {};
    for (const mode of ["api", "browser"] as const)
      for (const policy of ["perfect-client", "silent"]) {
        const r = (await episode(policy, mode)).results;
        got[`${policy}/${mode}`] = {
          primary: r.performance.primary.value,
          outcomes: r.outcomes.map((o) => [o.key, o.status]),
          not_scorable: r.not_scorable.map((n) => n.reason),
        };
      }
    // the 10-Q's fy, fp, revenue and EPS have no gold without companyfacts: scored on accession,
    // form and acceptance only, its values one not_scorable item saying why
    const noFacts = [expect.stringMatching(/no companyfacts imported for CIK 0000717423/)];
    const ok = [
      ["MUR:0000717423-22-000059", "ok"],
      ["MUR:0000717423-22-000061", "ok"],
    ];
    const miss = ok.map(([k]) => [k, "miss"]);
    for (const mode of ["api", "browser"]) {
      expect(got[`perfect-client/${mode}`]).toEqual({ primary: 1, outcomes: ok, not_scorable: noFacts });
      expect(got[`silent/${mode}`]).toEqual({ primary: 0, outcomes: miss, not_scorable: noFacts });
    }
  }, 900_000);
});
