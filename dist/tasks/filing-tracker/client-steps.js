import { DateTime } from "luxon";
import { z } from "zod";
import { HTTP_GET_MAX_CHARS, HTTP_GET_TOOL } from "../../tools/browser/http-get-tool.js";
import { edgarStampToUtc } from "./edgar-time.js";
import { isDutyFiling } from "./filing-duties.js";
import { isNyseTradingDay, NYSE_ZONE, nextNyseOpen } from "./nyse-calendar.js";
import { DEFAULT_EPS_CONCEPTS, DEFAULT_REVENUE_CONCEPTS } from "./params.js";
import { pickPeriodFact } from "./period-facts.js";
import { LIST_FILINGS_TOOL, RECORD_FILING_TOOL } from "./portal-tools.js";
import { BLOTTER_HOST } from "./web/blotter-host.js";
import { SEC_HOST } from "./web/sec-host.js";
async function drive(api, steps) {
  let r = steps.next();
  while (!r.done) r = steps.next(await api.call(r.value.tool, r.value.args));
}
const newClientState = () => ({ mode: null, saved: /* @__PURE__ */ new Set() });
const MORNING_SWEEP = { hour: 9, minute: 29 };
const EVENING_SWEEP = { hour: 22, minute: 5 };
function nextSweep(now) {
  let d = DateTime.fromMillis(now, { zone: NYSE_ZONE }).startOf("day");
  for (; ; ) {
    const at = (h) => d.set({ ...h, second: 0, millisecond: 0 }).toMillis();
    const morning = at(MORNING_SWEEP);
    const evening = at(EVENING_SWEEP);
    if (morning > now && isNyseTradingDay(d.toISODate())) return morning;
    if (evening > now && d.weekday <= 5) return evening;
    d = d.plus({ days: 1 });
  }
}
const SWEEP_CRON = ["29 13,14 * * 1-5", "5 2,3 * * 2-6"];
const HttpGetValue = z.object({ status: z.number(), body: z.string(), next_offset: z.number().nullable() });
function* httpGetAll(host, path) {
  let offset = 0;
  let body = "";
  for (; ; ) {
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
  events: z.array(z.object({ t: z.string(), action: z.string(), ticker: z.string(), cik: z.string() }))
});
function heldAt(h, cik, t) {
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
      items: z.array(z.string())
    })
  })
});
function dutyFilingsOf(body) {
  const r = SubmissionsJson.parse(JSON.parse(body)).filings.recent;
  const out = [];
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
        fp: z.string().nullable()
      })
    )
  )
});
const PERIOD_RULE = { quarter_days: [80, 100], year_days: [350, 380] };
function* periodValue(cik, f, tags, unit) {
  for (const tag of tags) {
    const r = yield* httpGetAll(SEC_HOST, `/api/xbrl/companyconcept/CIK${cik}/us-gaap/${tag}.json`);
    if (r?.status !== 200) continue;
    const facts = (ConceptJson.parse(JSON.parse(r.body)).units[unit] ?? []).map((x) => ({
      ...x,
      start: x.start ?? null
    }));
    const hit = pickPeriodFact(facts, {
      accession: f.accession,
      report_date: f.report_date,
      form: f.form,
      ...PERIOD_RULE
    });
    if (hit) return { val: hit.val, fy: hit.fy, fp: hit.fp };
  }
  return null;
}
function* recordFromSec(ticker, cik, f) {
  const base = {
    ticker,
    accession: f.accession,
    form: f.form,
    accepted_at: `${new Date(f.accepted_at).toISOString().slice(0, 19)}Z`
  };
  if (f.form === "8-K") return base;
  const rev = yield* periodValue(cik, f, DEFAULT_REVENUE_CONCEPTS, "USD");
  const eps = yield* periodValue(cik, f, DEFAULT_EPS_CONCEPTS, "USD/shares");
  const period = rev ?? eps;
  return {
    ...base,
    fy: period?.fy ?? null,
    fp: period?.fp ?? null,
    revenue: rev?.val ?? null,
    eps_diluted: eps?.val ?? null
  };
}
const Snapshot = z.object({ snapshot: z.string() });
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
function refOf(snapshot, role, name) {
  return new RegExp(`- ${role} "${escapeRe(name)}"[^\\n]*\\[ref=(\\w+)\\]`).exec(snapshot)?.[1] ?? null;
}
function* browserSave(rec) {
  let r = yield { tool: "browser_navigate", args: { url: "http://portal.relive.test/filings/new" } };
  const snap = () => r.ok ? Snapshot.parse(r.value).snapshot : "";
  const text = [
    ["Ticker", rec.ticker],
    ["Accession number", rec.accession],
    ["Accepted at (UTC)", rec.accepted_at],
    ["Fiscal year", rec.fy === null || rec.fy === void 0 ? null : String(rec.fy)],
    ["Revenue (USD)", rec.revenue === null || rec.revenue === void 0 ? null : String(rec.revenue)],
    ["Diluted EPS (USD)", rec.eps_diluted === null || rec.eps_diluted === void 0 ? null : String(rec.eps_diluted)]
  ];
  for (const [label, value] of text) {
    if (value === null || value === void 0) continue;
    const ref = refOf(snap(), "textbox", label);
    if (!r.ok || ref === null) return false;
    r = yield { tool: "browser_fill", args: { ref, text: value } };
  }
  const selects = [
    ["Form", rec.form],
    ["Fiscal period", rec.fp]
  ];
  for (const [label, value] of selects) {
    if (value === null || value === void 0) continue;
    const ref = refOf(snap(), "combobox", label);
    if (!r.ok || ref === null) return false;
    r = yield { tool: "browser_select", args: { ref, value } };
  }
  const save = refOf(snap(), "button", "Save record");
  if (!r.ok || save === null) return false;
  r = yield { tool: "browser_click", args: { ref: save } };
  return r.ok && /heading "Saved"/.test(snap());
}
function* saveRecord(state, rec) {
  if (state.mode === null) {
    const probe = yield { tool: LIST_FILINGS_TOOL, args: {} };
    state.mode = probe.ok ? "api" : "browser";
  }
  let saved;
  if (state.mode === "api") saved = (yield { tool: RECORD_FILING_TOOL, args: rec }).ok;
  else saved = yield* browserSave(rec);
  if (saved) state.saved.add(`${rec.ticker}:${rec.accession}`);
  return saved;
}
const RECENT_MS = 10 * 864e5;
function* perfectClientSweep(now, state) {
  const h = yield* httpGetAll(BLOTTER_HOST, "/holdings.json");
  if (h?.status !== 200) return;
  const holdings = HoldingsJson.parse(JSON.parse(h.body));
  const companies = /* @__PURE__ */ new Map();
  for (const e of holdings.events) companies.set(e.cik, e.ticker);
  for (const [cik, ticker] of companies) {
    const s = yield* httpGetAll(SEC_HOST, `/submissions/CIK${cik}.json`);
    if (s?.status !== 200) continue;
    for (const f of dutyFilingsOf(s.body)) {
      if (f.accepted_at > now || f.accepted_at < now - RECENT_MS || nextNyseOpen(f.accepted_at) <= now) continue;
      if (state.saved.has(`${ticker}:${f.accession}`) || !heldAt(holdings, cik, f.accepted_at)) continue;
      const rec = yield* recordFromSec(ticker, cik, f);
      yield* saveRecord(state, rec);
    }
  }
}
export {
  EVENING_SWEEP,
  MORNING_SWEEP,
  SWEEP_CRON,
  browserSave,
  drive,
  dutyFilingsOf,
  heldAt,
  httpGetAll,
  newClientState,
  nextSweep,
  perfectClientSweep,
  recordFromSec,
  refOf,
  saveRecord
};
//# sourceMappingURL=client-steps.js.map
