/**
 * filing-tracker on a company imported without companyfacts: the real Murphy Oil submissions file
 * (../shared/data/raw/edgar-submissions-murphy-raw; skipped when absent).
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEdgarWorld } from "../../../src/ingest/edgar-world.js";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import { FilingDuties } from "../../../src/tasks/filing-tracker/filing-duties.js";
import { defaultFilingTrackerParams } from "../../../src/tasks/filing-tracker/params.js";
import { goldRecord } from "../../../src/tasks/filing-tracker/policies.js";
import { FILING_TRACKER_SCORER_VERSION, FilingTrackerScorer } from "../../../src/tasks/filing-tracker/scorer.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { RAW_DIR as DEFAULT_RAW } from "../../run/helpers.js";

const RAW_DIR = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const MURPHY = "edgar-submissions-murphy-raw/CIK0000717423.json";
const present = existsSync(join(RAW_DIR, MURPHY));
if (!present) console.warn(`skipping filing-tracker without-facts tests: ${join(RAW_DIR, MURPHY)} not found`);

const START = Date.parse("2022-04-01T00:00:00Z");
const END = Date.parse("2022-09-01T00:00:00Z");
const REASON =
  "fy, fp, revenue, eps_diluted not gradable: no companyfacts imported for CIK 0000717423 (submissions only): 10-Q/10-K values have no gold";

describe.skipIf(!present)("filing-tracker without companyfacts (Murphy Oil, real submissions)", () => {
  let world: WorldStore;
  let truth: TruthStore;
  beforeAll(() => {
    const dir = join(mkdtempSync(join(tmpdir(), "relive-mur-")), "world");
    buildEdgarWorld(RAW_DIR, dir, {
      name: "mur-2022",
      builder: "mur-2022",
      builder_version: "1",
      window: { start: START, end: END },
      companies: [{ submissions: MURPHY }],
    });
    world = WorldStore.open(dir);
    truth = TruthStore.open(dir);
  });
  afterAll(() => {
    world.close();
    truth.close();
  });

  /** every duty read and saved 1 minute after acceptance; 10-Q values deliberately wrong (they have no gold) */
  function score() {
    const duties = new FilingDuties(world.db, defaultFilingTrackerParams()).duties(START, END);
    const events: LedgerEvent[] = [];
    let seq = 0;
    for (const d of duties) {
      const t = d.accepted_at + 60_000;
      events.push({
        seq: seq++,
        type: "tool_call",
        t,
        actor: "agent",
        tool: "http_get",
        args: { host: "sec", path: `/submissions/CIK${d.cik}.json` },
        status: "ok",
        cost_usd: 0,
        domain: "web",
      });
      const rec = goldRecord(d);
      const args = d.form === "8-K" ? rec : { ...rec, fy: 1999, fp: "Q4", revenue: 1, eps_diluted: -7 };
      events.push({ seq: seq++, type: "commitment", t, actor: "agent", tool: "record_filing", args });
    }
    const s = new FilingTrackerScorer({ sim_start: START, sim_end: END, world, truth, params: {} });
    for (const e of events) s.onEvent(e);
    return { duties, outcomes: s.settle(END), report: s.report() };
  }

  it("8-K and 10-Q duties are graded on accession, form and acceptance; 10-Q values are not_scorable saying why", () => {
    expect(FILING_TRACKER_SCORER_VERSION).toBe("filing-tracker-scorer/2");
    const { duties, outcomes, report } = score();
    expect(duties.map((d) => [d.form, d.accession])).toEqual([
      ["8-K", "0000717423-22-000037"],
      ["10-Q", "0000717423-22-000040"],
      ["8-K", "0000717423-22-000059"],
      ["10-Q", "0000717423-22-000061"],
    ]);
    expect(outcomes.map((o) => [o.key, o.status])).toEqual([
      ["MUR:0000717423-22-000037", "ok"],
      ["MUR:0000717423-22-000040", "ok"],
      ["MUR:0000717423-22-000059", "ok"],
      ["MUR:0000717423-22-000061", "ok"],
    ]);
    expect(report.primary.value).toBe(1);
    expect(report.not_scorable).toEqual([
      { key: "MUR:0000717423-22-000040:values", reason: REASON },
      { key: "MUR:0000717423-22-000061:values", reason: REASON },
    ]);
  });

  it("a wrong acceptance time is still wrong for such a company", () => {
    const duties = new FilingDuties(world.db, defaultFilingTrackerParams()).duties(START, END);
    const q = duties.find((d) => d.form === "10-Q")!;
    const t = q.accepted_at + 60_000;
    const s = new FilingTrackerScorer({ sim_start: START, sim_end: END, world, truth, params: {} });
    s.onEvent({
      seq: 0,
      type: "tool_call",
      t,
      actor: "agent",
      tool: "http_get",
      args: { host: "sec", path: `/submissions/CIK${q.cik}.json` },
      status: "ok",
      cost_usd: 0,
      domain: "web",
    });
    const rec = goldRecord(q);
    s.onEvent({
      seq: 1,
      type: "commitment",
      t,
      actor: "agent",
      tool: "record_filing",
      args: { ...rec, accepted_at: new Date(q.accepted_at + 3_600_000).toISOString() },
    });
    const o = s.settle(END).find((x) => x.key === q.key)!;
    expect([o.status, o.detail.mismatched]).toEqual(["wrong", ["accepted_at"]]);
  });
});
