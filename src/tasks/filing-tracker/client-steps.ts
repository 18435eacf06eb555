import { DateTime } from "luxon";
import { z } from "zod";
import { HTTP_GET_MAX_CHARS, HTTP_GET_TOOL } from "../../tools/browser/http-get-tool.js";
import type { PolicyApi } from "../task.js";
import { edgarStampToUtc } from "./edgar-time.js";
import { isDutyFiling } from "./filing-duties.js";
import type { FilingRecordInput } from "./filing-record.js";
import { isNyseTradingDay, NYSE_ZONE, nextNyseOpen } from "./nyse-calendar.js";
import { DEFAULT_EPS_CONCEPTS, DEFAULT_REVENUE_CONCEPTS } from "./params.js";
import { pickPeriodFact } from "./period-facts.js";
import { LIST_FILINGS_TOOL, RECORD_FILING_TOOL } from "./portal-tools.js";
import { BLOTTER_HOST } from "./web/blotter-host.js";
import { SEC_HOST } from "./web/sec-host.js";

/**
 * The reference clients as step generators over the agent's tools: the scripted policies drive
 * them through `PolicyApi.call`, and the LLM-agent tests replay the very same steps as model tool
 * calls. Everything here reads only tool results (what an agent sees).
 */

export interface Step {
  tool: string;
  args: unknown;
}
export type StepOutcome = { ok: true; value: unknown } | { ok: false; error: string };
export type Steps<R = void> = Generator<Step, R, StepOutcome>;

/** Run a step generator against the tools. */
export async function drive(api: PolicyApi, steps: Steps): Promise<void> {
  let r = steps.next();
  while (!r.done) r = steps.next(await api.call(r.value.tool, r.value.args));
}

/** per-run client state: how the portal is written, and the rows this run saved */
export interface ClientState {
  mode: "api" | "browser" | null;
  saved: Set<string>;
}
export const newClientState = (): ClientState => ({ mode: null, saved: new Set() });

// ---- when to wake -------------------------------------------------------------------------------

/** the morning sweep (New York time, trading days): one minute before the open */
export const MORNING_SWEEP = { hour: 9, minute: 29 } as const;
/** the evening sweep (New York time, weekdays): after EDGAR closes at 22:00 */
export const EVENING_SWEEP = { hour: 22, minute: 5 } as const;

/**
 * The next sweep strictly after `now`: 09:29 New York time on an NYSE trading day (catches what
 * was accepted before the open) or 22:05 on a weekday (records the day's filings early).
 */
export function nextSweep(now: number): number {
  let d = DateTime.fromMillis(now, { zone: NYSE_ZONE }).startOf("day");
  for (;;) {
    const at = (h: { hour: number; minute: number }) => d.set({ ...h, second: 0, millisecond: 0 }).toMillis();
    const morning = at(MORNING_SWEEP);
    const evening = at(EVENING_SWEEP);
    if (morning > now && isNyseTradingDay(d.toISODate() as string)) return morning;
    if (evening > now && d.weekday <= 5) return evening;
    d = d.plus({ days: 1 });
  }
}

/** The same sweeps as UTC cron lines (both New York offsets; extra wakes are harmless). */
export const SWEEP_CRON: readonly string[] = ["29 13,14 * * 1-5", "5 2,3 * * 2-6"];

// ---- reading the hosts --------------------------------------------------------------------------

const HttpGetValue = z.object({ status: z.number(), body: z.string(), next_offset: z.number().nullable() });

/** GET a read-only host, paging through the whole body; null when the call was refused. */
export function* httpGetAll(host: string, path: string): Steps<{ status: number; body: string } | null> {
  let offset = 0;
  let body = "";
  for (;;) {
    const r = yield { tool: HTTP_GET_TOOL, args: { host, path, offset, max_chars: HTTP_GET_MAX_CHARS } };
    if (!r.ok) return null;
    const v = HttpGetValue.parse(r.value);
    body += v.body;
    if (v.next_offset === null) return { status: v.status, body };
    offset = v.next_offset;
  }
}

