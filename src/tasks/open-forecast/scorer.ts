import { DAY_MS, isoDay, startOfUtcDay } from "../../common/time.js";
import type { QuestionRow } from "../../world/types.js";
import { meanOf, sumOf } from "../metrics.js";
import { type CommitmentEvent, ScorerBase, type ToolCallEvent } from "../scorer-base.js";
import type { NotScorable, Outcome, ScoreReport, ScorerContext } from "../task.js";
import { anchorEntries, presentedQuestion } from "./ablation-view.js";
import { loadAnchorForecasts } from "./anchor.js";
import { type MatchKind, matchAnswer } from "./answer-match.js";
import { checkOutcomes, SUBMIT_FORECASTS_TOOL, SubmitForecastsArgs } from "./forecast-args.js";
import { JudgeCache, type JudgeItem } from "./judge-cache.js";
import { OpenForecastParams } from "./params.js";
import { type ForecastEntry, standingAt } from "./run-state.js";

export const OPEN_FORECAST_SCORER_VERSION = "open-forecast-scorer/2";
/** truth label kind carrying why a question has no answer (e.g. ForecastBench `resolved=false`) */
export const UNSCORABLE_LABEL = "question_unscorable";

/**
 * The score of one day (tasks.md §9): 1 − Σ_{o ∈ named ∪ {truth}} (p_o − 1[o = truth])² on the
 * forecast standing at the day's end. Named outcomes that match the truth (`isTruth`) pool their
 * mass as p_truth; the truth term is (p_truth − 1)² even when the truth is not named. No forecast
 * scores 0; mass left unassigned is not scored.
 */
export function dayScore(outcomes: Record<string, number> | null, isTruth: (label: string) => boolean): number {
  if (outcomes === null) return 0;
  let pTruth = 0;
  let wrong = 0;
  for (const [label, p] of Object.entries(outcomes)) {
    if (isTruth(label)) pTruth += p;
    else wrong += p * p;
  }
  return 1 - ((pTruth - 1) ** 2 + wrong);
}

