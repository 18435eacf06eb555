import { HOUR_MS, isoInstant } from "../../common/time.js";
import { f1Of, precisionOf, quantileOf, recallOf, sumOf } from "../metrics.js";
import { type CommitmentEvent, ScorerBase, type ToolCallEvent } from "../scorer-base.js";
import type { NotScorable, Outcome, ScoreReport, ScorerContext } from "../task.js";
import { BreakoutTruth, type Breakpoint, type Direction } from "./breakout-truth.js";
import { isMonitored } from "./markets.js";
import { BreakoutNewsParams, windowMs } from "./params.js";
import { NOTIFY_TOOL, NotifyArgs } from "./tools.js";

export const BREAKOUT_NEWS_SCORER_VERSION = "breakout-news-scorer/1";

export type BreakpointStatus = "covered_news" | "covered_timing" | "miss";
export type ClaimStatus = "stale" | "wrong_direction" | "false_alarm";

interface ScoredClaim {
  key: string;
  market: string;
  news_id: string;
  direction: Direction;
  t: number;
  actor: string;
  /** set when the claim covered a breakpoint */
  covered: Breakpoint | null;
  /** set when the claim expired uncovered */
  expired: { status: ClaimStatus; excused: boolean } | null;
}

interface ClosedBreakpoint {
  bp: Breakpoint;
  status: BreakpointStatus;
  credit: number;
  claim: ScoredClaim | null;
}

