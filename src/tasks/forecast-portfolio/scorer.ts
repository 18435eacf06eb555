import { DAY_MS, HOUR_MS, isoDay } from "../../common/time.js";
import type { MarketRow } from "../../world/types.js";
import { integrateSteps, meanOf } from "../metrics.js";
import { type CommitmentEvent, ScorerBase, type ToolCallEvent } from "../scorer-base.js";
import type { NotScorable, Outcome, ScoreReport, ScorerContext } from "../task.js";
import {
  brierSkill,
  bssSteps,
  type Forecast,
  referenceBrier,
  type Segment,
  standingSegments,
  timeAverage,
  uniformForecast,
} from "./brier.js";
import { canonicalForecast } from "./forecast-rule.js";
import { SUBMIT_FORECAST_TOOL, SubmitForecastArgs } from "./forecast-tools.js";
import { MarketFacts } from "./market-facts.js";
import { ForecastPortfolioParams } from "./params.js";

export const FORECAST_PORTFOLIO_SCORER_VERSION = "forecast-portfolio-scorer/1";

/** A question of the scored set. */
export interface ScoredQuestion {
  market: MarketRow;
  result: string;
  /** max(open, sim_start) */
  activation: number;
  /** min(closed_at, scheduled_end) */
  t_res: number;
  /** max(t_res, the resolution's visibility): feedback never precedes the public result */
  settle_at: number;
}

/** Per-question score pieces. */
export interface QuestionScore {
  ta: number;
  final_forecast: Forecast;
  final_default: boolean;
  final_bss: number;
  segments: Segment[];
}

/** Mean BSS over the parts of the segments inside [from, to) (mean 0 when they do not overlap it). */
function meanOver(segments: readonly Segment[], from: number, to: number, truth: string): { ms: number; mean: number } {
  const r = integrateSteps(bssSteps(segments, truth), from, to);
  return { ms: r.ms, mean: r.ms === 0 ? 0 : r.integral / r.ms };
}

/** BSS of the forecasts standing over the question's scored interval, time-integrated exactly. */
export function scoreQuestion(
  q: Pick<ScoredQuestion, "market" | "result" | "activation" | "t_res">,
  changes: readonly { t: number; forecast: Forecast }[],
): QuestionScore {
  const segments = standingSegments(q.activation, q.t_res, uniformForecast(q.market.outcomes), changes);
  const last = segments.at(-1)!;
  return {
    ta: timeAverage(segments, q.result),
    final_forecast: last.forecast,
    final_default: last.default,
    final_bss: brierSkill(last.forecast, q.result),
    segments,
  };
}

/** 1 − mean(1 − x) / BS_ref (xs non-empty) */
const skill = (xs: readonly number[], bsRef: number) => 1 - (meanOf(xs.map((x) => 1 - x)) as number) / bsRef;

/**
 * forecast-portfolio scorer. The scored set: the task's binary markets whose resolution is clean
 * (the result is one of the outcomes), with t_res = min(closed_at, scheduled_end) in the run,
 * after activation = max(open, sim_start), settling (at max(t_res, resolution visible_at)) by
 * sim_end. Every `submit_forecast` commitment is re-checked against the raw world with the tool's
 * rules; the standing forecast (uniform until the first accepted one) is integrated exactly over
 * [activation, t_res) → TA_q. Primary `bss` = 1 − mean(1 − TA_q) / BS_ref, BS_ref = 2b(1 − b).
 */
export class ForecastPortfolioScorer extends ScorerBase {
  protected readonly watchedTools = new Set([SUBMIT_FORECAST_TOOL]);
  private readonly p: ForecastPortfolioParams;
  private readonly facts: MarketFacts;
  private readonly scored: ScoredQuestion[];
  private readonly excluded: NotScorable[];
  private readonly sim_start: number;
  /** market anchors by market id (a pure function of the world and the question) */
  private readonly anchors = new Map<string, number>();
  private readonly changes = new Map<string, { t: number; forecast: Forecast }[]>();
  private emitted = 0;
  private accepted = 0;
  private ignored = 0;
  private rejectedCalls = 0;

  constructor(ctx: ScorerContext) {
    super();
    this.p = ForecastPortfolioParams.parse(ctx.params ?? {});
    this.facts = new MarketFacts(ctx.world.db, this.p.market_prefix);
    this.sim_start = ctx.sim_start;
    ({ scored: this.scored, excluded: this.excluded } = this.questionSet(ctx.sim_end));
  }

