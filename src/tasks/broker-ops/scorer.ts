import { lowerBound } from "../../common/sorted-search.js";
import { HOUR_MS, isoInstant } from "../../common/time.js";
import { effectsOfCommitment } from "../../tools/browser/browser-tools.js";
import type { AsOfView } from "../../world/as-of-view.js";
import { type CommitmentEvent, ScorerBase } from "../scorer-base.js";
import type { NotScorable, Outcome, ScoreReport, ScorerContext } from "../task.js";
import { markOf } from "./book-view.js";
import { type Duty, rosterThrough } from "./duties.js";
import {
  bodyFields,
  FUNDING_API_PATH,
  FUNDING_FORM_PATH,
  FundingInput,
  STOP_API_PATH,
  STOP_FORM_PATH,
  StopInput,
} from "./instructions.js";
import { BrokerOpsParams } from "./params.js";
import { PLACE_STOP_TOOL, SEND_FUNDING_TOOL } from "./site-tools.js";
import { BROKER_HOST } from "./web/broker-host.js";

export const BROKER_OPS_SCORER_VERSION = "broker-ops-scorer/1";

/** A stop the site accepted, as the ledger shows it (its mark is recomputed from the world). */
interface Stop extends StopInput {
  t: number;
  /** the last completed close at submission (null: no candle) */
  mark: number | null;
  used: boolean;
}
interface Funding extends FundingInput {
  t: number;
}

export type DutyStatus = "met" | "wrong" | "missed";

const opposite = (s: "buy" | "sell") => (s === "buy" ? "sell" : "buy");
const pathOf = (p: string) => p.split("?")[0] ?? p;
const minutes = (ms: number) => Math.round(ms / 60_000);

