import { isoInstant } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";
import type { Observation } from "../task.js";
import { isDutyFiling } from "./filing-duties.js";
import { nextNyseOpen } from "./nyse-calendar.js";
import { companiesAsOf } from "./web/company-as-of.js";

/** A recording duty as the agent can know it now: a visible filing of a company the visible blotter held at acceptance. */
export interface VisibleDuty {
  /** `TICKER:accession` (the portal's record key) */
  key: string;
  ticker: string;
  cik: string;
  accession: string;
  form: string;
  items: string;
  accepted_at: number;
  visible_at: number;
  /** the first NYSE open strictly after acceptance */
  deadline: number;
}

/** the visible blotter's holding events per company, by (t, id) */
function holdingEvents(view: AsOfView): Map<string, { t: number; action: string }[]> {
  const byCik = new Map<string, { t: number; action: string }[]>();
  for (const e of view.broker.events({ kind: "holding" })) {
    const p = e.payload as { cik?: unknown; action?: unknown };
    if (typeof p.cik !== "string" || typeof p.action !== "string") continue;
    const list = byCik.get(p.cik) ?? [];
    byCik.set(p.cik, list);
    list.push({ t: e.t, action: p.action });
  }
  return byCik;
}

/**
 * Duties derived only from what `view` shows now (DESIGN invariant 2): duty-kind filings (8-K with
 * item 2.02, 10-Q, 10-K) visible now, of companies whose last visible blotter event at or before the
 * acceptance is `hold` or `add` (the scorer's rule, applied to the visible blotter). By (deadline, key).
 */
export function visibleDuties(view: AsOfView): VisibleDuty[] {
  const events = holdingEvents(view);
  const heldAt = (cik: string, t: number) => {
    let held = false;
    for (const h of events.get(cik) ?? []) {
      if (h.t > t) break;
      held = h.action === "hold" || h.action === "add";
    }
    return held;
  };
  const out: VisibleDuty[] = [];
  for (const c of companiesAsOf(view.filings.companies()))
    for (const f of view.filings.submissions(c.cik)) {
      if (!isDutyFiling(f.form, f.items) || !heldAt(c.cik, f.accepted_at)) continue;
      out.push({
        key: `${c.ticker}:${f.accession}`,
        ticker: c.ticker,
        cik: c.cik,
        accession: f.accession,
        form: f.form,
        items: f.items,
        accepted_at: f.accepted_at,
        visible_at: f.visible_at,
        deadline: nextNyseOpen(f.accepted_at),
      });
    }
  return out.sort((a, b) => a.deadline - b.deadline || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** the deadlines in [now, until) of the duties visible now, ascending, each once */
export function visibleDeadlines(view: AsOfView, until: number): number[] {
  const now = view.now();
  const ds = new Set(visibleDuties(view).flatMap((d) => (d.deadline >= now && d.deadline < until ? [d.deadline] : [])));
  return [...ds].sort((a, b) => a - b);
}

const formOf = (f: { form: string; items: string }) => (f.items ? `${f.form} (items ${f.items})` : f.form);

/** The open duties now (deadline not passed) whose filing has no saved portal record yet. */
export function openDutyLines(view: AsOfView, recorded: ReadonlySet<string>): string[] {
  const now = view.now();
  return visibleDuties(view)
    .filter((d) => d.deadline > now && !recorded.has(d.key))
    .map((d) => `${d.key} ${formOf(d)} accepted ${isoInstant(d.accepted_at)}, record before ${isoInstant(d.deadline)}`);
}

/** Filings (every company, every form) and blotter events that became visible in (since, now], by (t, id). */
export function filingObservations(view: AsOfView, since: number, now: number): Observation[] {
  const out: Observation[] = [];
  const inRange = (t: number) => t > since && t <= now;
  const tickers = new Map<string, string>();
  for (const c of companiesAsOf(view.filings.companies())) {
    tickers.set(c.cik, c.ticker);
    for (const f of view.filings.submissions(c.cik))
      if (inRange(f.visible_at))
        out.push({
          t: f.visible_at,
          kind: "filing",
          id: f.accession,
          summary: `${c.ticker} ${formOf(f)} accepted ${isoInstant(f.accepted_at)}`,
        });
  }
  for (const e of view.broker.events({ kind: "holding" })) {
    if (!inRange(e.visible_at)) continue;
    const p = e.payload as { cik?: unknown; ticker?: unknown; action?: unknown };
    const ticker =
      typeof p.ticker === "string" ? p.ticker : typeof p.cik === "string" ? (tickers.get(p.cik) ?? p.cik) : "?";
    out.push({ t: e.visible_at, kind: "holding", id: e.id, summary: `blotter: ${String(p.action)} ${ticker}` });
  }
  return out.sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