  /** the scored set and the exclusions of the window [sim_start, end) */
  private questionSet(end: number): { scored: ScoredQuestion[]; excluded: NotScorable[] } {
    const scored: ScoredQuestion[] = [];
    const excluded: NotScorable[] = [];
    for (const m of this.facts.markets) {
      const activation = Math.max(m.open, this.sim_start);
      if (activation >= end) continue;
      const r = this.facts.resolution(m.id);
      const key = `question:${m.id}`;
      if (r === null) {
        if (m.scheduled_end >= this.sim_start) excluded.push({ key, reason: "settles after window" });
        continue;
      }
      const t_res = Math.min(r.closed_at, m.scheduled_end);
      if (t_res < this.sim_start) continue;
      const settle_at = Math.max(t_res, r.visible_at);
      if (settle_at > end) excluded.push({ key, reason: "settles after window" });
      else if (!m.outcomes.includes(r.result))
        excluded.push({ key, reason: `unclean resolution (result ${JSON.stringify(r.result)})` });
      else if (t_res <= activation) excluded.push({ key, reason: "resolved at or before its activation" });
      else scored.push({ market: m, result: r.result, activation, t_res, settle_at });
    }
    scored.sort(
      (a, b) => a.settle_at - b.settle_at || (a.market.id < b.market.id ? -1 : a.market.id > b.market.id ? 1 : 0),
    );
    return { scored, excluded };
  }

  /** the scored set (tests and anchors) */
  questions(): readonly ScoredQuestion[] {
    return this.scored;
  }

  protected override onToolCall(e: ToolCallEvent): void {
    if (e.status !== "ok") this.rejectedCalls++;
  }

  protected override onCommitment(e: CommitmentEvent): void {
    if (e.tool !== SUBMIT_FORECAST_TOOL) return;
    const f = this.recheck(e.t, e.args);
    if (f === null) {
      this.ignored++;
      return;
    }
    this.accepted++;
    const list = this.changes.get(f.market) ?? [];
    list.push({ t: e.t, forecast: f.forecast });
    this.changes.set(f.market, list);
  }

  settle(t: number): Outcome[] {
    const out: Outcome[] = [];
    while (this.emitted < this.scored.length) {
      const q = this.scored[this.emitted]!;
      if (q.settle_at > t) break;
      out.push(this.outcome(q));
      this.emitted++;
    }
    return out;
  }

  report(): ScoreReport {
    return this.reportOver(this.scored, this.excluded);
  }

  /**
   * The report of a fresh scorer with window [sim_start, end): that window's question set; every
   * scored question's forecasts before its t_res (≤ end) are already seen.
   */
  reportAt(end: number): ScoreReport {
    const { scored, excluded } = this.questionSet(end);
    return this.reportOver(scored, excluded);
  }

  private reportOver(scored: readonly ScoredQuestion[], excluded: readonly NotScorable[]): ScoreReport {
    const notScorable: NotScorable[] = [...excluded];
    const n = scored.length;
    const scores = scored.map((q) => this.score(q));
    const first = scored.map((q) => q.market.outcomes[0]!);
    const b = n === 0 ? null : scored.filter((q, i) => q.result === first[i]).length / n;
    const bsRef = b === null ? null : referenceBrier(b);
    if (n === 0) notScorable.push({ key: "bss", reason: "no question resolves cleanly inside the window" });
    else if (bsRef === 0)
      notScorable.push({ key: "bss", reason: "every scored question resolved the same way (BS_ref = 0)" });
    const usable = bsRef !== null && bsRef > 0;
    const tas = scores.map((s) => s.ta);
    const finals = scores.map((s) => s.final_bss);
    const uniform = scored.map((q) => brierSkill(uniformForecast(q.market.outcomes), q.result));
    const market = scored.map((q) => this.anchorOf(q));
    let own = 0;
    let total = 0;
    for (const s of scores)
      for (const seg of s.segments) {
        total += seg.to - seg.from;
        if (!seg.default) own += seg.to - seg.from;
      }
    return {
      primary: { name: "bss", value: usable ? skill(tas, bsRef) : null, direction: "higher" },
      metrics: {
        bss: usable ? skill(tas, bsRef) : null,
        ta_bss: meanOf(tas),
        final_bss: usable ? skill(finals, bsRef) : null,
        final_ta_bss: meanOf(finals),
        anchor_uniform_bss: usable ? skill(uniform, bsRef) : null,
        anchor_market_bss: usable ? skill(market, bsRef) : null,
        anchor_market_ta_bss: meanOf(market),
        base_rate: b,
        bs_ref: bsRef,
        questions_scored: n,
        questions_forecast: scores.filter((s) => s.segments.some((x) => !x.default)).length,
        coverage: total === 0 ? null : own / total,
        forecasts_accepted: this.accepted,
        forecasts_rejected: this.rejectedCalls,
        commitments_ignored: this.ignored,
      },
      not_scorable: notScorable,
    };
  }

