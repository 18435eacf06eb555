import { HOUR_MS, isoInstant } from "../../kernel/day.js";
import { f1Of, precisionOf, quantileOf, recallOf, sumOf } from "../metrics.js";
import { ScorerBase } from "../scorer-base.js";
import { NEVER_RELEASED } from "../task.js";
import { ResolutionDetectParams } from "./params.js";
import { ResolutionTruth } from "./question-truth.js";
import { MARK_OUTCOME_TOOL, MarkOutcomeArgs } from "./tools.js";
const RESOLUTION_DETECT_SCORER_VERSION = "resolution-detect-scorer/1";
const hours = (ms) => ms / HOUR_MS;
class ResolutionDetectScorer extends ScorerBase {
  watchedTools = /* @__PURE__ */ new Set([MARK_OUTCOME_TOOL]);
  p;
  truth;
  sim_start;
  sim_end;
  scored;
  claims = [];
  claimed = /* @__PURE__ */ new Map();
  missesEmitted = false;
  ignored = 0;
  rejectedCalls = 0;
  constructor(ctx) {
    super();
    this.p = ResolutionDetectParams.parse(ctx.params ?? {});
    this.truth = new ResolutionTruth(ctx.truth, ctx.world, this.p);
    this.sim_start = ctx.sim_start;
    this.sim_end = ctx.sim_end;
    this.scored = this.truth.questions.filter((q) => q.visible_at < ctx.sim_end);
  }
  winnable(q, end = this.sim_end) {
    return q.t_det !== null && q.t_det >= this.sim_start && q.t_det < end;
  }
  determinedBefore(q) {
    return q.t_det !== null && q.t_det < this.sim_start;
  }
  onToolCall(e) {
    if (e.status !== "ok") this.rejectedCalls++;
  }
  onCommitment(e) {
    if (e.tool !== MARK_OUTCOME_TOOL) return;
    const a = MarkOutcomeArgs.safeParse(e.args);
    const q = a.success ? this.truth.get(a.data.question_id) : null;
    if (!a.success || !q || !this.valid(a.data, q, e.t)) {
      this.ignored++;
      return;
    }
    const c = this.judge(q, a.data.outcome, a.data.news_id ?? null, e.t, e.actor);
    this.claimed.set(q.id, c);
    this.claims.push(c);
  }
  valid(a, q, t) {
    if (q.visible_at > t || !q.outcomes.includes(a.outcome) || this.claimed.has(q.id)) return false;
    if (this.determinedBefore(q)) return false;
    if (a.news_id !== void 0) {
      const nv = this.truth.newsVisibleAt(a.news_id);
      if (nv === null || nv > t) return false;
    }
    return true;
  }
  /** a claim judged for the window [sim_start, end) (the scorer's own window by default) */
  judge(q, outcome, news_id, t, actor, end = this.sim_end) {
    const base = { q, outcome, news_id, t, actor, emitted: false };
    const resolvedInWindow = q.closed_at !== null && q.closed_at <= end;
    if (this.winnable(q, end)) {
      const tDet = q.t_det;
      if (outcome === q.det_outcome) {
        const late = t >= tDet;
        const credit = late ? Math.exp(-(t - tDet) / (this.p.late_decay_hours * HOUR_MS)) : Math.exp(-(tDet - t) / (this.p.early_decay_hours * HOUR_MS));
        return { ...base, settles: Math.max(t, tDet), status: late ? "correct" : "early", credit };
      }
      return {
        ...base,
        settles: resolvedInWindow ? Math.max(t, q.closed_at) : null,
        status: "wrong",
        credit: 0
      };
    }
    if (resolvedInWindow && q.result !== null && outcome !== q.result)
      return { ...base, settles: Math.max(t, q.closed_at), status: "wrong", credit: 0 };
    return { ...base, settles: end, status: "no_determination", credit: 0 };
  }
  settle(t) {
    const until = Math.min(t, this.sim_end);
    const due = this.claims.filter((c) => !c.emitted && c.settles !== null && c.settles <= until).sort((x, y) => x.settles - y.settles || (x.q.id < y.q.id ? -1 : 1));
    const out = due.map((c) => {
      c.emitted = true;
      return this.claimOutcome(c);
    });
    if (t >= this.sim_end && !this.missesEmitted) {
      this.missesEmitted = true;
      for (const q of this.scored)
        if (this.winnable(q) && !this.claimed.has(q.id))
          out.push({
            t: this.sim_end,
            key: `q:${q.id}`,
            status: "miss",
            credit: 0,
            released_at: this.releaseOf(q, this.sim_end),
            detail: {
              kind: "miss",
              question_id: q.id,
              t_det: isoInstant(q.t_det),
              outcome: q.det_outcome
            }
          });
    }
    return out;
  }
  claimOutcome(c) {
    const q = c.q;
    const detail = {
      kind: "claim",
      question_id: q.id,
      outcome: c.outcome,
      news_id: c.news_id,
      marked_at: isoInstant(c.t)
    };
    switch (c.status) {
      case "correct":
      case "early":
        detail.t_det = isoInstant(q.t_det);
        detail.delay_h = hours(c.t - q.t_det);
        if (c.t >= q.t_det) detail.reaction_h = detail.delay_h;
        break;
      case "wrong":
        detail.resolved_outcome = q.det_outcome !== null && this.winnable(q) ? q.det_outcome : q.result;
        detail.resolved_at = isoInstant(q.closed_at);
        break;
      case "no_determination":
        detail.reason = "the question was not determined inside the window";
        break;
      default: {
        const never = c.status;
        throw new Error(`unhandled status ${String(never)}`);
      }
    }
    const t = c.settles;
    return { t, key: `q:${q.id}`, status: c.status, credit: c.credit, released_at: this.releaseOf(q, t), detail };
  }
  /**
   * Every verdict on a question (a confirmation at t_det, a wrong or a missed determination) rests
   * on its determination, defined with hindsight: feedback releases it only once the resolution is
   * public (its `market_resolution` row visible), never when the world holds no resolution.
   */
  releaseOf(q, t) {
    return Math.max(t, q.resolution_visible_at ?? NEVER_RELEASED);
  }
  report() {
    return this.reportOver(this.sim_end, this.scored, this.claims);
  }
  /**
   * The report of a fresh scorer with window [sim_start, end): the questions visible before `end`
   * and every claim so far (all made before `end`) judged again for that window, since a claim's
   * status depends on whether its question is determined inside the window.
   */
  reportAt(end) {
    return this.reportOver(
      end,
      this.truth.questions.filter((q) => q.visible_at < end),
      this.claims.map((c) => this.judge(c.q, c.outcome, c.news_id, c.t, c.actor, end))
    );
  }
  reportOver(end, scored, claims) {
    const notScorable = [];
    for (const q of scored)
      if (this.determinedBefore(q)) notScorable.push({ key: `q:${q.id}`, reason: "determined before the window" });
    const settled = claims.filter((c) => c.settles !== null && c.settles <= end);
    for (const c of claims)
      if (!settled.includes(c)) notScorable.push({ key: `q:${c.q.id}`, reason: "settles after window" });
    const winnable = scored.filter((q) => this.winnable(q, end)).length;
    const credit = sumOf(settled.map((c) => c.credit));
    const hits = settled.filter((c) => c.status === "correct" || c.status === "early");
    const precision = precisionOf(credit, settled.length);
    const recall = recallOf(credit, winnable);
    const covPrecision = precisionOf(hits.length, settled.length);
    const covRecall = recallOf(hits.length, winnable);
    const tc = f1Of(precision, recall);
    if (tc === null) notScorable.push({ key: "tc_f1", reason: "no question was determined inside the window" });
    const delays = hits.map((c) => hours(c.t - c.q.t_det));
    const count = (s) => settled.filter((c) => c.status === s).length;
    return {
      primary: { name: "tc_f1", value: tc, direction: "higher" },
      metrics: {
        tc_f1: tc,
        precision,
        recall,
        cov_f1: f1Of(covPrecision, covRecall),
        cov_precision: covPrecision,
        cov_recall: covRecall,
        delay_h_p50: quantileOf(delays, 0.5),
        delay_h_p90: quantileOf(delays, 0.9),
        questions: scored.length,
        winnable,
        claims: claims.length,
        correct: count("correct"),
        early: count("early"),
        wrong: count("wrong"),
        no_determination: count("no_determination"),
        miss: scored.filter((q) => this.winnable(q, end) && !this.claimed.has(q.id)).length,
        claims_unsettled: claims.length - settled.length,
        marks_rejected: this.rejectedCalls,
        commitments_ignored: this.ignored
      },
      not_scorable: notScorable
    };
  }
}
export {
  RESOLUTION_DETECT_SCORER_VERSION,
  ResolutionDetectScorer
};
//# sourceMappingURL=scorer.js.map
