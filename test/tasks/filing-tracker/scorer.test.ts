import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../../src/ledger/events.js";
import { FilingDuties } from "../../../src/tasks/filing-tracker/filing-duties.js";
import { defaultFilingTrackerParams } from "../../../src/tasks/filing-tracker/params.js";
import { goldRecord } from "../../../src/tasks/filing-tracker/policies.js";
import { FilingTrackerScorer } from "../../../src/tasks/filing-tracker/scorer.js";
import { TruthStore } from "../../../src/world/truth-store.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { AAA, ACC, BBB, buildTinyWorld, END, START, T } from "./tiny-world.js";

const MIN = 60_000;
const iso = (t: number) => new Date(t).toISOString();
const SUB = (cik: string) => `/submissions/CIK${cik}.json`;

let world: WorldStore;
let truth: TruthStore;
beforeAll(() => {
  const dir = buildTinyWorld();
  world = WorldStore.open(dir);
  truth = TruthStore.open(dir);
});
afterAll(() => {
  world.close();
  truth.close();
});

/** a ledger built by hand: reads, API saves and browser form posts */
function ledger() {
  const events: LedgerEvent[] = [];
  let seq = 0;
  const b = {
    read(t: number, path: string, host = "sec") {
      events.push({
        seq: seq++,
        type: "tool_call",
        t,
        actor: "agent",
        tool: "http_get",
        args: { host, path },
        status: "ok",
        cost_usd: 0,
        domain: "web",
      });
      return b;
    },
    save(t: number, args: Record<string, unknown>) {
      events.push({ seq: seq++, type: "commitment", t, actor: "agent", tool: "record_filing", args });
      return b;
    },
    browser(t: number, effects: unknown[]) {
      events.push({
        seq: seq++,
        type: "commitment",
        t,
        actor: "agent",
        tool: "browser_click",
        args: { ref: "e9", effects },
      });
      return b;
    },
    score(params: unknown = {}) {
      const s = new FilingTrackerScorer({ sim_start: START, sim_end: END, world, truth, params });
      for (const e of events) s.onEvent(e);
      const outcomes = s.settle(END);
      return { outcomes, report: s.report(), status: Object.fromEntries(outcomes.map((o) => [o.key, o.status])) };
    },
  };
  return b;
}

const K = { a8k: `AAA:${ACC.aaa8k}`, aQ: `AAA:${ACC.aaaQ}`, bK: `BBB:${ACC.bbbK}` };
const gold = () => {
  const d = new FilingDuties(world.db, defaultFilingTrackerParams()).duties(START, END);
  return Object.fromEntries(d.map((x) => [x.key, goldRecord(x)])) as Record<string, Record<string, unknown>>;
};
/** a perfect ledger: read, then save the gold row, 1 minute after each acceptance */
const perfect = () =>
  ledger()
    .read(T.aaa8k + MIN, SUB(AAA.cik))
    .save(T.aaa8k + MIN, gold()[K.a8k]!)
    .read(T.aaaQ + MIN, `/api/xbrl/companyconcept/CIK${AAA.cik}/us-gaap/Revenues.json`)
    .save(T.aaaQ + MIN, gold()[K.aQ]!)
    .read(T.bbbK + MIN, `/api/xbrl/companyfacts/CIK${BBB.cik}.json`)
    .save(T.bbbK + MIN, gold()[K.bK]!);

