import { HOUR_MS } from "../../common/time.js";
import { type CommitmentEvent, ScorerBase } from "../scorer-base.js";
import type { NotScorable, Outcome, ScoreReport, ScorerContext } from "../task.js";
import { WorldCandles } from "./candle-series.js";
import { PriceCheckParams } from "./params.js";
import { ABSTAIN_TOOL, AbstainArgs, isoHour, REPORT_TOOL, ReportArgs } from "./tools.js";
import { PriceTruth } from "./truth.js";
import { type PriceCheckSetup, resolveSetup } from "./world-setup.js";

export const PRICE_CHECK_SCORER_VERSION = "price-check-scorer/1";
/** relative tolerance of the ok threshold, so a price exactly 5 bps off is ok despite rounding */
const OK_TOLERANCE = 1e-9;

type Action = { t: number; kind: "report"; price: number } | { t: number; kind: "abstain"; reason?: string };

export type SymbolHourStatus = "ok" | "priced" | "abstain" | "miss" | "not_scorable";

/** bps_error = |price / truth − 1| · 1e4 */
export function bpsError(price: number, truth: number): number {
  return Math.abs(price / truth - 1) * 1e4;
}

/**
 * Classifies a report: `ok` when bps_error ≤ ok_bps; otherwise `priced` with
 * excess_bps = min(bps_error − ok_bps, cap) (the error beyond the tolerance, capped).
 */
export function classify(bps: number, okBps: number, capBps: number): { status: "ok" | "priced"; excess_bps: number } {
  if (bps <= okBps * (1 + OK_TOLERANCE) + OK_TOLERANCE) return { status: "ok", excess_bps: 0 };
  return { status: "priced", excess_bps: Math.min(bps - okBps, capBps) };
}

/**
 * price-check scorer (tasks.md §5). Units: symbol-hours, the full UTC hours [h, h + 1 h) inside
 * [sim_start, sim_end), keyed `${symbol}@${YYYY-MM-DDTHH}`, settled at the hour's end (in (t, key)
 * order); a partial hour that ends after sim_end is `not_scorable` ("settles after window"). The
 * last accepted `report`/`abstain` commitment of the hour wins (an action at exactly h + 1 h belongs
 * to the next hour). A report is judged against the truth at its own time (PriceTruth): `ok` /
 * `priced` (excess, see `classify`); `abstain`; `miss` when the hour had no action; `not_scorable`
 * when no truth candle existed at the report's time.
 *
 * Metrics: `price_acc` (primary) = ok / scorable symbol-hours over the hours that start before the
 * first `llm_rejected` event (the budget-exhaustion rule; all hours when there is none);
 * `price_acc_raw` over all hours; `window_survived` = share of scored hours starting before that
 * event; `mean_excess_bps` over reported symbol-hours (ok count 0); `abstain_rate` over scorable
 * symbol-hours and `abstain_constraint_met` (1/0); `missed_hours`, `ok_hours`, `priced_hours`,
 * `abstained_hours`, `symbol_hours`, `mean_bps_error`.
 */
export class PriceCheckScorer extends ScorerBase {
  readonly params: PriceCheckParams;
  readonly setup: PriceCheckSetup;
  private readonly truth: PriceTruth;
  /** start instants of the scored (full, settling in window) hours */
  private readonly hours: number[] = [];
  private readonly late: NotScorable[] = [];
  private readonly actions = new Map<string, Action>();
  private readonly results = new Map<string, Outcome>();
  protected readonly watchedTools: ReadonlySet<string> = new Set<string>();
  private emittedHours = 0;
  /** reportAt's tally of the full hours so far, and the next hour it adds */
  private prefix: HourTally | null = null;
  private prefixNext = 0;

  constructor(private readonly ctx: ScorerContext) {
    super();
    this.params = PriceCheckParams.parse(ctx.params ?? {});
    const candles = new WorldCandles(ctx.world.db);
    this.setup = resolveSetup(candles.keys(), this.params);
    this.truth = new PriceTruth(candles, this.setup);
    for (let h = Math.ceil(ctx.sim_start / HOUR_MS) * HOUR_MS; h < ctx.sim_end; h += HOUR_MS) {
      if (h + HOUR_MS <= ctx.sim_end) this.hours.push(h);
      else for (const s of this.setup.symbols) this.late.push({ key: key(s, h), reason: "settles after window" });
    }
  }