const hours = (ms: number) => ms / HOUR_MS;
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * breakout-news scorer (tasks.md §1), a pure function of truth, the untouched world and the
 * ledger's raw `notify` commitments, settled in event order:
 * - a breakpoint of a monitored market with t_start in (sim_start, sim_end] closes at t_start; the
 *   earliest unresolved same-direction claim with τ < t_start ≤ τ + W covers it: `covered_news`
 *   when the claim cites one of its gold articles (credit 1 − clamp((τ − pub)/(t_start − pub), 0,
 *   1), pub = that article's publication), else `covered_timing` (credit `timing_credit`); no
 *   such claim: `miss` (credit 0);
 * - a claim nothing covered expires at τ + W as `stale` (it cites a gold article of a breakpoint of
 *   its market that started at or before τ), else `wrong_direction` (an opposite breakpoint of its
 *   market started in (τ, τ + W]; excused from the precision denominator when the earliest such
 *   breakpoint was a `miss`), else `false_alarm`;
 * - at equal times breakpoints close before claims expire; a claim expiring after sim_end and not
 *   covered by then is `not_scorable` ("settles after window").
 * Commitments are re-checked (arguments, monitored market visible at τ, article visible at τ, no
 * claim of the same market still inside its window); anything else is counted in
 * `commitments_ignored`.
 */
export class BreakoutNewsScorer extends ScorerBase {
  protected readonly watchedTools = new Set([NOTIFY_TOOL]);
  private readonly p: BreakoutNewsParams;
  private readonly W: number;
  private readonly truth: BreakoutTruth;
  private readonly sim_end: number;
  private readonly scoredBps: Breakpoint[];
  private readonly claims: ScoredClaim[] = [];
  private readonly lastClaim = new Map<string, ScoredClaim>();
  private readonly closed: ClosedBreakpoint[] = [];
  private readonly statusOf = new Map<string, BreakpointStatus>();
  private bpNext = 0;
  private claimNext = 0;
  private ignored = 0;
  private rejectedCalls = 0;

  constructor(ctx: ScorerContext) {
    super();
    this.p = BreakoutNewsParams.parse(ctx.params ?? {});
    this.W = windowMs(this.p);
    this.truth = new BreakoutTruth(ctx.truth, ctx.world, this.p);
    this.sim_end = ctx.sim_end;
    this.scoredBps = this.truth.breakpoints.filter((b) => b.t_start > ctx.sim_start && b.t_start <= ctx.sim_end);
  }

  protected override onToolCall(e: ToolCallEvent): void {
    if (e.status !== "ok") this.rejectedCalls++;
  }

  protected override onCommitment(e: CommitmentEvent): void {
    if (e.tool !== NOTIFY_TOOL) return;
    const a = NotifyArgs.safeParse(e.args);
    if (!a.success || !this.valid(a.data, e.t)) {
      this.ignored++;
      return;
    }
    const c: ScoredClaim = {
      key: `claim:${a.data.market_id}@${isoInstant(e.t)}`,
      market: a.data.market_id,
      news_id: a.data.news_id,
      direction: a.data.direction,
      t: e.t,
      actor: e.actor,
      covered: null,
      expired: null,
    };
    this.claims.push(c);
    this.lastClaim.set(c.market, c);
  }

  private valid(a: NotifyArgs, t: number): boolean {
    if (!isMonitored(a.market_id, this.p)) return false;
    const mv = this.truth.marketVisibleAt(a.market_id);
    if (mv === null || mv > t) return false;
    const n = this.truth.news(a.news_id);
    if (n === null || n.visible_at > t) return false;
    const last = this.lastClaim.get(a.market_id);
    return !last || last.t + this.W <= t;
  }

  settle(t: number): Outcome[] {
    const out: Outcome[] = [];
    const until = Math.min(t, this.sim_end);
    for (;;) {
      while (this.claimNext < this.claims.length && this.claims[this.claimNext]!.covered !== null) this.claimNext++;
      const bp = this.scoredBps[this.bpNext];
      const c = this.claims[this.claimNext];
      const tb = bp ? bp.t_start : Number.POSITIVE_INFINITY;
      const tc = c ? c.t + this.W : Number.POSITIVE_INFINITY;
      if (Math.min(tb, tc) > until) break;
      if (bp && tb <= tc) {
        out.push(this.close(bp));
        this.bpNext++;
      } else if (c) {
        out.push(this.expire(c));
        this.claimNext++;
      }
    }
    return out;
  }

  private close(bp: Breakpoint): Outcome {
    let claim: ScoredClaim | null = null;
    for (let i = this.claimNext; i < this.claims.length; i++) {
      const c = this.claims[i]!;
      if (c.covered || c.expired || c.market !== bp.market || c.direction !== bp.direction) continue;
      if (c.t < bp.t_start && bp.t_start <= c.t + this.W) {
        claim = c;
        break;
      }
    }
    let status: BreakpointStatus = "miss";
    let credit = 0;
    let pub: number | null = null;
    if (claim) {
      claim.covered = bp;
      if (bp.goldIds.has(claim.news_id)) {
        status = "covered_news";
        pub = this.truth.news(claim.news_id)!.published_at;
        credit = 1 - clamp01((claim.t - pub) / (bp.t_start - pub));
      } else {
        status = "covered_timing";
        credit = this.p.timing_credit;
      }
    }
    this.closed.push({ bp, status, credit, claim });
    this.statusOf.set(bp.id, status);
    return {
      t: bp.t_start,
      key: `bp:${bp.id}`,
      status,
      credit,
      // `size` is the move to the end price: feedback waits until that price (and each gold article) is visible
      released_at: this.truth.breakpointKnownAt(bp),
      detail: {
        kind: "breakpoint",
        market: bp.market,
        breakpoint: bp.id,
        direction: bp.direction,
        size: bp.size,
        t_start: isoInstant(bp.t_start),
        winnable: bp.gold.length > 0,
        // reaction: from the cited gold article's publication to the claim
        ...(claim && pub !== null ? { reaction_h: hours(claim.t - pub) } : {}),
        ...(bp.gold.length > 0
          ? {
              gold_groups: bp.gold.map((g) => ({
                group: g.group,
                articles: g.articles.map((a) => ({
                  news_id: a.news_id,
                  published_at: isoInstant(a.published_at),
                  confidence: a.confidence,
                })),
              })),
            }
          : { reason: bp.reason }),
        claim: claim
          ? {
              key: claim.key,
              claimed_at: isoInstant(claim.t),
              news_id: claim.news_id,
              direction: claim.direction,
              status,
              lead_h: hours(bp.t_start - claim.t),
              ...(pub !== null ? { news_delay_h: hours(claim.t - pub) } : {}),
            }
          : null,
      },
    };
  }

  private expire(c: ScoredClaim): Outcome {
    const bps = this.truth.ofMarket(c.market);
    const staleOf = bps.find((b) => b.t_start <= c.t && b.goldIds.has(c.news_id));
    const opposite = bps.find((b) => b.direction !== c.direction && b.t_start > c.t && b.t_start <= c.t + this.W);
    let status: ClaimStatus;
    let excused = false;
    let why: Record<string, unknown>;
    if (staleOf) {
      status = "stale";
      why = { stale_of: staleOf.id, breakpoint_started: isoInstant(staleOf.t_start) };
    } else if (opposite) {
      status = "wrong_direction";
      excused = this.statusOf.get(opposite.id) === "miss";
      why = {
        opposite_breakpoint: opposite.id,
        opposite_direction: opposite.direction,
        opposite_started: isoInstant(opposite.t_start),
        excused,
      };
    } else {
      status = "false_alarm";
      why = {};
    }
    c.expired = { status, excused };
    // the verdict rests on the market's prices through the window's end and on any breakpoint it names
    let released_at = this.truth.pricesKnownAt(c.market, c.t + this.W);
    for (const b of [staleOf, opposite]) if (b) released_at = Math.max(released_at, this.truth.breakpointKnownAt(b));
    return {
      t: c.t + this.W,
      key: c.key,
      status,
      credit: 0,
      released_at,
      detail: {
        kind: "claim",
        market: c.market,
        claimed_at: isoInstant(c.t),
        news_id: c.news_id,
        direction: c.direction,
        window_ends: isoInstant(c.t + this.W),
        ...why,
      },
    };
  }

  /**
   * The report of a fresh scorer with window [sim_start, end): sim_end enters scoring only as the
   * settle clamp and the breakpoint filter, and nothing after `end` has closed yet (settle(end) was
   * the last call), so the state after the prefix is that scorer's state.
   */
  reportAt(_end: number): ScoreReport {
    return this.report();
  }

  report(): ScoreReport {
    const notScorable: NotScorable[] = [];
    for (const c of this.claims)
      if (!c.covered && !c.expired) notScorable.push({ key: c.key, reason: "settles after window" });

    const m = this.metricsOf(this.closed, this.claims);
    if (m.cov_f1 === null) notScorable.push({ key: "cov_f1", reason: "no breakpoint closed in the window" });
    if (m.tc_f1 === null) notScorable.push({ key: "tc_f1", reason: "no winnable breakpoint closed in the window" });

    const covered = this.closed.filter((x) => x.claim !== null);
    const newsDelays = covered.flatMap((x) =>
      x.status === "covered_news" ? [hours(x.claim!.t - this.truth.news(x.claim!.news_id)!.published_at)] : [],
    );
    const leads = covered.map((x) => hours(x.bp.t_start - x.claim!.t));
    const wrong = this.claims.filter((c) => c.expired?.status === "wrong_direction");
    const metrics: Record<string, number | null> = {
      cov_f1: m.cov_f1,
      tc_f1: m.tc_f1,
      precision: m.precision,
      cov_recall: m.cov_recall,
      tc_recall: m.tc_recall,
      direction_acc: recallOf(covered.length, covered.length + wrong.length),
      lead_h_p50: quantileOf(leads, 0.5),
      lead_h_p90: quantileOf(leads, 0.9),
      news_delay_h_p50: quantileOf(newsDelays, 0.5),
      news_delay_h_p90: quantileOf(newsDelays, 0.9),
      breakpoints: this.closed.length,
      winnable: this.closed.filter((x) => x.bp.gold.length > 0).length,
      covered_news: this.closed.filter((x) => x.status === "covered_news").length,
      covered_timing: this.closed.filter((x) => x.status === "covered_timing").length,
      miss: this.closed.filter((x) => x.status === "miss").length,
      claims: this.claims.length,
      stale: this.claims.filter((c) => c.expired?.status === "stale").length,
      wrong_direction: wrong.length,
      wrong_direction_excused: wrong.filter((c) => c.expired?.excused).length,
      false_alarm: this.claims.filter((c) => c.expired?.status === "false_alarm").length,
      claims_unsettled: notScorable.filter((x) => x.key.startsWith("claim:")).length,
      notify_rejected: this.rejectedCalls,
      commitments_ignored: this.ignored,
    };
    for (const market of this.truth.markets) {
      const s = this.metricsOf(
        this.closed.filter((x) => x.bp.market === market),
        this.claims.filter((c) => c.market === market),
      );
      metrics[`${market}.cov_f1`] = s.cov_f1;
      metrics[`${market}.tc_f1`] = s.tc_f1;
      metrics[`${market}.precision`] = s.precision;
      metrics[`${market}.cov_recall`] = s.cov_recall;
    }
    return { primary: { name: "cov_f1", value: m.cov_f1, direction: "higher" }, metrics, not_scorable: notScorable };
  }

  private metricsOf(closed: readonly ClosedBreakpoint[], claims: readonly ScoredClaim[]) {
    const covering = claims.filter((c) => c.covered !== null).length;
    const expired = claims.filter((c) => c.expired !== null);
    const excused = expired.filter((c) => c.expired!.excused).length;
    const precision = precisionOf(covering, covering + expired.length - excused);
    const covered = closed.filter((x) => x.claim !== null).length;
    const cov_recall = recallOf(covered, closed.length);
    const winnable = closed.filter((x) => x.bp.gold.length > 0);
    const tc_recall = recallOf(sumOf(winnable.map((x) => x.credit)), winnable.length);
    return { precision, cov_recall, tc_recall, cov_f1: f1Of(precision, cov_recall), tc_f1: f1Of(precision, tc_recall) };
  }
}
