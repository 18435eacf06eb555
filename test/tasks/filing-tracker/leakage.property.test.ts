/**
 * R1 over every filing-tracker tool that reads the world (the web endpoints are probed in process
 * through http_get and the API-mode portal tools, not through the browser): on the full world at
 * now = c and on a copy with every row visible after c deleted, the results, rejections and ledgers
 * are byte-identical.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkLeakage, type Probe } from "../../support/leakage.js";
import { AAA, ACC, BBB, buildTinyWorld, CCC, END, START, T } from "./tiny-world.js";

const CIKS = [AAA.cik, BBB.cik, CCC.cik, "0000000099", "1", "00000000001"];
const TAGS = ["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "EarningsPerShareDiluted", "Nope"];

function calls(): fc.Arbitrary<Probe> {
  const cik = fc.constantFrom(...CIKS);
  const secPath = fc.oneof(
    fc.constant("/files/company_tickers.json"),
    cik.map((c) => `/submissions/CIK${c}.json`),
    cik.map((c) => `/api/xbrl/companyfacts/CIK${c}.json`),
    fc
      .tuple(cik, fc.constantFrom("us-gaap", "dei", "US-GAAP"), fc.constantFrom(...TAGS))
      .map(([c, tax, tag]) => `/api/xbrl/companyconcept/CIK${c}/${tax}/${tag}.json`),
    fc.constantFrom("/", "/submissions/", "/api/xbrl/frames/us-gaap/Revenues/USD/CY2025Q4.json"),
  );
  const page = {
    offset: fc.option(fc.integer({ min: 0, max: 3000 }), { nil: undefined }),
    max_chars: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }),
  };
  const clean = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const accession = fc.constantFrom(...Object.values(ACC), "0000000001-26-999999", "bad");
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ path: secPath, ...page }).map((a) => ["http_get", clean({ host: "sec", ...a })] as Probe),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({ path: fc.constantFrom("/holdings.json", "/", "/x"), ...page })
        .map((a) => ["http_get", clean({ host: "blotter", ...a })] as Probe),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom("portal", "nope", "SEC").map((host) => ["http_get", { host, path: "/" }] as Probe),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({
          ticker: fc.constantFrom("AAA", "bbb", ""),
          accession,
          form: fc.constantFrom("8-K", "10-Q", "10-K", "S-1"),
          accepted_at: fc.constantFrom("2026-03-04T13:15Z", "2026-03-04 13:15", "2026-03-03T21:05:10Z"),
          revenue: fc.option(fc.double({ min: -1e10, max: 1e10, noNaN: true }), { nil: undefined }),
        })
        .map((a) => ["record_filing", clean(a)] as Probe),
    },
    { weight: 1, arbitrary: fc.constant(["list_filings", {}] as Probe) },
  );
}

describe("R1: filing-tracker tools (API mode) leak nothing visible after now", () => {
  it("3 cuts × 500 probes give identical results on the full and the truncated world", async () => {
    const worldDir = buildTinyWorld();
    // cuts at and around visibility instants, where a leak would show first
    const cuts = [T.bbbVisible - 1, T.aaaQ, T.bbbK + 1];
    const probes = await checkLeakage({
      taskId: "filing-tracker",
      worldDir,
      calls: calls(),
      cuts,
      callsPerCut: 500,
      harness: { start: START, end: END, params: { portal_mode: "api" } },
    });
    expect(probes).toBe(1500);
  }, 900_000);
});