  protected override onCommitment(e: CommitmentEvent): void {
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
          ...(a.data.reason !== undefined ? { reason: a.data.reason } : {}),
        });
    }
  }

  settle(t: number): Outcome[] {
    const out: Outcome[] = [];
    while (this.emittedHours < this.hours.length) {
      const h = this.hours[this.emittedHours] as number;
      if (h + HOUR_MS > t) break;
      for (const s of this.setup.symbols) out.push(this.evaluate(s, h));
      this.emittedHours++;
    }
    return out.sort((a, b) => a.t - b.t || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** the outcome of one symbol-hour (computed once; pure in the events seen before its end) */
  evaluate(symbol: string, h: number): Outcome {
    const k = key(symbol, h);
    const done = this.results.get(k);
    if (done) return done;
    const end = h + HOUR_MS;
    const a = this.actions.get(k);
    const base = { symbol, hour: isoHour(h) };
    let o: Outcome;
    if (!a) o = { t: end, key: k, status: "miss", credit: 0, detail: base };
    else if (a.kind === "abstain")
      o = {
        t: end,
        key: k,
        status: "abstain",
        credit: 0,
        detail: { ...base, action_t: a.t, ...(a.reason !== undefined ? { reason: a.reason } : {}) },
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
            reason: "no truth candle completed at or before the report",
          },
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
            truth_candles: truth.venues,
          },
        };
      }
    }
    this.results.set(k, o);
    return o;
  }

  report(): ScoreReport {
    const acc = newTally(this.budgetExhaustedAt);
    for (const h of this.hours) this.addHour(acc, h);
    return this.reportOf(acc, this.late);
  }

  /**
   * The report of a fresh scorer with window [sim_start, end): the hours ending by `end` (their
   * outcomes are cached, so no truth is read twice), the partial hour at `end` not_scorable. The
   * tally of the full hours is extended from the previous call (ends increase), in the same hour
   * and symbol order as a fresh one, so every sum is the same; it restarts when the
   * budget-exhaustion instant it was built with changed.
   */
  reportAt(end: number): ScoreReport {
    if (this.prefix === null || this.prefix.exhaustedAt !== this.budgetExhaustedAt) {
      this.prefix = newTally(this.budgetExhaustedAt);
      this.prefixNext = Math.ceil(this.ctx.sim_start / HOUR_MS) * HOUR_MS;
    }
    for (; this.prefixNext + HOUR_MS <= end; this.prefixNext += HOUR_MS) this.addHour(this.prefix, this.prefixNext);
    const late: NotScorable[] = [];
    if (this.prefixNext < end)
      for (const s of this.setup.symbols) late.push({ key: key(s, this.prefixNext), reason: "settles after window" });
    return this.reportOf(this.prefix, late);
  }

  private addHour(acc: HourTally, h: number): void {
    const survived = acc.exhaustedAt === null || h < acc.exhaustedAt;
    acc.hours++;
    if (survived) acc.survivedHours++;
    const count = acc.count;
    for (const s of this.setup.symbols) {
      const o = this.evaluate(s, h);
      const st = o.status as SymbolHourStatus;
      if (st === "not_scorable") {
        acc.notScorable.push({ key: o.key, reason: String(o.detail.reason) });
        continue;
      }
      count[st]++;
      if (st === "ok" || st === "priced") {
        acc.excessSum += o.detail.excess_bps as number;
        acc.bpsSum += o.detail.bps_error as number;
      }
      if (survived) {
        acc.counted++;
        if (st === "ok") acc.countedOk++;
      }
    }
  }

  private reportOf(acc: HourTally, late: readonly NotScorable[]): ScoreReport {
    const { count, counted, countedOk, excessSum, bpsSum, survivedHours } = acc;
    const notScorable = [...acc.notScorable];
    const total = count.ok + count.priced + count.abstain + count.miss;
    const reported = count.ok + count.priced;
    const priceAcc = counted > 0 ? countedOk / counted : null;
    if (priceAcc === null)
      notScorable.push({
        key: "price_acc",
        reason:
          total === 0
            ? "no scorable symbol-hour in the window"
            : "no scorable symbol-hour started before the first llm_rejected event",
      });
    const abstainRate = total > 0 ? count.abstain / total : null;
    return {
      primary: { name: "price_acc", value: priceAcc, direction: "higher" },
      metrics: {
        price_acc: priceAcc,
        price_acc_raw: total > 0 ? count.ok / total : null,
        window_survived: acc.hours > 0 ? survivedHours / acc.hours : null,
        mean_excess_bps: reported > 0 ? excessSum / reported : null,
        mean_bps_error: reported > 0 ? bpsSum / reported : null,
        abstain_rate: abstainRate,
        abstain_constraint_met: abstainRate === null ? null : abstainRate <= this.params.abstain_constraint ? 1 : 0,
        missed_hours: count.miss,
        ok_hours: count.ok,
        priced_hours: count.priced,
        abstained_hours: count.abstain,
        symbol_hours: total,
      },
      not_scorable: [...notScorable, ...late],
    };
  }
}

/** the running sums of a report over full hours, in hour then symbol order */
interface HourTally {
  /** the budget-exhaustion instant the survived counts were taken with */
  exhaustedAt: number | null;
  hours: number;
  survivedHours: number;
  count: { ok: number; priced: number; abstain: number; miss: number };
  counted: number;
  countedOk: number;
  excessSum: number;
  bpsSum: number;
  notScorable: NotScorable[];
}

const newTally = (exhaustedAt: number | null): HourTally => ({
  exhaustedAt,
  hours: 0,
  survivedHours: 0,
  count: { ok: 0, priced: 0, abstain: 0, miss: 0 },
  counted: 0,
  countedOk: 0,
  excessSum: 0,
  bpsSum: 0,
  notScorable: [],
});

function key(symbol: string, t: number): string {
  return `${symbol}@${isoHour(t)}`;
}
