import { upperBound } from "../../common/sorted-search.js";
import { HOUR_MS, utcDayNumber } from "../../common/time.js";
import { type CommitmentEvent, ScorerBase, type ToolCallEvent } from "../scorer-base.js";
import type { NotScorable, Outcome, ScoreReport, ScorerContext } from "../task.js";
import { PopularityParams } from "./params.js";
import { type PostFact, PostFacts } from "./post-facts.js";
import { horizonMs, judgeRecommendation, type Recommendation } from "./recommend-rule.js";
import { RECOMMEND_TOOL, RecommendArgs } from "./recommend-tools.js";
import { RecommendationBook } from "./recommendation-book.js";

export const POPULARITY_SCORER_VERSION = "popularity-scorer/1";

export type PopularityStatus = "hit" | "false_alarm" | "miss";

/** credit of a tail post recommended `delayMs` after its creation */
export function delayCredit(delayMs: number, creditZeroHours: number): number {
  return Math.max(0, 1 - delayMs / HOUR_MS / creditZeroHours);
}

/** F1 of precision and recall; 0 when both are 0 */
export function f1(precision: number, recall: number): number {
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/**
 * The cap-limited recall denominator: round(Σ over UTC days of min(cap, tail posts created that
 * day)), over the in-scope tail posts.
 */
export function recallDenominator(tailCreated: readonly number[], cap: number): number {
  const perDay = new Map<number, number>();
  for (const t of tailCreated) {
    const d = utcDayNumber(t);
    perDay.set(d, (perDay.get(d) ?? 0) + 1);
  }
  let sum = 0;
  for (const n of perDay.values()) sum += Math.min(cap, n);
  return Math.round(sum);
}

/**
 * `recallDenominator` of every prefix of `tailCreated` (ascending): entry k is that of the first k
 * (a day's count only grows along the prefix, so each post adds 1 while its day is under the cap).
 */
export function prefixDenominators(tailCreated: readonly number[], cap: number): number[] {
  const perDay = new Map<number, number>();
  const out = [0];
  let sum = 0;
  for (let i = 0; i < tailCreated.length; i++) {
    const t = tailCreated[i]!;
    if (i > 0 && t < tailCreated[i - 1]!) throw new RangeError("prefixDenominators: creation instants must ascend");
    const d = utcDayNumber(t);
    const n = (perDay.get(d) ?? 0) + 1;
    perDay.set(d, n);
    if (n <= cap) sum++;
    out.push(sum);
  }
  return out;
}

interface Unit {
  post: PostFact;
  reveal: number;
  rec: Recommendation | null;
}

/**
 * popularity scorer. In scope: root posts created in [sim_start, sim_end − horizon] (their cascade
 * settles by sim_end). Every `recommend` commitment is re-checked against the raw world with the
 * tool's rules (visible post, created after the run start, not yet revealed, first time, rolling
 * cap); anything else is counted in `commitments_ignored`. Each recommended in-scope post settles at
 * its reveal (created + horizon) as `hit` (tail, credit max(0, 1 − delay_h / 6)) or `false_alarm`
 * (credit 0); each unrecommended in-scope tail post settles then as `miss` (credit 0). A
 * recommendation of a post that reveals after sim_end is `not_scorable` ("settles after window").
 */
export class PopularityScorer extends ScorerBase {
  protected readonly watchedTools = new Set([RECOMMEND_TOOL]);
  private readonly p: PopularityParams;
  private readonly facts: PostFacts;
  private readonly H: number;
  private readonly sim_start: number;
  private readonly sim_end: number;
  /** in-scope tail posts by reveal order */
  private readonly tails: PostFact[];
  /** denominators[k] = recallDenominator of the first k tail posts (ascending by creation) */
  private readonly denominators: number[];
  /** the accepted recommendations, re-checked (not the tool's book: the scorer trusts nothing) */
  private readonly recs = new RecommendationBook();
  /** recommended in-scope posts below the tail threshold, not yet settled */
  private pendingFalse: Unit[] = [];
  /** the next in-scope tail post to settle */
  private tailIdx = 0;
  private readonly settled: Outcome[] = [];
  /** running tallies of `settled` (in settlement order), so a report does not re-read every outcome */
  private readonly tally = { hits: 0, falseAlarms: 0, misses: 0, credits: 0, delaysSorted: [] as number[] };
  private ignored = 0;
  private rejectedCalls = 0;

  constructor(ctx: ScorerContext) {
    super();
    this.p = PopularityParams.parse(ctx.params ?? {});
    this.H = horizonMs(this.p);
    this.facts = PostFacts.of(ctx.world.db, this.H);
    this.sim_start = ctx.sim_start;
    this.sim_end = ctx.sim_end;
    this.tails = this.facts.tailsCreatedIn(this.p.tail_threshold, ctx.sim_start, ctx.sim_end - this.H);
    this.denominators = prefixDenominators(
      this.tails.map((x) => x.created_utc),
      this.p.cap,
    );
  }

  protected override onToolCall(e: ToolCallEvent): void {
    if (e.status !== "ok") this.rejectedCalls++;
  }

  protected override onCommitment(e: CommitmentEvent): void {
    if (e.tool !== RECOMMEND_TOOL) return;
    const a = RecommendArgs.safeParse(e.args);
    const post = a.success ? this.facts.get(a.data.root_id) : undefined;
    // a commitment before the last accepted one (a ledger whose clock went back) is not re-checkable in order
    const last = this.recs.lastAt();
    if (!post || post.visible_at > e.t || post.created_utc > e.t || (last !== null && e.t < last)) {
      this.ignored++;
      return;
    }
    const verdict = judgeRecommendation(post, e.t, this.sim_start, this.recs, this.p);
    if (!verdict.ok) {
      this.ignored++;
      return;
    }
    const rec = { id: post.id, t: e.t, created_utc: post.created_utc };
    this.recs.accept(rec);
    const reveal = post.created_utc + this.H;
    if (post.cascade < this.p.tail_threshold && reveal <= this.sim_end) this.pendingFalse.push({ post, reveal, rec });
  }

  settle(t: number): Outcome[] {
    const due: Unit[] = [];
    while (this.tailIdx < this.tails.length) {
      const post = this.tails[this.tailIdx]!;
      const reveal = post.created_utc + this.H;
      if (reveal > t) break;
      due.push({ post, reveal, rec: this.recs.get(post.id) ?? null });
      this.tailIdx++;
    }
    if (this.pendingFalse.length > 0) {
      due.push(...this.pendingFalse.filter((u) => u.reveal <= t));
      this.pendingFalse = this.pendingFalse.filter((u) => u.reveal > t);
    }
    due.sort((a, b) => a.reveal - b.reveal || (a.post.id < b.post.id ? -1 : a.post.id > b.post.id ? 1 : 0));
    const out = due.map((u) => this.outcome(u));
    for (const o of out) this.count(o);
    this.settled.push(...out);
    return out;
  }

  report(): ScoreReport {
    return this.reportOver(this.tails.length, this.denominators[this.tails.length]!, this.sim_end);
  }

  /**
   * The report of a fresh scorer with window [sim_start, end): the tail posts revealed by `end`;
   * everything settled so far revealed by `end` (settle(end) was called).
   */
  reportAt(end: number): ScoreReport {
    if (end > this.sim_end) {
      const tails = this.facts.tailsCreatedIn(this.p.tail_threshold, this.sim_start, end - this.H);
      return this.reportOver(
        tails.length,
        recallDenominator(
          tails.map((x) => x.created_utc),
          this.p.cap,
        ),
        end,
      );
    }
    // the window's tail posts (ascending by creation) created by end − H: a prefix of `tails`
    const n = upperBound(this.tails, end - this.H, (x) => x.created_utc);
    return this.reportOver(n, this.denominators[n]!, end);
  }

  private count(o: Outcome): void {
    const t = this.tally;
    switch (o.status as PopularityStatus) {
      case "hit": {
        t.hits++;
        t.credits += o.credit ?? 0;
        const d = (o.detail as { delay_hours: number }).delay_hours;
        t.delaysSorted.splice(
          upperBound(t.delaysSorted, d, (x) => x),
          0,
          d,
        );
        return;
      }
      case "false_alarm":
        t.falseAlarms++;
        return;
      case "miss":
        t.misses++;
        return;
      default: {
        const never: never = o.status as never;
        throw new Error(`unhandled popularity status ${JSON.stringify(never)}`);
      }
    }
  }

  /** the report over the first `tailCount` tail posts (recall denominator `denom`) at `end` */
  private reportOver(tailCount: number, denom: number, end: number): ScoreReport {
    const { hits: hitCount, falseAlarms, misses, credits, delaysSorted: delays } = this.tally;
    const settledRecs = hitCount + falseAlarms;
    const precision = settledRecs === 0 ? 0 : hitCount / settledRecs;
    const notScorable: NotScorable[] = this.recs
      .revealingAfter(end, this.p)
      .map((r) => ({ key: `post:${r.id}`, reason: "settles after window" }));
    const recall = denom === 0 ? null : credits / denom;
    if (denom === 0)
      notScorable.push({ key: "tw_f1", reason: "no tail post was created in the scored part of the window" });
    const median =
      delays.length === 0
        ? null
        : delays.length % 2 === 1
          ? delays[(delays.length - 1) / 2]!
          : (delays[delays.length / 2 - 1]! + delays[delays.length / 2]!) / 2;
    const value = recall === null ? null : f1(precision, recall);
    return {
      primary: { name: "tw_f1", value, direction: "higher" },
      metrics: {
        tw_f1: value,
        precision,
        recall,
        cov_recall: denom === 0 ? null : hitCount / denom,
        cov_f1: denom === 0 ? null : f1(precision, hitCount / denom),
        hits: hitCount,
        false_alarms: falseAlarms,
        misses,
        recommendations_settled: settledRecs,
        tail_posts: tailCount,
        recall_denominator: denom,
        credit_sum: credits,
        mean_delay_hours: delays.length === 0 ? null : delays.reduce((s, d) => s + d, 0) / delays.length,
        median_delay_hours: median,
        recommendations_rejected: this.rejectedCalls,
        commitments_ignored: this.ignored,
      },
      not_scorable: notScorable,
    };
  }

  private outcome(u: Unit): Outcome {
    const { post, rec } = u;
    const tail = post.cascade >= this.p.tail_threshold;
    const status: PopularityStatus = rec ? (tail ? "hit" : "false_alarm") : "miss";
    const delay = rec ? rec.t - post.created_utc : null;
    const credit = status === "hit" && delay !== null ? delayCredit(delay, this.p.credit_zero_hours) : 0;
    // every count in the payload is released once its comments are visible (a late comment row waits for it)
    const counted = Math.max(this.H, ...this.p.feedback_ages_hours.map((h) => Math.round(h * HOUR_MS)));
    const fb = this.facts.feedback(
      post,
      this.p.feedback_ages_hours.map((h) => post.created_utc + Math.round(h * HOUR_MS)),
      post.created_utc + counted,
      u.reveal,
    );
    const comments_at: Record<string, number> = {};
    this.p.feedback_ages_hours.forEach((h, i) => {
      comments_at[`${h}h`] = fb.counts[i]!;
    });
    return {
      t: u.reveal,
      key: `post:${post.id}`,
      status,
      credit,
      released_at: fb.releasedAt,
      detail: {
        post_id: post.id,
        subreddit: post.subreddit,
        created_utc: post.created_utc,
        revealed_at: u.reveal,
        cascade: post.cascade,
        tail,
        recommended_at: rec ? rec.t : null,
        delay_hours: delay === null ? null : delay / HOUR_MS,
        ...(delay === null ? {} : { reaction_h: delay / HOUR_MS }),
        comments_at,
      },
    };
  }
}