const HoldingsJson = z.object({
  holdings: z.array(z.object({ ticker: z.string(), cik: z.string() })),
  events: z.array(z.object({ t: z.string(), action: z.string(), ticker: z.string(), cik: z.string() })),
});
export type HoldingsJson = z.infer<typeof HoldingsJson>;

/** Was the company held at t, by the blotter's events? */
export function heldAt(h: HoldingsJson, cik: string, t: number): boolean {
  let held = false;
  for (const e of h.events) {
    if (Date.parse(e.t) > t) break;
    if (e.cik === cik) held = e.action !== "drop";
  }
  return held;
}

const SubmissionsJson = z.object({
  filings: z.object({
    recent: z.object({
      accessionNumber: z.array(z.string()),
      reportDate: z.array(z.string()),
      acceptanceDateTime: z.array(z.string()),
      form: z.array(z.string()),
      items: z.array(z.string()),
    }),
  }),
});

export interface SeenFiling {
  accession: string;
  form: "8-K" | "10-Q" | "10-K";
  report_date: string;
  /** true UTC, converted from EDGAR's New York stamp */
  accepted_at: number;
}

/** The duty-kind filings of a submissions payload (oldest first). */
export function dutyFilingsOf(body: string): SeenFiling[] {
  const r = SubmissionsJson.parse(JSON.parse(body)).filings.recent;
  const out: SeenFiling[] = [];
  r.accessionNumber.forEach((accession, i) => {
    const form = r.form[i] ?? "";
    const at = edgarStampToUtc(r.acceptanceDateTime[i] ?? "");
    if (at === null || !isDutyFiling(form, r.items[i] ?? "")) return;
    out.push({ accession, form, report_date: r.reportDate[i] ?? "", accepted_at: at });
  });
  return out.sort((a, b) => a.accepted_at - b.accepted_at);
}

const ConceptJson = z.object({
  units: z.record(
    z.string(),
    z.array(
      z.object({
        start: z.string().optional(),
        end: z.string(),
        val: z.number(),
        accn: z.string(),
        fy: z.number().nullable(),
        fp: z.string().nullable(),
      }),
    ),
  ),
});

const PERIOD_RULE = { quarter_days: [80, 100] as const, year_days: [350, 380] as const };

/** The period's fact of a filing from companyconcept, trying tags in order. */
function* periodValue(
  cik: string,
  f: SeenFiling,
  tags: readonly string[],
  unit: string,
): Steps<{ val: number; fy: number | null; fp: string | null } | null> {
  for (const tag of tags) {
    const r = yield* httpGetAll(SEC_HOST, `/api/xbrl/companyconcept/CIK${cik}/us-gaap/${tag}.json`);
    if (r?.status !== 200) continue;
    const facts = (ConceptJson.parse(JSON.parse(r.body)).units[unit] ?? []).map((x) => ({
      ...x,
      start: x.start ?? null,
    }));
    const hit = pickPeriodFact(facts, {
      accession: f.accession,
      report_date: f.report_date,
      form: f.form,
      ...PERIOD_RULE,
    });
    if (hit) return { val: hit.val, fy: hit.fy, fp: hit.fp };
  }
  return null;
}

/** The portal row of a filing read from the SEC replay (figures for 10-Q/10-K from companyconcept). */
export function* recordFromSec(ticker: string, cik: string, f: SeenFiling): Steps<FilingRecordInput> {
  const base = {
    ticker,
    accession: f.accession,
    form: f.form,
    accepted_at: `${new Date(f.accepted_at).toISOString().slice(0, 19)}Z`,
  };
  if (f.form === "8-K") return base;
  const rev = yield* periodValue(cik, f, DEFAULT_REVENUE_CONCEPTS, "USD");
  const eps = yield* periodValue(cik, f, DEFAULT_EPS_CONCEPTS, "USD/shares");
  const period = rev ?? eps;
  return {
    ...base,
    fy: period?.fy ?? null,
    fp: (period?.fp ?? null) as FilingRecordInput["fp"],
    revenue: rev?.val ?? null,
    eps_diluted: eps?.val ?? null,
  };
}

// ---- writing the portal -------------------------------------------------------------------------

