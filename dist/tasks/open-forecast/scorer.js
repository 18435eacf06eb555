import { DAY_MS, isoDay, startOfUtcDay } from "../../kernel/day.js";
import { meanOf, sumOf } from "../metrics.js";
import { ScorerBase } from "../scorer-base.js";
import { matchAnswer } from "./answer-match.js";
import { checkOutcomes, SUBMIT_FORECASTS_TOOL, SubmitForecastsArgs } from "./forecast-args.js";
import { JudgeCache } from "./judge-cache.js";
import { OpenForecastParams } from "./params.js";
import { standingAt } from "./run-state.js";
const OPEN_FORECAST_SCORER_VERSION = "open-forecast-scorer/2";
const UNSCORABLE_LABEL = "question_unscorable";
function dayScore(outcomes, isTruth) {
  if (outcomes === null) return 0;
  let pTruth = 0;
  let wrong = 0;
  for (const [label, p] of Object.entries(outcomes)) {
    if (isTruth(label)) pTruth += p;
    else wrong += p * p;
  }
  return 1 - ((pTruth - 1) ** 2 + wrong);
}
function top1Correct(outcomes, isTruth) {
  if (outcomes === null) return false;
  let best = null;
  let bestP = 0;
  let tie = false;
  for (const [label, p] of Object.entries(outcomes)) {
    if (p > bestP) {
      best = label;
      bestP = p;
      tie = false;
    } else if (p === bestP && p > 0) tie = true;
  }
  return best !== null && !tie && isTruth(best);
}
function activeEnd(q, pub) {
  return pub !== null && pub.visible_at < q.resolve ? Math.min(q.resolve, pub.resolved_at) : q.resolve;
}
class OpenForecastScorer extends ScorerBase {
  watchedTools = /* @__PURE__ */ new Set([SUBMIT_FORECASTS_TOOL]);
  p;
  plans;
  notScorable;
  sim_start;
  qs;
  answers;
  why;
  questions = /* @__PURE__ */ new Map();
  /** the public answer rows (question_resolution) by question */
  pub;
  forecasts = /* @__PURE__ */ new Map();
  judge;
  matches = /* @__PURE__ */ new Map();
  emitted = 0;
  accepted = 0;
  ignored = 0;
  rejected = 0;
  constructor(ctx) {
    super();
    this.p = OpenForecastParams.parse(ctx.params ?? {});
    this.judge = this.p.judge_cache === null ? null : JudgeCache.open(this.p.judge_cache);
    const db = ctx.world.db;
    const qs = db.prepare(
      "SELECT id, title, background, criteria, open, resolve, answer_type, visible_at FROM question ORDER BY id"
    ).all();
    const pub = new Map(
      db.prepare("SELECT question, resolved_at, visible_at FROM question_resolution").all().map((r) => [r.question, r])
    );
    this.answers = new Map(ctx.truth.answers().map((a) => [a.question, a]));
    this.why = new Map(ctx.truth.labels(UNSCORABLE_LABEL).map((l) => [l.key, String(l.value.reason ?? "no answer")]));
    for (const q of qs) this.questions.set(q.id, { q, publicAt: pub.get(q.id)?.visible_at ?? null });
    this.pub = pub;
    this.qs = qs;
    this.sim_start = ctx.sim_start;
    ({ plans: this.plans, notScorable: this.notScorable } = this.plansFor(ctx.sim_end));
  }
  /** the scored questions' plans and the unscorable ones of the window [sim_start, simEnd) */
  plansFor(simEnd) {
    const notScorable = [];
    const plans = [];
    const firstDay = startOfUtcDay(this.sim_start);
    for (const q of this.qs) {
      const row = this.pub.get(q.id) ?? null;
      const publicAt = row?.visible_at ?? null;
      const end = Math.min(activeEnd(q, row), simEnd);
      const days = [];
      for (let d = Math.max(startOfUtcDay(q.open), firstDay); d < end; d += DAY_MS) days.push(d);
      if (days.length === 0) continue;
      const key = `q:${q.id}`;
      const a = this.answers.get(q.id);
      if (!a) {
        notScorable.push({ key, reason: this.why.get(q.id) ?? "no answer in truth" });
        continue;
      }
      if (a.resolved_at > simEnd) {
        notScorable.push({ key, reason: "answer determined after the window" });
        continue;
      }
      const publicTime = publicAt ?? a.resolved_at;
      if (publicTime > simEnd) {
        notScorable.push({ key, reason: "answer public after window" });
        continue;
      }
      const settle = Math.max(a.resolved_at, publicTime);
      plans.push({ q, answer: a.answer, resolvedAt: a.resolved_at, publicAt, days, end, settle });
    }
    plans.sort((x, y) => x.settle - y.settle || (x.q.id < y.q.id ? -1 : x.q.id > y.q.id ? 1 : 0));
    return { plans, notScorable };
  }
  onToolCall(e) {
    if (e.status !== "ok") this.rejected++;
  }
  onCommitment(e) {
    if (e.tool !== SUBMIT_FORECASTS_TOOL) return;
    const parsed = SubmitForecastsArgs.safeParse(e.args);
    const info = parsed.success ? this.questions.get(parsed.data.question_id) : void 0;
    const checked = parsed.success ? checkOutcomes(parsed.data.outcomes, { maxOutcomes: this.p.max_outcomes, maxChars: this.p.max_answer_chars }) : null;
    if (!parsed.success || !info || !checked?.ok || e.t < info.q.open || e.t < info.q.visible_at || e.t >= info.q.resolve || info.publicAt !== null && e.t >= info.publicAt) {
      this.ignored++;
      return;
    }
    const list = this.forecasts.get(info.q.id) ?? [];
    list.push({ at: e.t, outcomes: checked.outcomes });
    this.forecasts.set(info.q.id, list);
    this.accepted++;
  }
  settle(t) {
    const out = [];
    while (this.emitted < this.plans.length) {
      const plan = this.plans[this.emitted];
      if (plan.settle > t) break;
      const r = this.result(plan);
      out.push({
        t: plan.settle,
        key: `q:${plan.q.id}`,
        status: r.forecast ? "forecast" : "no_forecast",
        credit: r.mean,
        detail: {
          question: plan.q.id,
          answer: plan.answer,
          active_days: plan.days.length,
          first_day: isoDay(plan.days[0]),
          last_day: isoDay(plan.days.at(-1)),
          mean_score: r.mean,
          day0_score: r.scores[0],
          final_score: r.scores.at(-1),
          top1_correct: r.top1,
          final_forecast: r.final?.outcomes ?? null,
          match: r.match
        }
      });
      this.emitted++;
    }
    return out;
  }
  report() {
    return this.reportOver(this.plans, this.notScorable);
  }
  /**
   * The report of a fresh scorer with window [sim_start, end): that window's plans (active days
   * cut at `end`, settlement at `end` when the answer is public later), over the forecasts so far
   * (all before `end`).
   */
  reportAt(end) {
    const { plans, notScorable } = this.plansFor(end);
    return this.reportOver(plans, notScorable);
  }
  reportOver(plans, unscorable) {
    const rs = plans.map((p) => this.result(p));
    const n = rs.length;
    const mean = (f) => meanOf(rs.map(f));
    const notScorable = [...unscorable];
    const tw = n === 0 ? null : 100 * sumOf(rs.map((r) => r.mean));
    if (n === 0) notScorable.push({ key: "tw_score", reason: "no question is scored in this window" });
    let judgeMatches = 0;
    for (const r of rs)
      for (const e of this.forecasts.get(r.plan.q.id) ?? [])
        for (const label of Object.keys(e.outcomes)) if (this.match(r.plan, label) === "judge") judgeMatches++;
    return {
      primary: { name: "tw_score", value: tw, direction: "higher" },
      metrics: {
        tw_score: tw,
        mean_score: mean((r) => r.mean),
        accuracy: mean((r) => r.top1 ? 1 : 0),
        bss_day0: mean((r) => r.scores[0]),
        bss_final: mean((r) => r.scores.at(-1)),
        questions_scored: n,
        questions_forecast: rs.filter((r) => r.forecast).length,
        forecasts_accepted: this.accepted,
        forecasts_ignored: this.ignored,
        forecasts_rejected: this.rejected,
        judge_matches: judgeMatches,
        judge_pending: this.judge === null ? null : this.pendingJudgeItems(plans).length
      },
      not_scorable: notScorable
    };
  }
  /** The judge cache this scorer reads (task_params.judge_cache), or null when the judge is off. */
  get judgeCache() {
    return this.judge;
  }
  /**
   * Every distinct (question, truth, answer) pair among the accepted forecasts of scored questions
   * that neither exact nor normalized matching settles and the judge cache has no verdict for: what
   * a model judge should rule on (`relive judge`). Empty when the judge is off. Call after the
   * ledger was replayed.
   */
  pendingJudgeItems(plans = this.plans) {
    if (this.judge === null) return [];
    const out = [];
    for (const plan of plans)
      for (const e of this.forecasts.get(plan.q.id) ?? [])
        for (const label of Object.keys(e.outcomes))
          if (this.match(plan, label) === null && !this.judge.has(plan.q.id, plan.answer, label))
            out.push({
              question: { id: plan.q.id, title: plan.q.title, criteria: plan.q.criteria },
              truth: plan.answer,
              answer: label
            });
    return out;
  }
  match(plan, label) {
    const k = `${plan.q.id}\0${label}`;
    let m = this.matches.get(k);
    if (m === void 0) {
      m = matchAnswer(plan.q.id, label, plan.answer, this.judge);
      this.matches.set(k, m);
    }
    return m;
  }
  result(plan) {
    const entries = this.forecasts.get(plan.q.id);
    const isTruth = (label) => this.match(plan, label) !== null;
    const scores = plan.days.map((d) => dayScore(standingAt(entries, d + DAY_MS)?.outcomes ?? null, isTruth));
    const final = standingAt(entries, plan.days.at(-1) + DAY_MS);
    const anyForecast = plan.days.some((d) => standingAt(entries, d + DAY_MS) !== null);
    let match = null;
    if (final) for (const label of Object.keys(final.outcomes)) match ??= this.match(plan, label);
    return {
      plan,
      scores,
      mean: meanOf(scores),
      forecast: anyForecast,
      top1: top1Correct(final?.outcomes ?? null, isTruth),
      final,
      match
    };
  }
}
export {
  OPEN_FORECAST_SCORER_VERSION,
  OpenForecastScorer,
  UNSCORABLE_LABEL,
  activeEnd,
  dayScore,
  top1Correct
};
//# sourceMappingURL=scorer.js.map
