import { HOUR_MS, isoInstant } from "../../common/time.js";
import { f1Of, precisionOf, quantileOf, recallOf, sumOf } from "../metrics.js";
import { type CommitmentEvent, ScorerBase, type ToolCallEvent } from "../scorer-base.js";
import { NEVER_RELEASED, type NotScorable, type Outcome, type ScoreReport, type ScorerContext } from "../task.js";
import { ResolutionDetectParams } from "./params.js";
import { type QuestionTruth, ResolutionTruth } from "./question-truth.js";
import { MARK_OUTCOME_TOOL, MarkOutcomeArgs } from "./tools.js";

export const RESOLUTION_DETECT_SCORER_VERSION = "resolution-detect-scorer/1";

export type ClaimStatus = "correct" | "early" | "wrong" | "no_determination";

interface Claim {
  q: QuestionTruth;
  outcome: string;
  news_id: string | null;
  t: number;
  actor: string;
  /** settlement instant (null: settles after the window) */
  settles: number | null;
  status: ClaimStatus;
  credit: number;
  emitted: boolean;
}

const hours = (ms: number) => ms / HOUR_MS;

/**
 * resolution-detect scorer (tasks.md §2), a pure function of truth, the untouched world and the
 * ledger's raw `mark_outcome` commitments.
 * - Questions: the task's question markets visible before sim_end. Winnable: t_det in
 *   [sim_start, sim_end). A question determined before sim_start is `not_scorable` and claims on
 *   it are ignored.
 * - A claim is the first valid commitment per question (arguments, question visible at τ, one of
 *   its outcomes, cited article visible at τ); anything else counts in `commitments_ignored`.
 * - Winnable, correct outcome: credit exp(−(τ − t_det)/late) when τ ≥ t_det (`correct`), else
 *   exp(−(t_det − τ)/early) (`early`); settles at max(τ, t_det).
 * - Wrong outcome (against t_det's outcome, or against the result of a question resolved in the
 *   window without t_det): `wrong`, credit 0, settles at the question's resolution max(τ,
 *   closed_at); no resolution by sim_end: `not_scorable` ("settles after window").
 * - No determination in the window (and not wrong by a resolution): `no_determination`, credit 0,
 *   settles at sim_end.
 * - An unclaimed winnable question: `miss` at sim_end (not a claim).
 * Primary `tc_f1`: precision = Σ credit / settled claims, recall = Σ credit / winnable. Companion
 * `cov_f1`: precision = correct-outcome claims on winnable questions / settled claims, recall =
 * those claims / winnable.
 */
export class ResolutionDetectScorer extends ScorerBase {
  protected readonly watchedTools = new Set([MARK_OUTCOME_TOOL]);
  private readonly p: ResolutionDetectParams;
  private readonly truth: ResolutionTruth;
  private readonly sim_start: number;
  private readonly sim_end: number;
  private readonly scored: QuestionTruth[];
  private readonly claims: Claim[] = [];
  private readonly claimed = new Map<string, Claim>();
  private missesEmitted = false;
  private ignored = 0;
  private rejectedCalls = 0;

  constructor(ctx: ScorerContext) {
    super();
    this.p = ResolutionDetectParams.parse(ctx.params ?? {});
    this.truth = new ResolutionTruth(ctx.truth, ctx.world, this.p);
    this.sim_start = ctx.sim_start;
    this.sim_end = ctx.sim_end;
    this.scored = this.truth.questions.filter((q) => q.visible_at < ctx.sim_end);
  }

  private winnable(q: QuestionTruth, end = this.sim_end): boolean {
    return q.t_det !== null && q.t_det >= this.sim_start && q.t_det < end;
  }

  private determinedBefore(q: QuestionTruth): boolean {
    return q.t_det !== null && q.t_det < this.sim_start;
  }

  protected override onToolCall(e: ToolCallEvent): void {
    if (e.status !== "ok") this.rejectedCalls++;
  }

