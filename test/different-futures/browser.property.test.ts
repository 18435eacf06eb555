/**
 * Different futures (DESIGN invariant 2) through the browser, as the agent sees the pages: the
 * filing tracker in its default browser mode on headless Chromium (the Debian package; skipped with a
 * message when absent), on the synthetic world of seed 1 and the same world re-drawn after a cut T.
 * Random navigations to the SEC replay, the blotter and the portal, snapshots, and form fills at
 * times ≤ T give byte-identical tool results and ledgers (web effects included).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SYNTH_COMPANIES } from "../../src/synth/filings.js";
import { chromiumMissing } from "../../src/tools/browser/launch.js";
import { checkDifferentFutures, probeTimes, synthFuturesPair } from "../support/different-futures.js";
import type { Probe } from "../support/leakage.js";

const H = 3_600_000;
const D = 86_400_000;
const START = Date.parse("2026-03-01T00:00:00Z");
const END = Date.parse("2026-03-05T00:00:00Z");
const CUT = START + 2 * D + 13 * H + 17 * 60_000;
const TIMES = 2;
const CALLS = 40;

const missing = chromiumMissing();
if (missing) console.warn(`skipping the browser different-futures test: ${missing}`);

describe.skipIf(missing !== null)("different futures: filing-tracker pages in Chromium at times ≤ T", () => {
  it("navigate, snapshot and fill give the same pages in both worlds", async () => {
    const { worldA, worldB } = synthFuturesPair({ seed: 1, futureSeed: 99, start: START, end: END, cut: CUT });
    const cik = fc.constantFrom(...SYNTH_COMPANIES.map((c) => c.cik));
    const url = fc.oneof(
      fc.constantFrom(
        "http://blotter.relive.test/",
        "http://blotter.relive.test/holdings.json",
        "http://portal.relive.test/",
        "http://portal.relive.test/filings/new",
        "http://sec.relive.test/files/company_tickers.json",
      ),
      cik.map((c) => `http://sec.relive.test/submissions/CIK${c}.json`),
      cik.map((c) => `http://sec.relive.test/api/xbrl/companyconcept/CIK${c}/us-gaap/EarningsPerShareDiluted.json`),
    );
    const n = await checkDifferentFutures({
      taskId: "filing-tracker",
      worldA,
      worldB,
      cut: CUT,
      times: probeTimes(CUT, 20 * H, TIMES, 31),
      calls: fc.oneof(
        { arbitrary: url.map((u) => ["browser_navigate", { url: u }] as Probe), weight: 3 },
        { arbitrary: fc.constant(["browser_snapshot", {}] as Probe), weight: 2 },
        fc
          .constantFrom("label=Ticker", "label=Accession number", "label=Revenue (USD)", "text=Save record")
          .map((selector) => ["browser_fill", { selector, text: "NWD" }] as Probe),
      ),
      callsPerTime: CALLS,
      harness: { start: START, end: END },
    });
    expect(n.probes).toBe(TIMES * CALLS);
    expect(n.ok).toBeGreaterThanOrEqual(0.5 * n.probes);
  }, 600_000);
});