const Snapshot = z.object({ snapshot: z.string() });
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The ref of the element with this role and accessible name in a snapshot, or null. */
export function refOf(snapshot: string, role: string, name: string): string | null {
  return new RegExp(`- ${role} "${escapeRe(name)}"[^\\n]*\\[ref=(\\w+)\\]`).exec(snapshot)?.[1] ?? null;
}

/** Save a row through the portal's browser form; true when the portal answered "Saved". */
export function* browserSave(rec: FilingRecordInput): Steps<boolean> {
  let r = yield { tool: "browser_navigate", args: { url: "http://portal.relive.test/filings/new" } };
  const snap = () => (r.ok ? Snapshot.parse(r.value).snapshot : "");
  const text: [string, string | null | undefined][] = [
    ["Ticker", rec.ticker],
    ["Accession number", rec.accession],
    ["Accepted at (UTC)", rec.accepted_at],
    ["Fiscal year", rec.fy === null || rec.fy === undefined ? null : String(rec.fy)],
    ["Revenue (USD)", rec.revenue === null || rec.revenue === undefined ? null : String(rec.revenue)],
    ["Diluted EPS (USD)", rec.eps_diluted === null || rec.eps_diluted === undefined ? null : String(rec.eps_diluted)],
  ];
  for (const [label, value] of text) {
    if (value === null || value === undefined) continue;
    const ref = refOf(snap(), "textbox", label);
    if (!r.ok || ref === null) return false;
    r = yield { tool: "browser_fill", args: { ref, text: value } };
  }
  const selects: [string, string | null | undefined][] = [
    ["Form", rec.form],
    ["Fiscal period", rec.fp],
  ];
  for (const [label, value] of selects) {
    if (value === null || value === undefined) continue;
    const ref = refOf(snap(), "combobox", label);
    if (!r.ok || ref === null) return false;
    r = yield { tool: "browser_select", args: { ref, value } };
  }
  const save = refOf(snap(), "button", "Save record");
  if (!r.ok || save === null) return false;
  r = yield { tool: "browser_click", args: { ref: save } };
  return r.ok && /heading "Saved"/.test(snap());
}

/** Save a row the way the run's portal takes it (the first call finds out: API tools or the browser). */
export function* saveRecord(state: ClientState, rec: FilingRecordInput): Steps<boolean> {
  if (state.mode === null) {
    const probe = yield { tool: LIST_FILINGS_TOOL, args: {} };
    state.mode = probe.ok ? "api" : "browser";
  }
  let saved: boolean;
  if (state.mode === "api") saved = (yield { tool: RECORD_FILING_TOOL, args: rec }).ok;
  else saved = yield* browserSave(rec);
  if (saved) state.saved.add(`${rec.ticker}:${rec.accession}`);
  return saved;
}

// ---- the honest client --------------------------------------------------------------------------

const RECENT_MS = 10 * 86_400_000;

/**
 * One sweep of the perfect client: read the blotter, then for every company in it the submissions;
 * for each duty-kind filing accepted by now whose deadline has not passed, held at its acceptance
 * and not yet saved by this run, read the figures (10-Q/10-K) and save the row.
 */
export function* perfectClientSweep(now: number, state: ClientState): Steps {
  const h = yield* httpGetAll(BLOTTER_HOST, "/holdings.json");
  if (h?.status !== 200) return;
  const holdings = HoldingsJson.parse(JSON.parse(h.body));
  const companies = new Map<string, string>();
  for (const e of holdings.events) companies.set(e.cik, e.ticker);
  for (const [cik, ticker] of companies) {
    const s = yield* httpGetAll(SEC_HOST, `/submissions/CIK${cik}.json`);
    if (s?.status !== 200) continue;
    for (const f of dutyFilingsOf(s.body)) {
      // a deadline is at most a long weekend away: older filings are long due
      if (f.accepted_at > now || f.accepted_at < now - RECENT_MS || nextNyseOpen(f.accepted_at) <= now) continue;
      if (state.saved.has(`${ticker}:${f.accession}`) || !heldAt(holdings, cik, f.accepted_at)) continue;
      const rec = yield* recordFromSec(ticker, cik, f);
      yield* saveRecord(state, rec);
    }
  }
}