/** Top-1: the single outcome with the highest probability (> 0) is the truth; ties are not correct. */
export function top1Correct(outcomes: Record<string, number> | null, isTruth: (label: string) => boolean): boolean {
  if (outcomes === null) return false;
  let best: string | null = null;
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

/**
 * The end of a question's active days [open, resolution date) (tasks.md §9): its `resolve`, or,
 * when the world makes the answer public before `resolve` (an early resolution, e.g. a
 * ForecastBench market question whose `resolve` is the market's scheduled close), the date the
 * public answer says it resolved (`question_resolution.resolved_at`).
 */
export function activeEnd(
  q: Pick<QuestionRow, "resolve">,
  pub: { resolved_at: number; visible_at: number } | null,
): number {
  return pub !== null && pub.visible_at < q.resolve ? Math.min(q.resolve, pub.resolved_at) : q.resolve;
}

interface Plan {
  q: QuestionRow;
  answer: string;
  resolvedAt: number;
  /** when the answer became a world fact (question_resolution.visible_at), or null */
  publicAt: number | null;
  /** start of every active day, ascending */
  days: number[];
  /** end of activity: min(resolution date (activeEnd), sim_end) */
  end: number;
  /** settlement of the question's outcome */
  settle: number;
}

interface QuestionResult {
  plan: Plan;
  scores: number[];
  mean: number;
  forecast: boolean;
  top1: boolean;
  final: ForecastEntry | null;
  match: MatchKind | null;
}

/**
 * open-forecast scorer. A question counts when its active days [max(open, sim_start),
 * min(resolution date, sim_end)) meet the window (`activeEnd`); its credit is the mean daily score,
 * and `tw_score` = 100 × Σ credits (FutureSim's scale). Unscorable: no answer in truth (the reason
 * from its `question_unscorable` label when given), an answer determined after the window, or an
 * answer made public after sim_end ("answer public after window"). A question settles when its
 * answer is public (inside the window by that rule), never earlier, so scores never reveal an
 * answer before the world does.
 */
export class OpenForecastScorer extends ScorerBase {
  protected readonly watchedTools = new Set([SUBMIT_FORECASTS_TOOL]);
  private readonly p: OpenForecastParams;
  private readonly plans: Plan[];
  private readonly notScorable: NotScorable[];
  private readonly sim_start: number;
  private readonly qs: QuestionRow[];
  private readonly answers: Map<string, { answer: string; resolved_at: number }>;
  private readonly why: Map<string, string>;
  private readonly questions = new Map<string, { q: QuestionRow; publicAt: number | null }>();
  /** the public answer rows (question_resolution) by question */
  private readonly pub: Map<string, { resolved_at: number; visible_at: number }>;
  private readonly forecasts = new Map<string, ForecastEntry[]>();
  private readonly judge: JudgeCache | null;
  private readonly matches = new Map<string, MatchKind | null>();
  private emitted = 0;
  private accepted = 0;
  private ignored = 0;
  private rejected = 0;

  constructor(ctx: ScorerContext) {
    super();
    this.p = OpenForecastParams.parse(ctx.params ?? {});
    this.judge = this.p.judge_cache === null ? null : JudgeCache.open(this.p.judge_cache);
    const db = ctx.world.db;
    // ceiling: a question is released (and its active days start) one day before it resolves
    const qs = (
      db
        .prepare(
          "SELECT id, title, background, criteria, open, resolve, answer_type, visible_at FROM question ORDER BY id",
        )
        .all() as QuestionRow[]
    ).map((q) => presentedQuestion(q, this.p.ceiling));
    const pub = new Map(
      (
        db.prepare("SELECT question, resolved_at, visible_at FROM question_resolution").all() as {
          question: string;
          resolved_at: number;
          visible_at: number;
        }[]
      ).map((r) => [r.question, r]),
    );
    this.answers = new Map(ctx.truth.answers().map((a) => [a.question, a]));
    this.why = new Map(ctx.truth.labels(UNSCORABLE_LABEL).map((l) => [l.key, String(l.value.reason ?? "no answer")]));
    for (const q of qs) this.questions.set(q.id, { q, publicAt: pub.get(q.id)?.visible_at ?? null });
    this.pub = pub;
    this.qs = qs;
    this.sim_start = ctx.sim_start;
    // anchor_from: the anchor run's day-0 forecasts stand from sim_start (the tools inject the same ones)
    if (this.p.anchor_from !== null) {
      const open = qs.map((q) => ({ q, publicAt: pub.get(q.id)?.visible_at ?? null }));
      for (const [id, entries] of anchorEntries(loadAnchorForecasts(this.p.anchor_from), open, this.p, ctx.sim_start))
        this.forecasts.set(id, entries);
    }
    ({ plans: this.plans, notScorable: this.notScorable } = this.plansFor(ctx.sim_end));
  }

  /** the scored questions' plans and the unscorable ones of the window [sim_start, simEnd) */
  private plansFor(simEnd: number): { plans: Plan[]; notScorable: NotScorable[] } {
    const notScorable: NotScorable[] = [];
    const plans: Plan[] = [];
    const firstDay = startOfUtcDay(this.sim_start);
    for (const q of this.qs) {
      const row = this.pub.get(q.id) ?? null;
      const publicAt = row?.visible_at ?? null;
      const end = Math.min(activeEnd(q, row), simEnd);
      const days: number[] = [];
      for (let d = Math.max(startOfUtcDay(q.open), firstDay); d < end; d += DAY_MS) days.push(d);
      if (days.length === 0) continue; // not active inside this window: not part of the episode
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
      // a world without the public row: the answer counts as public when it was determined
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

  protected override onToolCall(e: ToolCallEvent): void {
    if (e.status !== "ok") this.rejected++;
  }

  protected override onCommitment(e: CommitmentEvent): void {
    if (e.tool !== SUBMIT_FORECASTS_TOOL) return;
    const parsed = SubmitForecastsArgs.safeParse(e.args);
    const info = parsed.success ? this.questions.get(parsed.data.question_id) : undefined;
    const checked = parsed.success
      ? checkOutcomes(parsed.data.outcomes, {
          maxOutcomes: this.p.max_outcomes,
          maxChars: this.p.max_answer_chars,
          match: this.p.answer_match,
        })
      : null;
    if (
      !parsed.success ||
      !info ||
      !checked?.ok ||
      e.t < info.q.open ||
      e.t < info.q.visible_at ||
      e.t >= info.q.resolve ||
      (info.publicAt !== null && e.t >= info.publicAt)
    ) {
      this.ignored++;
      return;
    }
    const list = this.forecasts.get(info.q.id) ?? [];
    list.push({ at: e.t, outcomes: checked.outcomes });
    this.forecasts.set(info.q.id, list);
    this.accepted++;
  }

  settle(t: number): Outcome[] {
    const out: Outcome[] = [];
    while (this.emitted < this.plans.length) {
      const plan = this.plans[this.emitted]!;
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
          first_day: isoDay(plan.days[0]!),
          last_day: isoDay(plan.days.at(-1)!),
          mean_score: r.mean,
          day0_score: r.scores[0]!,
          final_score: r.scores.at(-1)!,
          top1_correct: r.top1,
          final_forecast: r.final?.outcomes ?? null,
          match: r.match,
        },
      });
      this.emitted++;
    }
    return out;
  }

  report(): ScoreReport {
    return this.reportOver(this.plans, this.notScorable);
  }

  /**
   * The report of a fresh scorer with window [sim_start, end): that window's plans (active days
   * cut at `end`, settlement at `end` when the answer is public later), over the forecasts so far
   * (all before `end`).
   */
  reportAt(end: number): ScoreReport {
    const { plans, notScorable } = this.plansFor(end);
    return this.reportOver(plans, notScorable);
  }

  private reportOver(plans: readonly Plan[], unscorable: readonly NotScorable[]): ScoreReport {
    const rs = plans.map((p) => this.result(p));
    const n = rs.length;
    const mean = (f: (r: QuestionResult) => number) => meanOf(rs.map(f));
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
        accuracy: mean((r) => (r.top1 ? 1 : 0)),
        bss_day0: mean((r) => r.scores[0]!),
        bss_final: mean((r) => r.scores.at(-1)!),
        questions_scored: n,
        questions_forecast: rs.filter((r) => r.forecast).length,
        forecasts_accepted: this.accepted,
        forecasts_ignored: this.ignored,
        forecasts_rejected: this.rejected,
        judge_matches: judgeMatches,
        judge_pending: this.judge === null ? null : this.pendingJudgeItems(plans).length,
      },
      not_scorable: notScorable,
    };
  }

  /** The judge cache this scorer reads (task_params.judge_cache), or null when the judge is off. */
  get judgeCache(): JudgeCache | null {
    return this.judge;
  }

  /**
   * Every distinct (question, truth, answer) pair among the accepted forecasts of scored questions
   * that neither exact nor normalized matching settles and the judge cache has no verdict for: what
   * a model judge should rule on (`relive judge`). Empty when the judge is off. Call after the
   * ledger was replayed.
   */
  pendingJudgeItems(plans: readonly Plan[] = this.plans): JudgeItem[] {
    if (this.judge === null) return [];
    const out: JudgeItem[] = [];
    for (const plan of plans)
      for (const e of this.forecasts.get(plan.q.id) ?? [])
        for (const label of Object.keys(e.outcomes))
          if (this.match(plan, label) === null && !this.judge.has(plan.q.id, plan.answer, label))
            out.push({
              question: { id: plan.q.id, title: plan.q.title, criteria: plan.q.criteria },
              truth: plan.answer,
              answer: label,
            });
    return out;
  }

  private match(plan: Plan, label: string): MatchKind | null {
    const k = `${plan.q.id}\u0000${label}`;
    let m = this.matches.get(k);
    if (m === undefined) {
      m = matchAnswer(plan.q.id, label, plan.answer, this.judge, this.p.answer_match ?? "relive");
      this.matches.set(k, m);
    }
    return m;
  }

  private result(plan: Plan): QuestionResult {
    const entries = this.forecasts.get(plan.q.id);
    const isTruth = (label: string) => this.match(plan, label) !== null;
    const scores = plan.days.map((d) => dayScore(standingAt(entries, d + DAY_MS)?.outcomes ?? null, isTruth));
    const final = standingAt(entries, plan.days.at(-1)! + DAY_MS);
    const anyForecast = plan.days.some((d) => standingAt(entries, d + DAY_MS) !== null);
    let match: MatchKind | null = null;
    if (final) for (const label of Object.keys(final.outcomes)) match ??= this.match(plan, label);
    return {
      plan,
      scores,
      mean: meanOf(scores) as number,
      forecast: anyForecast,
      top1: top1Correct(final?.outcomes ?? null, isTruth),
      final,
      match,
    };
  }
}