  protected override onCommitment(e: CommitmentEvent): void {
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

  private valid(a: MarkOutcomeArgs, q: QuestionTruth, t: number): boolean {
    if (q.visible_at > t || !q.outcomes.includes(a.outcome) || this.claimed.has(q.id)) return false;
    if (this.determinedBefore(q)) return false;
    if (a.news_id !== undefined) {
      const nv = this.truth.newsVisibleAt(a.news_id);
      if (nv === null || nv > t) return false;
    }
    return true;
  }

  /** a claim judged for the window [sim_start, end) (the scorer's own window by default) */
  private judge(
    q: QuestionTruth,
    outcome: string,
    news_id: string | null,
    t: number,
    actor: string,
    end = this.sim_end,
  ): Claim {
    const base = { q, outcome, news_id, t, actor, emitted: false };
    const resolvedInWindow = q.closed_at !== null && q.closed_at <= end;
    if (this.winnable(q, end)) {
      const tDet = q.t_det as number;
      if (outcome === q.det_outcome) {
        const late = t >= tDet;
        const credit = late
          ? Math.exp(-(t - tDet) / (this.p.late_decay_hours * HOUR_MS))
          : Math.exp(-(tDet - t) / (this.p.early_decay_hours * HOUR_MS));
        return { ...base, settles: Math.max(t, tDet), status: late ? "correct" : "early", credit };
      }
      return {
        ...base,
        settles: resolvedInWindow ? Math.max(t, q.closed_at as number) : null,
        status: "wrong",
        credit: 0,
      };
    }
    if (resolvedInWindow && q.result !== null && outcome !== q.result)
      return { ...base, settles: Math.max(t, q.closed_at as number), status: "wrong", credit: 0 };
    return { ...base, settles: end, status: "no_determination", credit: 0 };
  }

  settle(t: number): Outcome[] {
    const until = Math.min(t, this.sim_end);
    const due = this.claims
      .filter((c) => !c.emitted && c.settles !== null && c.settles <= until)
      .sort((x, y) => (x.settles as number) - (y.settles as number) || (x.q.id < y.q.id ? -1 : 1));
    const out: Outcome[] = due.map((c) => {
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
              t_det: isoInstant(q.t_det as number),
              outcome: q.det_outcome,
            },
          });
    }
    return out;
  }

  private claimOutcome(c: Claim): Outcome {
    const q = c.q;
    const detail: Record<string, unknown> = {
      kind: "claim",
      question_id: q.id,
      outcome: c.outcome,
      news_id: c.news_id,
      marked_at: isoInstant(c.t),
    };
    switch (c.status) {
      case "correct":
      case "early":
        detail.t_det = isoInstant(q.t_det as number);
        detail.delay_h = hours(c.t - (q.t_det as number));
        // a mark after the determination reacted to it; an early one did not
        if (c.t >= (q.t_det as number)) detail.reaction_h = detail.delay_h;
        break;
      case "wrong":
        detail.resolved_outcome = q.det_outcome !== null && this.winnable(q) ? q.det_outcome : q.result;
        detail.resolved_at = isoInstant(q.closed_at as number);
        break;
      case "no_determination":
        detail.reason = "the question was not determined inside the window";
        break;
      default: {
        const never: never = c.status;
        throw new Error(`unhandled status ${String(never)}`);
      }
    }
    const t = c.settles as number;
    return { t, key: `q:${q.id}`, status: c.status, credit: c.credit, released_at: this.releaseOf(q, t), detail };
  }

  /**
   * Every verdict on a question (a confirmation at t_det, a wrong or a missed determination) rests
   * on its determination, defined with hindsight: feedback releases it only once the resolution is
   * public (its `market_resolution` row visible), never when the world holds no resolution.
   */
  private releaseOf(q: QuestionTruth, t: number): number {
    return Math.max(t, q.resolution_visible_at ?? NEVER_RELEASED);
  }

  report(): ScoreReport {
    return this.reportOver(this.sim_end, this.scored, this.claims);
  }

  /**
   * The report of a fresh scorer with window [sim_start, end): the questions visible before `end`
   * and every claim so far (all made before `end`) judged again for that window, since a claim's
   * status depends on whether its question is determined inside the window.
   */
  reportAt(end: number): ScoreReport {
    return this.reportOver(
      end,
      this.truth.questions.filter((q) => q.visible_at < end),
      this.claims.map((c) => this.judge(c.q, c.outcome, c.news_id, c.t, c.actor, end)),
    );
  }

  private reportOver(end: number, scored: readonly QuestionTruth[], claims: readonly Claim[]): ScoreReport {
    const notScorable: NotScorable[] = [];
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
    const delays = hits.map((c) => hours(c.t - (c.q.t_det as number)));
    const count = (s: ClaimStatus) => settled.filter((c) => c.status === s).length;
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
        commitments_ignored: this.ignored,
      },
      not_scorable: notScorable,
    };
  }
}
