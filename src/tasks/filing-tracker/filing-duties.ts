import type Database from "better-sqlite3";
import type { FilingRow } from "../../world/types.js";
import { nextNyseOpen } from "./nyse-calendar.js";
import type { FilingTrackerParams } from "./params.js";
import { type PeriodFact, pickPeriodFact } from "./period-facts.js";

/** Gold values of one filing (null where the filing does not report the field: unscored). */
export interface FilingGold {
  fy: number | null;
  fp: string | null;
  revenue: number | null;
  revenue_concept: string | null;
  eps_diluted: number | null;
}

/** One recording duty: a held company's earnings 8-K (item 2.02), 10-Q or 10-K. */
export interface FilingDuty {
  /** `TICKER:accession` */
  key: string;
  ticker: string;
  cik: string;
  accession: string;
  form: "8-K" | "10-Q" | "10-K";
  accepted_at: number;
  report_date: string;
  /** the first NYSE open strictly after acceptance */
  deadline: number;
  gold: FilingGold;
}

/** A filing is a duty kind: an 8-K whose items include 2.02, or a 10-Q or 10-K (amendments are not). */
export function isDutyFiling(form: string, items: string): form is FilingDuty["form"] {
  if (form === "10-Q" || form === "10-K") return true;
  return (
    form === "8-K" &&
    items
      .split(",")
      .map((s) => s.trim())
      .includes("2.02")
  );
}

interface HoldingEvent {
  t: number;
  cik: string;
  action: string;
}

/**
 * Scorer- and oracle-side reader of the untouched world (never handed to the agent): duties with
 * their deadlines and gold values. Holdings come from the blotter (`broker_event` kind `holding`,
 * payload {cik, ticker, action: hold | add | drop}); a company is held at t when its last blotter
 * event at or before t is `hold` or `add`.
 */
export class FilingDuties {
  private readonly holdings: HoldingEvent[];
  private readonly tickers = new Map<string, string>();

  constructor(
    private readonly db: Database.Database,
    private readonly p: FilingTrackerParams,
  ) {
    const rows = db.prepare("SELECT t, payload FROM broker_event WHERE kind = 'holding' ORDER BY t, id").all() as {
      t: number;
      payload: string;
    }[];
    this.holdings = rows.flatMap((r) => {
      const p = JSON.parse(r.payload) as { cik?: unknown; action?: unknown };
      return typeof p.cik === "string" && typeof p.action === "string"
        ? [{ t: r.t, cik: p.cik, action: p.action }]
        : [];
    });
    for (const c of db.prepare("SELECT cik, ticker FROM company ORDER BY cik, visible_at").all() as {
      cik: string;
      ticker: string;
    }[])
      this.tickers.set(c.cik, c.ticker);
  }

  heldAt(cik: string, t: number): boolean {
    let held = false;
    for (const h of this.holdings) {
      if (h.t > t) break;
      if (h.cik === cik) held = h.action === "hold" || h.action === "add";
    }
    return held;
  }

  /** Duties of filings accepted in [from, to), ordered by (deadline, key). */
  duties(from: number, to: number): FilingDuty[] {
    const filings = this.db
      .prepare(
        "SELECT cik, accession, form, items, filed, accepted_at, report_date, visible_at FROM filing" +
          " WHERE accepted_at >= ? AND accepted_at < ? ORDER BY accepted_at, accession",
      )
      .all(from, to) as FilingRow[];
    const out: FilingDuty[] = [];
    for (const f of filings) {
      if (!isDutyFiling(f.form, f.items) || !this.heldAt(f.cik, f.accepted_at)) continue;
      const ticker = this.tickers.get(f.cik);
      if (ticker === undefined) continue;
      out.push({
        key: `${ticker}:${f.accession}`,
        ticker,
        cik: f.cik,
        accession: f.accession,
        form: f.form,
        accepted_at: f.accepted_at,
        report_date: f.report_date,
        deadline: nextNyseOpen(f.accepted_at),
        gold: this.gold(f),
      });
    }
    return out.sort((a, b) => a.deadline - b.deadline || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Gold values from the facts carrying the filing's accession (see period-facts.ts). */
  gold(f: Pick<FilingRow, "cik" | "accession" | "form" | "report_date">): FilingGold {
    const none: FilingGold = { fy: null, fp: null, revenue: null, revenue_concept: null, eps_diluted: null };
    if (f.form !== "10-Q" && f.form !== "10-K") return none;
    const facts = this.db
      .prepare(
        'SELECT concept, unit, start, "end", val, accn, fy, fp FROM xbrl_fact WHERE cik = ? AND accn = ? ORDER BY concept, unit, rowid',
      )
      .all(f.cik, f.accession) as (PeriodFact & { concept: string; unit: string })[];
    if (facts.length === 0) return none;
    const rule = {
      accession: f.accession,
      report_date: f.report_date,
      form: f.form,
      quarter_days: this.p.quarter_days,
      year_days: this.p.year_days,
    };
    const first = (concepts: readonly string[], unit: string) => {
      for (const c of concepts) {
        const hit = pickPeriodFact(
          facts.filter((x) => x.concept === c && x.unit === unit),
          rule,
        );
        if (hit) return hit;
      }
      return null;
    };
    const rev = first(this.p.revenue_concepts, "USD");
    const eps = first(this.p.eps_concepts, "USD/shares");
    const period = rev ?? eps ?? facts[0]!;
    return {
      fy: period.fy,
      fp: period.fp,
      revenue: rev?.val ?? null,
      revenue_concept: rev?.concept ?? null,
      eps_diluted: eps?.val ?? null,
    };
  }
}