describe("filing-tracker scorer", () => {
  it("duties: held companies' 8-K 2.02, 10-Q, 10-K; deadlines at the next NYSE open; gold from facts by tag priority", () => {
    const duties = new FilingDuties(world.db, defaultFilingTrackerParams()).duties(START, END);
    expect(duties.map((d) => [d.key, iso(d.deadline)])).toEqual([
      [K.a8k, "2026-03-04T14:30:00.000Z"],
      [K.aQ, "2026-03-04T14:30:00.000Z"],
      [K.bK, "2026-03-06T14:30:00.000Z"],
      [`BBB:${ACC.bbb8kLate}`, "2026-03-09T13:30:00.000Z"],
    ]);
    // Revenues wins over RevenueFromContract… for AAA; BBB's 10-K has only the latter; the 12-month EPS, not the quarter's
    expect(duties[1]!.gold).toEqual({
      fy: 2026,
      fp: "Q1",
      revenue: 1e9,
      revenue_concept: "Revenues",
      eps_diluted: 1.23,
    });
    expect(duties[2]!.gold).toEqual({
      fy: 2025,
      fp: "FY",
      revenue: 5e9,
      revenue_concept: "RevenueFromContractWithCustomerExcludingAssessedTax",
      eps_diluted: 4.56,
    });
    expect(duties[0]!.gold).toEqual({ fy: null, fp: null, revenue: null, revenue_concept: null, eps_diluted: null });
  });

  it("anchors: perfect 1.0, silent 0.0; the duty settling after the window is not_scorable", () => {
    const p = perfect().score();
    expect(p.report.primary).toEqual({ name: "filing_score", value: 1, direction: "higher" });
    expect(p.outcomes.map((o) => [o.key, o.t, o.status, o.credit])).toEqual([
      [K.a8k, Date.parse("2026-03-04T14:30:00Z"), "ok", 1],
      [K.aQ, Date.parse("2026-03-04T14:30:00Z"), "ok", 1],
      [K.bK, Date.parse("2026-03-06T14:30:00Z"), "ok", 1],
    ]);
    expect(p.outcomes[1]!.detail).toEqual({
      ticker: "AAA",
      accession: ACC.aaaQ,
      form: "10-Q",
      accepted_at: iso(T.aaaQ),
      deadline: "2026-03-04T14:30:00.000Z",
      saved_at: iso(T.aaaQ + MIN),
      reaction_h: 1 / 60,
      mismatched: [],
      evidence: true,
    });
    expect(p.report.not_scorable).toEqual([{ key: `BBB:${ACC.bbb8kLate}`, reason: "settles after window" }]);
    const s = ledger().score();
    expect(s.report.primary.value).toBe(0);
    expect(Object.values(s.status)).toEqual(["miss", "miss", "miss"]);
    expect(s.report.metrics).toMatchObject({ duties: 3, ok: 0, miss: 3, sec_reads: 0, saves: 0 });
  });

  it("tolerances: acceptance ±60 s, revenue ±0.05%, EPS ±0.005; fy, fp and form exactly", () => {
    const g = gold()[K.aQ]!;
    const at = (dt: number) => iso(T.aaaQ + dt);
    const one = (row: Record<string, unknown>) =>
      ledger()
        .read(T.aaaQ + MIN, SUB(AAA.cik))
        .save(T.aaaQ + MIN, row)
        .score().outcomes[1]!;
    expect(one({ ...g, accepted_at: at(60_000) }).status).toBe("ok");
    expect(one({ ...g, accepted_at: at(-60_000) }).status).toBe("ok");
    expect(one({ ...g, accepted_at: at(61_000) }).detail.mismatched).toEqual(["accepted_at"]);
    expect(one({ ...g, revenue: 1e9 * 1.0005 }).status).toBe("ok");
    expect(one({ ...g, revenue: 1e9 * 1.0006 }).detail.mismatched).toEqual(["revenue"]);
    expect(one({ ...g, eps_diluted: 1.235 }).status).toBe("ok");
    expect(one({ ...g, eps_diluted: 1.225 }).status).toBe("ok");
    expect(one({ ...g, eps_diluted: 1.236 }).detail.mismatched).toEqual(["eps_diluted"]);
    expect(one({ ...g, fy: 2025, fp: "Q2" }).detail.mismatched).toEqual(["fy", "fp"]);
    expect(one({ ...g, form: "10-K" }).status).toBe("wrong");
    expect(one({ ...g, revenue: null }).detail.mismatched).toEqual(["revenue"]);
    // the EDGAR stamp read as if it were UTC: off by the New York offset
    expect(one({ ...g, accepted_at: "2026-03-04T08:15:00Z" }).detail.mismatched).toEqual(["accepted_at"]);
    // an 8-K is scored on form and acceptance only
    const k = ledger()
      .read(T.aaa8k, SUB(AAA.cik))
      .save(T.aaa8k, { ...gold()[K.a8k]!, fy: 1999, revenue: 1 })
      .score();
    expect(k.status[K.a8k]).toBe("ok");
  });

  it("premature, last save wins, saves after the deadline do not count", () => {
    const g = gold()[K.aQ]!;
    const early = ledger()
      .read(T.aaaQ - MIN, SUB(AAA.cik))
      .save(T.aaaQ - MIN, g)
      .read(T.aaaQ + MIN, SUB(AAA.cik))
      .score();
    expect(early.status[K.aQ]).toBe("premature");
    const fixed = ledger()
      .save(T.aaaQ - MIN, g)
      .read(T.aaaQ + MIN, SUB(AAA.cik))
      .save(T.aaaQ + 2 * MIN, { ...g, eps_diluted: 9 })
      .save(T.aaaQ + 3 * MIN, g)
      .score();
    expect(fixed.status[K.aQ]).toBe("ok");
    const broken = ledger()
      .read(T.aaaQ, SUB(AAA.cik))
      .save(T.aaaQ, g)
      .save(T.aaaQ + MIN, { ...g, eps_diluted: 9 })
      .score();
    expect(broken.status[K.aQ]).toBe("wrong");
    const deadline = Date.parse("2026-03-04T14:30:00Z");
    const late = ledger()
      .read(T.aaaQ, SUB(AAA.cik))
      .save(T.aaaQ, g)
      .save(deadline, { ...g, eps_diluted: 9 })
      .score();
    expect(late.status[K.aQ]).toBe("ok");
    expect(ledger().read(deadline, SUB(AAA.cik)).save(deadline, g).score().status[K.aQ]).toBe("miss");
  });

  it("evidence: a read of that company's SEC data between acceptance and the save", () => {
    const g = gold()[K.aQ]!;
    const st = (b: ReturnType<typeof ledger>) => b.score().status[K.aQ];
    expect(st(ledger().save(T.aaaQ + MIN, g))).toBe("no_evidence");
    expect(
      st(
        ledger()
          .read(T.aaaQ - 1, SUB(AAA.cik))
          .save(T.aaaQ + MIN, g),
      ),
    ).toBe("no_evidence");
    expect(
      st(
        ledger()
          .read(T.aaaQ + MIN, SUB(BBB.cik))
          .save(T.aaaQ + MIN, g),
      ),
    ).toBe("no_evidence");
    expect(
      st(
        ledger()
          .save(T.aaaQ + MIN, g)
          .read(T.aaaQ + MIN, SUB(AAA.cik)),
      ),
    ).toBe("no_evidence");
    expect(
      st(
        ledger()
          .read(T.aaaQ + MIN, "/files/company_tickers.json")
          .save(T.aaaQ + MIN, g),
      ),
    ).toBe("no_evidence");
    expect(
      st(
        ledger()
          .read(T.aaaQ + MIN, SUB(AAA.cik), "blotter")
          .save(T.aaaQ + MIN, g),
      ),
    ).toBe("no_evidence");
    expect(
      st(
        ledger()
          .read(T.aaaQ, `${SUB(AAA.cik)}?x=1`)
          .save(T.aaaQ + MIN, g),
      ),
    ).toBe("ok");
  });

  it("browser saves come from the portal form POSTs in the web effects (re-parsed); refused or malformed posts save nothing", () => {
    const form = new URLSearchParams({
      ticker: "aaa",
      accession: ACC.aaaQ,
      form: "10-Q",
      accepted_at: "2026-03-04T13:15Z",
      fy: "2026",
      fp: "Q1",
      revenue: "$1,000,000,000",
      eps_diluted: "1.23",
    }).toString();
    const read = { kind: "request", host: "sec", method: "GET", path: SUB(AAA.cik), status: 200 };
    const post = (status: number, body: string) => ({
      kind: "request",
      host: "portal",
      method: "POST",
      path: "/filings",
      status,
      body,
    });
    const ok = ledger()
      .browser(T.aaaQ + MIN, [read, post(200, form)])
      .score();
    expect(ok.status[K.aQ]).toBe("ok");
    expect(ok.report.metrics).toMatchObject({ saves: 1, saves_invalid: 0, sec_reads: 1 });
    const refused = ledger()
      .browser(T.aaaQ + MIN, [read, post(400, form)])
      .score();
    expect(refused.status[K.aQ]).toBe("miss");
    const bad = ledger()
      .browser(T.aaaQ + MIN, [read, post(200, "ticker=AAA&form=10-Q")])
      .score();
    expect(bad.report.metrics).toMatchObject({ saves: 0, saves_invalid: 1 });
    // the same row saved through the API mode's tool is scored alike
    const api = ledger()
      .browser(T.aaaQ + MIN, [read])
      .save(T.aaaQ + MIN, gold()[K.aQ]!)
      .score();
    expect(api.status[K.aQ]).toBe("ok");
  });

  it("a window without any deadline makes filing_score not_scorable", () => {
    const s = new FilingTrackerScorer({ sim_start: START, sim_end: START + 3_600_000, world, truth, params: {} });
    s.settle(START + 3_600_000);
    expect(s.report().primary.value).toBeNull();
    expect(s.report().not_scorable).toContainEqual({
      key: "filing_score",
      reason: "no filing deadline falls inside the window",
    });
  });
});
