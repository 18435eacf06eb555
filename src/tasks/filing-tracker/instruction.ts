import { isoDay } from "../../common/time.js";
import { HTTP_GET_DEFAULT_CHARS } from "../../tools/browser/http-get-tool.js";
import type { FilingTrackerParams } from "./params.js";

export interface InstructionInput {
  params: FilingTrackerParams;
  sim_start: number;
  sim_end: number;
  budget_usd: number;
}

const price = (usd: number, what: string) => (usd > 0 ? `$${usd} per ${what}` : "free");

/** The agent's task text, rendered with the run's window, budget, prices, tolerances and portal mode. */
export function renderInstruction(o: InstructionInput): string {
  const p = o.params;
  const browser = p.portal_mode === "browser";
  const saving = browser
    ? [
        "## The filings portal (your records)",
        "Open http://portal.relive.test/ in the browser (the browser_* tools). It lists your saved rows; " +
          '"New record" (http://portal.relive.test/filings/new) is the form: Ticker, Accession number, Form (8-K, 10-Q, ' +
          "10-K), Accepted at (UTC, e.g. 2022-10-24T10:08Z), Fiscal year, Fiscal period (Q1–Q4 or FY), Revenue (USD), " +
          'Diluted EPS (USD); "Save record" saves it. Leave fields a form does not have empty (an 8-K needs only the ' +
          "first four). Saving the same (ticker, accession) again replaces the row. The portal accepts saves only from " +
          "your browser.",
        `- Browser tools (${price(p.browser_call_usd, "acting call")}): browser_navigate(url), browser_snapshot(), ` +
          "browser_click(ref), browser_fill(ref, text), browser_select(ref, value), browser_submit(ref). Each action " +
          "returns the page's accessibility snapshot with element refs ([ref=e7]) and the simulated time it was " +
          "rendered at. The browser reaches only the hosts named here; anything else is blocked.",
      ]
    : [
        "## The filings portal (your records)",
        "Save rows with record_filing({ticker, accession, form, accepted_at, fy?, fp?, revenue?, eps_diluted?}) " +
          '(free; form is "8-K", "10-Q" or "10-K"; accepted_at in UTC with a Z, to the minute, e.g. ' +
          '"2022-10-24T10:08Z"; fp is Q1–Q4 or FY; an 8-K needs only the first four fields). Saving the same ' +
          "(ticker, accession) again replaces the row. list_filings() (free) shows your rows.",
      ];
  return [
    "# Filing tracker",
    "",
    `You run from ${isoDay(o.sim_start)} to ${isoDay(o.sim_end - 1)} (UTC, inclusive) as the filings clerk of a ` +
      "portfolio: for every company you hold, you record its SEC filings in the filings portal before the next " +
      "market open.",
    "",
    "## Your duty",
    "- The holdings blotter (http://blotter.relive.test/, JSON at /holdings.json) lists the companies you hold now. " +
      "Holdings can change during the run; a filing is your duty when its company is held at the filing's acceptance.",
    "- For each held company record every 8-K whose items include 2.02 (results of operations): ticker, accession " +
      'number, form "8-K" and the acceptance time in UTC to the minute.',
    "- Record every 10-Q and 10-K the same way plus the fiscal year (fy), the fiscal period (fp: Q1, Q2, Q3, Q4 or " +
      "FY), the revenue for the filing's period (the quarter for a 10-Q, the year for a 10-K; USD) and diluted EPS " +
      "for the same period. Amendments (8-K/A, 10-Q/A, 10-K/A) and other forms are not duties.",
    "- Deadline: before the first NYSE open (09:30 New York time) after the acceptance, on NYSE trading days only " +
      "(weekends and NYSE holidays are skipped; a filing accepted at 09:30 or later is due at the next trading day's " +
      "open).",
    "",
    "## The SEC replay (read-only)",
    "http://sec.relive.test serves the SEC EDGAR JSON API as of the current simulated time, with the real API's " +
      "paths and payload shapes: /files/company_tickers.json, /submissions/CIK##########.json (10-digit, " +
      "zero-padded CIK), /api/xbrl/companyfacts/CIK##########.json and " +
      "/api/xbrl/companyconcept/CIK##########/us-gaap/<Tag>.json. A filing, and every XBRL fact carrying its " +
      "accession, appears when the filing is accepted.",
    '- acceptanceDateTime is in EDGAR\'s own format: New York (US-Eastern) wall-clock time written with a "Z". ' +
      '"2022-02-04T20:11:27.000Z" means 20:11:27 in New York, which is 2022-02-05T01:11:27Z in true UTC. Record ' +
      "true UTC.",
    "- The figures of a 10-Q/10-K are the facts whose accn is the filing's accession, whose end is its reportDate " +
      "and whose period (end − start) is about 3 months (10-Q) or about 12 months (10-K); fy and fp are those " +
      `facts' fy and fp. Revenue tags, in order of preference: ${p.revenue_concepts.join(", ")} (unit USD). ` +
      `Diluted EPS: ${p.eps_concepts.join(", ")} (unit USD/shares).`,
    `- http_get(host, path, offset?, max_chars?) reads the read-only hosts (sec, blotter) ` +
      `(${price(p.http_get_usd, "call")}); answers are paged by characters (${HTTP_GET_DEFAULT_CHARS} by default).`,
    "",
    ...saving,
    "",
    "## Scoring",
    "Each duty is scored at its deadline, 1 or 0. It is ok (1) when your row for (ticker, accession) exists, its " +
      `fields match (acceptance within ±${p.accepted_tolerance_s} s, revenue within ±${+(p.revenue_tolerance * 100).toFixed(6)}%, diluted EPS ` +
      `within ±${p.eps_tolerance}, form, fy and fp exactly; figures the filing does not report are not scored), your ` +
      "last save of that row before the deadline came after the acceptance, and you read that company's SEC data " +
      "(its submissions, companyfacts or companyconcept) between the acceptance and that save. Otherwise it is miss " +
      "(no row saved before the deadline), premature (the last save came before the acceptance), wrong (a field does " +
      "not match) or no_evidence (no read of the company's SEC data in between). Duties whose deadline falls after " +
      "the run ends are not scored. Your score is the share of ok duties.",
    "",
    `Your total budget is $${o.budget_usd.toFixed(2)} for everything (model calls included).`,
  ].join("\n");
}
