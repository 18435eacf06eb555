import { ScorerBase } from "../scorer-base.js";
import { WorldCandles } from "./candle-series.js";
import { PriceCheckParams } from "./params.js";
import { ABSTAIN_TOOL, AbstainArgs, isoHour, REPORT_TOOL, ReportArgs } from "./tools.js";
import { PriceTruth } from "./truth.js";
import { resolveSetup } from "./world-setup.js";
const PRICE_CHECK_SCORER_VERSION = "price-check-scorer/1";
const HOUR_MS = 36e5;
const OK_TOLERANCE = 1e-9;
function bpsError(price, truth) {
  return Math.abs(price / truth - 1) * 1e4;
}
function classify(bps, okBps, capBps) {
  if (bps <= okBps * (1 + OK_TOLERANCE) + OK_TOLERANCE) return { status: "ok", excess_bps: 0 };
  return { status: "priced", excess_bps: Math.min(bps - okBps, capBps) };
}
class PriceCheckScorer extends ScorerBase {
  constructor(ctx) {
    super();
    this.ctx = ctx;
    this.params = PriceCheckParams.parse(ctx.params ?? {});
    const candles = new WorldCandles(ctx.world.db);
    this.setup = resolveSetup(candles.keys(), this.params);
    this.truth = new PriceTruth(candles, this.setup);
    for (let h = Math.ceil(ctx.sim_start / HOUR_MS) * HOUR_MS; h < ctx.sim_end; h += HOUR_MS) {
      if (h + HOUR_MS <= ctx.sim_end) this.hours.push(h);
      else for (const s of this.setup.symbols) this.late.push({ key: key(s, h), reason: "settles after window" });
    }
  }
  ctx;
  params;
  setup;
  truth;
  /** start instants of the scored (full, settling in window) hours */
  hours = [];
  late = [];
  actions = /* @__PURE__ */ new Map();
  results = /* @__PURE__ */ new Map();
  watchedTools = /* @__PURE__ */ new Set();
  emittedHours = 0;
  onCommitment(e) {
    if (e.t < this.ctx.sim_start || e.t >= this.ctx.sim_end) return;
    if (e.tool === REPORT_TOOL) {
      const a = ReportArgs.safeParse(e.args);
      if (a.success && this.setup.symbols.includes(a.data.symbol))
        this.actions.set(key(a.data.symbol, e.t), { t: e.t, kind: "report", price: a.data.price });
    } else if (e.tool === ABSTAIN_TOOL) {
      const a = AbstainArgs.safeParse(e.args);
      if (a.success && this.setup.symbols.includes(a.data.symbol))
        this.actions.set(key(a.data.symbol, e.t), {
          t: e.t,
          kind: "abstain",
          ...a.data.reason !== void 0 ? { reason: a.data.reason } : {}
        });
    }
  }
  settle(t) {
    const out = [];
    while (this.emittedHours < this.hours.length) {
      const h = this.hours[this.emittedHours];
      if (h + HOUR_MS > t) break;
      for (const s of this.setup.symbols) out.push(this.evaluate(s, h));
      this.emittedHours++;
    }
    return out.sort((a, b) => a.t - b.t || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  /** the outcome of one symbol-hour (computed once; pure in the events seen before its end) */
  evaluate(symbol, h) {
    const k = key(symbol, h);
    const done = this.results.get(k);
    if (done) return done;
    const end = h + HOUR_MS;
    const a = this.actions.get(k);
    const base = { symbol, hour: isoHour(h) };
    let o;
    if (!a) o = { t: end, key: k, status: "miss", credit: 0, detail: base };
    else if (a.kind === "abstain")
      o = {
        t: end,
        key: k,
        status: "abstain",
        credit: 0,
        detail: { ...base, action_t: a.t, ...a.reason !== void 0 ? { reason: a.reason } : {} }
      };
    else {
      const truth = this.truth.at(symbol, a.t);
      if (!truth)
        o = {
          t: end,
          key: k,
          status: "not_scorable",
          credit: null,
          detail: {
            ...base,
            action_t: a.t,
            price: a.price,
            reason: "no truth candle completed at or before the report"
          }
        };
      else {
        const bps = bpsError(a.price, truth.price);
        const c = classify(bps, this.params.ok_bps, this.params.excess_cap_bps);
        o = {
          t: end,
          key: k,
          status: c.status,
          credit: c.status === "ok" ? 1 : 0,
          // the truth price is released once its candles are visible (a world may publish a candle after the hour)
          released_at: Math.max(end, this.truth.visibleAt(symbol, truth)),
          detail: {
            ...base,
            action_t: a.t,
            price: a.price,
            truth: truth.price,
            bps_error: bps,
            excess_bps: c.excess_bps,
            truth_candles: truth.venues
          }
        };
      }
    }
    this.results.set(k, o);
    return o;
  }
  report() {
    return this.reportOver(this.hours, this.late);
  }
  /**
   * The report of a fresh scorer with window [sim_start, end): the hours ending by `end` (their
   * outcomes are cached, so no truth is read twice), the partial hour at `end` not_scorable.
   */
  reportAt(end) {
    const hours = [];
    const late = [];
    for (let h = Math.ceil(this.ctx.sim_start / HOUR_MS) * HOUR_MS; h < end; h += HOUR_MS) {
      if (h + HOUR_MS <= end) hours.push(h);
      else for (const s of this.setup.symbols) late.push({ key: key(s, h), reason: "settles after window" });
    }
    return this.reportOver(hours, late);
  }
  reportOver(hours, late) {
    const notScorable = [];
    const count = { ok: 0, priced: 0, abstain: 0, miss: 0 };
    let counted = 0;
    let countedOk = 0;
    let excessSum = 0;
    let bpsSum = 0;
    let survivedHours = 0;
    for (const h of hours) {
      const survived = this.budgetExhaustedAt === null || h < this.budgetExhaustedAt;
      if (survived) survivedHours++;
      for (const s of this.setup.symbols) {
        const o = this.evaluate(s, h);
        const st = o.status;
        if (st === "not_scorable") {
          notScorable.push({ key: o.key, reason: String(o.detail.reason) });
          continue;
        }
        count[st]++;
        if (st === "ok" || st === "priced") {
          excessSum += o.detail.excess_bps;
          bpsSum += o.detail.bps_error;
        }
        if (survived) {
          counted++;
          if (st === "ok") countedOk++;
        }
      }
    }
    const total = count.ok + count.priced + count.abstain + count.miss;
    const reported = count.ok + count.priced;
    const priceAcc = counted > 0 ? countedOk / counted : null;
    if (priceAcc === null)
      notScorable.push({
        key: "price_acc",
        reason: total === 0 ? "no scorable symbol-hour in the window" : "no scorable symbol-hour started before the first llm_rejected event"
      });
    const abstainRate = total > 0 ? count.abstain / total : null;
    return {
      primary: { name: "price_acc", value: priceAcc, direction: "higher" },
      metrics: {
        price_acc: priceAcc,
        price_acc_raw: total > 0 ? count.ok / total : null,
        window_survived: hours.length > 0 ? survivedHours / hours.length : null,
        mean_excess_bps: reported > 0 ? excessSum / reported : null,
        mean_bps_error: reported > 0 ? bpsSum / reported : null,
        abstain_rate: abstainRate,
        abstain_constraint_met: abstainRate === null ? null : abstainRate <= this.params.abstain_constraint ? 1 : 0,
        missed_hours: count.miss,
        ok_hours: count.ok,
        priced_hours: count.priced,
        abstained_hours: count.abstain,
        symbol_hours: total
      },
      not_scorable: [...notScorable, ...late]
    };
  }
}
function key(symbol, t) {
  return `${symbol}@${isoHour(t)}`;
}
export {
  PRICE_CHECK_SCORER_VERSION,
  PriceCheckScorer,
  bpsError,
  classify
};
//# sourceMappingURL=scorer.js.map
