import { nextNyseOpen } from "./nyse-calendar.js";
import { pickPeriodFact } from "./period-facts.js";
function isDutyFiling(form, items) {
  if (form === "10-Q" || form === "10-K") return true;
  return form === "8-K" && items.split(",").map((s) => s.trim()).includes("2.02");
}
class FilingDuties {
  constructor(db, p) {
    this.db = db;
    this.p = p;
    const rows = db.prepare("SELECT t, payload FROM broker_event WHERE kind = 'holding' ORDER BY t, id").all();
    this.holdings = rows.flatMap((r) => {
      const p2 = JSON.parse(r.payload);
      return typeof p2.cik === "string" && typeof p2.action === "string" ? [{ t: r.t, cik: p2.cik, action: p2.action }] : [];
    });
    for (const c of db.prepare("SELECT cik, ticker FROM company").all())
      this.tickers.set(c.cik, c.ticker);
  }
  db;
  p;
  holdings;
  tickers = /* @__PURE__ */ new Map();
  heldAt(cik, t) {
    let held = false;
    for (const h of this.holdings) {
      if (h.t > t) break;
      if (h.cik === cik) held = h.action === "hold" || h.action === "add";
    }
    return held;
  }
  /** Duties of filings accepted in [from, to), ordered by (deadline, key). */
  duties(from, to) {
    const filings = this.db.prepare(
      "SELECT cik, accession, form, items, filed, accepted_at, report_date, visible_at FROM filing WHERE accepted_at >= ? AND accepted_at < ? ORDER BY accepted_at, accession"
    ).all(from, to);
    const out = [];
    for (const f of filings) {
      if (!isDutyFiling(f.form, f.items) || !this.heldAt(f.cik, f.accepted_at)) continue;
      const ticker = this.tickers.get(f.cik);
      if (ticker === void 0) continue;
      out.push({
        key: `${ticker}:${f.accession}`,
        ticker,
        cik: f.cik,
        accession: f.accession,
        form: f.form,
        accepted_at: f.accepted_at,
        report_date: f.report_date,
        deadline: nextNyseOpen(f.accepted_at),
        gold: this.gold(f)
      });
    }
    return out.sort((a, b) => a.deadline - b.deadline || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  /** Gold values from the facts carrying the filing's accession (see period-facts.ts). */
  gold(f) {
    const none = { fy: null, fp: null, revenue: null, revenue_concept: null, eps_diluted: null };
    if (f.form !== "10-Q" && f.form !== "10-K") return none;
    const facts = this.db.prepare(
      'SELECT concept, unit, start, "end", val, accn, fy, fp FROM xbrl_fact WHERE cik = ? AND accn = ? ORDER BY concept, unit, rowid'
    ).all(f.cik, f.accession);
    if (facts.length === 0) return none;
    const rule = {
      accession: f.accession,
      report_date: f.report_date,
      form: f.form,
      quarter_days: this.p.quarter_days,
      year_days: this.p.year_days
    };
    const first = (concepts, unit) => {
      for (const c of concepts) {
        const hit = pickPeriodFact(
          facts.filter((x) => x.concept === c && x.unit === unit),
          rule
        );
        if (hit) return hit;
      }
      return null;
    };
    const rev = first(this.p.revenue_concepts, "USD");
    const eps = first(this.p.eps_concepts, "USD/shares");
    const period = rev ?? eps ?? facts[0];
    return {
      fy: period.fy,
      fp: period.fp,
      revenue: rev?.val ?? null,
      revenue_concept: rev?.concept ?? null,
      eps_diluted: eps?.val ?? null
    };
  }
}
export {
  FilingDuties,
  isDutyFiling
};
//# sourceMappingURL=filing-duties.js.map
