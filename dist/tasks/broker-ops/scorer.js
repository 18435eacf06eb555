import { HOUR_MS, isoInstant } from "../../kernel/day.js";
import { effectsOfCommitment } from "../../tools/browser/browser-tools.js";
import { ScorerBase } from "../scorer-base.js";
import { markOf } from "./book-view.js";
import { dutyRoster } from "./duties.js";
import {
  bodyFields,
  FUNDING_API_PATH,
  FUNDING_FORM_PATH,
  FundingInput,
  STOP_API_PATH,
  STOP_FORM_PATH,
  StopInput
} from "./instructions.js";
import { BrokerOpsParams } from "./params.js";
import { PLACE_STOP_TOOL, SEND_FUNDING_TOOL } from "./site-tools.js";
import { BROKER_HOST } from "./web/broker-host.js";
const BROKER_OPS_SCORER_VERSION = "broker-ops-scorer/1";
const opposite = (s) => s === "buy" ? "sell" : "buy";
const pathOf = (p) => p.split("?")[0] ?? p;
const minutes = (ms) => Math.round(ms / 6e4);
function stopProblem(s, fillSide) {
  const side = opposite(fillSide);
  if (s.side !== side) return `side ${s.side}: a ${fillSide} fill needs a ${side} stop`;
  if (!(s.qty > 0)) return "quantity is not positive";
  if (s.mark === null) return "no mark at submission";
  if (side === "sell" && !(s.trigger_price < s.mark))
    return `a sell stop must trigger below the mark (${s.mark}); trigger ${s.trigger_price}`;
  if (side === "buy" && !(s.trigger_price > s.mark))
    return `a buy stop must trigger above the mark (${s.mark}); trigger ${s.trigger_price}`;
  return null;
}
class BrokerOpsScorer extends ScorerBase {
  constructor(ctx) {
    super();
    this.ctx = ctx;
    this.p = BrokerOpsParams.parse(ctx.params ?? {});
    const roster = dutyRoster(ctx.world, this.p, ctx.sim_start, ctx.sim_end);
    this.scored = roster.filter((d) => d.deadline <= ctx.sim_end);
    this.late = roster.filter((d) => d.deadline > ctx.sim_end).map((d) => ({ key: d.key, reason: "settles after window" }));
    this.view = ctx.world.at(() => this.clock);
  }
  ctx;
  watchedTools = /* @__PURE__ */ new Set();
  p;
  scored;
  late;
  stops = [];
  funding = [];
  results = [];
  emitted = 0;
  clock = 0;
  view;
  markAt(symbol, t) {
    const s = this.p.symbols[symbol];
    if (s === void 0) return null;
    this.clock = t;
    return markOf(this.view, this.p.venue, s)?.price ?? null;
  }
  addStop(fields, t) {
    const parsed = StopInput.safeParse(fields);
    if (!parsed.success) return;
    this.stops.push({ ...parsed.data, t, mark: this.markAt(parsed.data.symbol, t), used: false });
  }
  addFunding(fields, t) {
    const parsed = FundingInput.safeParse(fields);
    if (parsed.success) this.funding.push({ ...parsed.data, t });
  }
  onCommitment(e) {
    if (e.tool === PLACE_STOP_TOOL) {
      this.addStop(e.args, e.t);
      return;
    }
    if (e.tool === SEND_FUNDING_TOOL) {
      this.addFunding(e.args, e.t);
      return;
    }
    for (const x of effectsOfCommitment(e)) {
      if (x.kind !== "request" || x.host !== BROKER_HOST || x.method !== "POST" || x.status !== 201 || x.body === void 0)
        continue;
      const path = pathOf(x.path);
      if (path === STOP_FORM_PATH || path === STOP_API_PATH) this.addStop(bodyFields(x.body), e.t);
      else if (path === FUNDING_FORM_PATH || path === FUNDING_API_PATH) this.addFunding(bodyFields(x.body), e.t);
    }
  }
  settleStop(d) {
    const f = d.fill;
    const inWindow = this.stops.filter((s) => s.symbol === f.p.symbol && s.t >= d.t && s.t < d.deadline);
    const hit = inWindow.find((s) => !s.used && stopProblem(s, f.p.side) === null);
    const status = hit ? "met" : inWindow.length > 0 ? "wrong" : "missed";
    if (hit) hit.used = true;
    this.results.push({ duty: d, status, latency: hit ? hit.t - d.t : null });
    const stopJson = (s) => ({
      submitted_at: isoInstant(s.t),
      side: s.side,
      qty: s.qty,
      trigger_price: s.trigger_price,
      mark: s.mark
    });
    return {
      t: d.deadline,
      key: d.key,
      status,
      credit: status === "met" ? 1 : 0,
      detail: {
        duty: "protective_stop",
        ...hit ? { reaction_h: (hit.t - d.t) / HOUR_MS } : {},
        fill_id: f.id,
        order_id: f.p.order_id,
        symbol: f.p.symbol,
        fill_side: f.p.side,
        fill_qty: f.p.qty,
        fill_price: f.p.price,
        filled_at: isoInstant(f.t),
        deadline: isoInstant(d.deadline),
        ...hit ? { stop: stopJson(hit) } : {
          stops_in_window: inWindow.map((s) => ({
            ...stopJson(s),
            problem: s.used && stopProblem(s, f.p.side) === null ? "already counted for an earlier fill" : stopProblem(s, f.p.side)
          }))
        }
      }
    };
  }
  settleFunding(d) {
    const c = d.call.p;
    const inWindow = this.funding.filter((x) => x.call_id === c.call_id && x.t >= d.t && x.t < d.deadline);
    const hit = inWindow.find((x) => x.amount >= c.required_amount);
    const status = hit ? "met" : inWindow.length > 0 ? "wrong" : "missed";
    this.results.push({ duty: d, status, latency: hit ? hit.t - d.t : null });
    return {
      t: d.deadline,
      key: d.key,
      status,
      credit: status === "met" ? 1 : 0,
      detail: {
        duty: "funding_instruction",
        ...hit ? { reaction_h: (hit.t - d.t) / HOUR_MS } : {},
        call_id: c.call_id,
        issued_at: isoInstant(d.t),
        required_amount: c.required_amount,
        deadline: isoInstant(d.deadline),
        instructions_in_window: inWindow.map((x) => ({ submitted_at: isoInstant(x.t), amount: x.amount }))
      }
    };
  }
  settle(t) {
    const out = [];
    while (this.emitted < this.scored.length && this.scored[this.emitted].deadline <= t) {
      const d = this.scored[this.emitted++];
      switch (d.kind) {
        case "stop":
          out.push(this.settleStop(d));
          break;
        case "funding":
          out.push(this.settleFunding(d));
          break;
        default: {
          const never = d;
          throw new Error(`unknown duty ${JSON.stringify(never)}`);
        }
      }
    }
    return out;
  }
  report() {
    return this.reportOver(this.results, this.late);
  }
  /**
   * The report of a fresh scorer with window [sim_start, end): that window's roster; each duty due
   * by `end` was settled at its deadline in deadline order (settle(end) was called), so its result
   * is reused.
   */
  reportAt(end) {
    const roster = dutyRoster(this.ctx.world, this.p, this.ctx.sim_start, end);
    const byKey = new Map(this.results.map((x) => [x.duty.key, x]));
    const results = roster.flatMap((d) => {
      if (d.deadline > end) return [];
      const x = byKey.get(d.key);
      if (!x) throw new Error(`internal: broker-ops duty ${d.key} due by ${isoInstant(end)} was not settled`);
      return [x];
    });
    return this.reportOver(
      results,
      roster.filter((d) => d.deadline > end).map((d) => ({ key: d.key, reason: "settles after window" }))
    );
  }
  reportOver(r, late) {
    const count = (f) => r.filter(f).length;
    const share = (met, n) => n === 0 ? null : met / n;
    const stopN = count((x) => x.duty.kind === "stop");
    const fundN = count((x) => x.duty.kind === "funding");
    const stopMet = count((x) => x.duty.kind === "stop" && x.status === "met");
    const fundMet = count((x) => x.duty.kind === "funding" && x.status === "met");
    const lat = r.flatMap((x) => x.latency === null ? [] : [x.latency]).sort((a, b) => a - b);
    const median = lat.length === 0 ? null : minutes((lat[lat.length - 1 >> 1] + lat[lat.length >> 1]) / 2);
    const notScorable = [...late];
    if (r.length === 0) notScorable.push({ key: "routine_score", reason: "no duty settled inside the window" });
    return {
      primary: { name: "routine_score", value: share(stopMet + fundMet, r.length), direction: "higher" },
      metrics: {
        duties: r.length,
        duties_met: stopMet + fundMet,
        duties_wrong: count((x) => x.status === "wrong"),
        duties_missed: count((x) => x.status === "missed"),
        stop_duties: stopN,
        stop_score: share(stopMet, stopN),
        funding_duties: fundN,
        funding_score: share(fundMet, fundN),
        median_latency_min: median,
        stops_submitted: this.stops.length,
        funding_submitted: this.funding.length
      },
      not_scorable: notScorable
    };
  }
}
export {
  BROKER_OPS_SCORER_VERSION,
  BrokerOpsScorer,
  stopProblem
};
//# sourceMappingURL=scorer.js.map