/** Why a stop does not protect the position a fill changed (null: it does). */
export function stopProblem(
  s: { side: string; qty: number; trigger_price: number; mark: number | null },
  fillSide: "buy" | "sell",
): string | null {
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

/**
 * broker-ops scorer. Duties: every fill of the world's PM book with t in [sim_start, sim_end) asks
 * for a protective stop in [fill, fill + stop window); every margin call for a funding instruction
 * for that call with amount ≥ the required amount in [call, call + funding window). The desk's
 * instructions are the site's accepted writes, read from the ledger: API-mode commitments
 * (`place_stop`, `send_funding`) and browser actions whose effects include a POST to the broker
 * site's stop or funding form answered 201. A stop protects a fill when it has the opposite side,
 * qty > 0 and a trigger on the protective side of the mark at submission (sell below, buy above;
 * the mark is recomputed from the world's candles); each stop meets at most one fill duty
 * (earliest deadline first, earliest qualifying stop). A duty settles at its deadline: `met`
 * (credit 1), `wrong` (an instruction for it came in time but did not qualify) or `missed`;
 * duties whose deadline is after sim_end are not scorable. Primary `routine_score` = met / scored.
 */
export class BrokerOpsScorer extends ScorerBase {
  protected readonly watchedTools: ReadonlySet<string> = new Set<string>();
  private readonly p: BrokerOpsParams;
  private readonly scored: Duty[];
  private readonly late: NotScorable[];
  private readonly stops: Stop[] = [];
  /** whether `stops` is in submission-time order (always, on one clock; else `stopsIn` scans) */
  private stopsInOrder = true;
  private readonly funding: Funding[] = [];
  private readonly results: { duty: Duty; status: DutyStatus; latency: number | null }[] = [];
  private emitted = 0;
  private clock = 0;
  private readonly view: AsOfView;
  /** the roster of the window [sim_start, end), from one read of the world */
  private readonly rosterAt: (end: number) => Duty[];

  constructor(ctx: ScorerContext) {
    super();
    this.p = BrokerOpsParams.parse(ctx.params ?? {});
    this.rosterAt = rosterThrough(ctx.world, this.p, ctx.sim_start, ctx.sim_end);
    const roster = this.rosterAt(ctx.sim_end);
    this.scored = roster.filter((d) => d.deadline <= ctx.sim_end);
    this.late = roster
      .filter((d) => d.deadline > ctx.sim_end)
      .map((d) => ({ key: d.key, reason: "settles after window" }));
    this.view = ctx.world.at(() => this.clock);
  }

  private markAt(symbol: string, t: number): number | null {
    const s = this.p.symbols[symbol];
    if (s === undefined) return null;
    this.clock = t;
    return markOf(this.view, this.p.venue, s)?.price ?? null;
  }

  private addStop(fields: unknown, t: number): void {
    const parsed = StopInput.safeParse(fields);
    if (!parsed.success) return;
    const last = this.stops.at(-1);
    if (last !== undefined && t < last.t) this.stopsInOrder = false;
    this.stops.push({ ...parsed.data, t, mark: this.markAt(parsed.data.symbol, t), used: false });
  }

  /** the stops of `symbol` submitted in [from, to), in submission order */
  private stopsIn(symbol: string, from: number, to: number): Stop[] {
    const all = this.stops;
    if (!this.stopsInOrder) return all.filter((s) => s.symbol === symbol && s.t >= from && s.t < to);
    const lo = lowerBound(all, from, (s) => s.t);
    const out: Stop[] = [];
    for (let i = lo; i < all.length && (all[i] as Stop).t < to; i++)
      if ((all[i] as Stop).symbol === symbol) out.push(all[i] as Stop);
    return out;
  }

  private addFunding(fields: unknown, t: number): void {
    const parsed = FundingInput.safeParse(fields);
    if (parsed.success) this.funding.push({ ...parsed.data, t });
  }

  protected override onCommitment(e: CommitmentEvent): void {
    if (e.tool === PLACE_STOP_TOOL) {
      this.addStop(e.args, e.t);
      return;
    }
    if (e.tool === SEND_FUNDING_TOOL) {
      this.addFunding(e.args, e.t);
      return;
    }
    for (const x of effectsOfCommitment(e)) {
      if (
        x.kind !== "request" ||
        x.host !== BROKER_HOST ||
        x.method !== "POST" ||
        x.status !== 201 ||
        x.body === undefined
      )
        continue;
      const path = pathOf(x.path);
      if (path === STOP_FORM_PATH || path === STOP_API_PATH) this.addStop(bodyFields(x.body), e.t);
      else if (path === FUNDING_FORM_PATH || path === FUNDING_API_PATH) this.addFunding(bodyFields(x.body), e.t);
    }
  }

  private settleStop(d: Extract<Duty, { kind: "stop" }>): Outcome {
    const f = d.fill;
    const inWindow = this.stopsIn(f.p.symbol, d.t, d.deadline);
    const hit = inWindow.find((s) => !s.used && stopProblem(s, f.p.side) === null);
    const status: DutyStatus = hit ? "met" : inWindow.length > 0 ? "wrong" : "missed";
    if (hit) hit.used = true;
    this.results.push({ duty: d, status, latency: hit ? hit.t - d.t : null });
    const stopJson = (s: Stop) => ({
      submitted_at: isoInstant(s.t),
      side: s.side,
      qty: s.qty,
      trigger_price: s.trigger_price,
      mark: s.mark,
    });
    return {
      t: d.deadline,
      key: d.key,
      status,
      credit: status === "met" ? 1 : 0,
      detail: {
        duty: "protective_stop",
        ...(hit ? { reaction_h: (hit.t - d.t) / HOUR_MS } : {}),
        fill_id: f.id,
        order_id: f.p.order_id,
        symbol: f.p.symbol,
        fill_side: f.p.side,
        fill_qty: f.p.qty,
        fill_price: f.p.price,
        filled_at: isoInstant(f.t),
        deadline: isoInstant(d.deadline),
        ...(hit
          ? { stop: stopJson(hit) }
          : {
              stops_in_window: inWindow.map((s) => ({
                ...stopJson(s),
                problem:
                  s.used && stopProblem(s, f.p.side) === null
                    ? "already counted for an earlier fill"
                    : stopProblem(s, f.p.side),
              })),
            }),
      },
    };
  }

  private settleFunding(d: Extract<Duty, { kind: "funding" }>): Outcome {
    const c = d.call.p;
    const inWindow = this.funding.filter((x) => x.call_id === c.call_id && x.t >= d.t && x.t < d.deadline);
    const hit = inWindow.find((x) => x.amount >= c.required_amount);
    const status: DutyStatus = hit ? "met" : inWindow.length > 0 ? "wrong" : "missed";
    this.results.push({ duty: d, status, latency: hit ? hit.t - d.t : null });
    return {
      t: d.deadline,
      key: d.key,
      status,
      credit: status === "met" ? 1 : 0,
      detail: {
        duty: "funding_instruction",
        ...(hit ? { reaction_h: (hit.t - d.t) / HOUR_MS } : {}),
        call_id: c.call_id,
        issued_at: isoInstant(d.t),
        required_amount: c.required_amount,
        deadline: isoInstant(d.deadline),
        instructions_in_window: inWindow.map((x) => ({ submitted_at: isoInstant(x.t), amount: x.amount })),
      },
    };
  }

  settle(t: number): Outcome[] {
    const out: Outcome[] = [];
    while (this.emitted < this.scored.length && this.scored[this.emitted]!.deadline <= t) {
      const d = this.scored[this.emitted++]!;
      switch (d.kind) {
        case "stop":
          out.push(this.settleStop(d));
          break;
        case "funding":
          out.push(this.settleFunding(d));
          break;
        default: {
          const never: never = d;
          throw new Error(`unknown duty ${JSON.stringify(never)}`);
        }
      }
    }
    return out;
  }

  report(): ScoreReport {
    return this.reportOver(this.results, this.late);
  }

  /**
   * The report of a fresh scorer with window [sim_start, end): that window's roster; each duty due
   * by `end` was settled at its deadline in deadline order (settle(end) was called), so its result
   * is reused.
   */
  reportAt(end: number): ScoreReport {
    const roster = this.rosterAt(end);
    const byKey = new Map(this.results.map((x) => [x.duty.key, x]));
    const results = roster.flatMap((d) => {
      if (d.deadline > end) return [];
      const x = byKey.get(d.key);
      if (!x) throw new Error(`internal: broker-ops duty ${d.key} due by ${isoInstant(end)} was not settled`);
      return [x];
    });
    return this.reportOver(
      results,
      roster.filter((d) => d.deadline > end).map((d) => ({ key: d.key, reason: "settles after window" })),
    );
  }

  private reportOver(r: BrokerOpsScorer["results"], late: readonly NotScorable[]): ScoreReport {
    const count = (f: (x: (typeof r)[number]) => boolean) => r.filter(f).length;
    const share = (met: number, n: number) => (n === 0 ? null : met / n);
    const stopN = count((x) => x.duty.kind === "stop");
    const fundN = count((x) => x.duty.kind === "funding");
    const stopMet = count((x) => x.duty.kind === "stop" && x.status === "met");
    const fundMet = count((x) => x.duty.kind === "funding" && x.status === "met");
    const lat = r.flatMap((x) => (x.latency === null ? [] : [x.latency])).sort((a, b) => a - b);
    const median = lat.length === 0 ? null : minutes((lat[(lat.length - 1) >> 1]! + lat[lat.length >> 1]!) / 2);
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
        funding_submitted: this.funding.length,
      },
      not_scorable: notScorable,
    };
  }
}