  private anchorOf(q: ScoredQuestion): number {
    const done = this.anchors.get(q.market.id);
    if (done !== undefined) return done;
    const a = this.marketAnchor(q);
    this.anchors.set(q.market.id, a);
    return a;
  }

  /** the market-price anchor of one question: {first: p, second: 1 − p} from the first outcome's visible price */
  marketAnchor(q: ScoredQuestion): number {
    const [o0, o1] = q.market.outcomes as [string, string];
    const changes = this.facts
      .prices(q.market.id, o0)
      .map((x) => ({ t: x.visible_at, forecast: { [o0]: x.p, [o1]: 1 - x.p } as Forecast }));
    return timeAverage(standingSegments(q.activation, q.t_res, uniformForecast(q.market.outcomes), changes), q.result);
  }

  private score(q: ScoredQuestion): QuestionScore {
    return scoreQuestion(q, this.changes.get(q.market.id) ?? []);
  }

  /** the tool's rules, re-applied from the raw world at the commitment's instant */
  private recheck(t: number, args: unknown): { market: string; forecast: Forecast } | null {
    const a = SubmitForecastArgs.safeParse(args);
    if (!a.success) return null;
    const m = this.facts.market(a.data.question_id);
    if (!m || m.visible_at > t || m.open > t || t >= m.scheduled_end) return null;
    const r = this.facts.resolution(m.id);
    if (r !== null && r.visible_at <= t) return null;
    if (a.data.news_id !== undefined) {
      const v = this.facts.newsVisibleAt(a.data.news_id);
      if (v === null || v > t) return null;
    }
    const c = canonicalForecast(a.data.forecast, m.outcomes, this.p.sum_tolerance);
    return c.ok ? { market: m.id, forecast: c.forecast } : null;
  }

  private outcome(q: ScoredQuestion): Outcome {
    const s = this.score(q);
    const def = meanOver(
      s.segments.filter((x) => x.default),
      q.activation,
      q.t_res,
      q.result,
    );
    const own = meanOver(
      s.segments.filter((x) => !x.default),
      q.activation,
      q.t_res,
      q.result,
    );
    const daily: { day: string; hours: number; mean_bss: number }[] = [];
    for (let d = Math.floor(q.activation / DAY_MS) * DAY_MS; d < q.t_res; d += DAY_MS) {
      const m = meanOver(s.segments, Math.max(d, q.activation), Math.min(d + DAY_MS, q.t_res), q.result);
      daily.push({ day: isoDay(d), hours: m.ms / HOUR_MS, mean_bss: m.mean });
    }
    const submissions = (this.changes.get(q.market.id) ?? []).filter((c) => c.t < q.t_res).length;
    return {
      t: q.settle_at,
      key: `question:${q.market.id}`,
      status: own.ms > 0 ? "forecast" : "default",
      credit: s.ta,
      detail: {
        question_id: q.market.id,
        question: q.market.question,
        result: q.result,
        activation: q.activation,
        t_res: q.t_res,
        ta_bss: s.ta,
        time_avg_brier: 1 - s.ta,
        final_forecast: s.final_forecast,
        final_is_default: s.final_default,
        final_bss: s.final_bss,
        submissions,
        decomposition: {
          default_uniform: { hours: def.ms / HOUR_MS, mean_bss: def.ms === 0 ? null : def.mean },
          own_forecasts: { hours: own.ms / HOUR_MS, mean_bss: own.ms === 0 ? null : own.mean },
        },
        daily,
      },
    };
  }
}
