import { type CommitmentEvent, ScorerBase, type ToolCallEvent } from "../scorer-base.js";
import type { NotScorable, Outcome, ScoreReport, ScorerContext } from "../task.js";
import { DIGEST_TOOL, digestArgs } from "./digest-tools.js";
import { DailyDigestParams } from "./params.js";
import { RedditFacts } from "./reddit-facts.js";
import { type DigestDay, daysOpeningIn, openWindowAt } from "./schedule.js";

export const DAILY_DIGEST_SCORER_VERSION = "daily-digest-scorer/1";

export type IdVerdict =
  | { id: string; hit: true; cascade_24h: number }
  | { id: string; hit: false; reason: "not_a_post" }
  | { id: string; hit: false; reason: "outside_candidate_window"; created_utc: number }
  | { id: string; hit: false; reason: "below_threshold"; cascade_24h: number };

interface Delivery {
  t: number;
  ids: string[];
}

interface DayResult {
  day: DigestDay;
  /** the window opened before the first llm_rejected event (budget-exhaustion rule) */
  counted: boolean;
  delivery: Delivery | null;
  hits: number;
  credit: number;
  verdicts: IdVerdict[];
}

/**
 * daily-digest scorer. Days: every window opening a in [sim_start, sim_end); a day settles at
 * a + settle_hours and is `not_scorable` ("settles after window") when that is after sim_end.
 * A day's digest is the first accepted `digest` commitment inside its window (re-checked here;
 * anything else is counted as ignored). Credit = hits / digest_size over the first digest_size
 * distinct ids; a hit is a post created in [a − candidate_hours, a) whose 24 h cascade, counted
 * from the raw comments, is ≥ hit_threshold. No digest = 0 ("missed").
 */
export class DailyDigestScorer extends ScorerBase {
  private readonly p: DailyDigestParams;
  private readonly facts: RedditFacts;
  private readonly scored: DigestDay[];
  private readonly late: NotScorable[];
  private readonly deliveries = new Map<number, Delivery>();
  private readonly args: ReturnType<typeof digestArgs>;
  protected readonly watchedTools = new Set([DIGEST_TOOL]);
  private emitted = 0;
  private ignoredCommitments = 0;
  private rejectedCalls = 0;

  private readonly verdicts = new Map<string, IdVerdict>();

  constructor(private readonly ctx: ScorerContext) {
    super();
    this.p = DailyDigestParams.parse(ctx.params ?? {});
    this.facts = new RedditFacts(ctx.world.db);
    this.args = digestArgs(this.p.max_ids);
    const days = daysOpeningIn(ctx.sim_start, ctx.sim_end, this.p);
    this.scored = days.filter((d) => d.settles <= ctx.sim_end);
    this.late = days
      .filter((d) => d.settles > ctx.sim_end)
      .map((d) => ({ key: d.key, reason: "settles after window" }));
  }

  protected override onToolCall(e: ToolCallEvent): void {
    if (e.status !== "ok") this.rejectedCalls++;
  }

  protected override onCommitment(e: CommitmentEvent): void {
    if (e.tool !== DIGEST_TOOL) return;
    const parsed = this.args.safeParse(e.args);
    const window = openWindowAt(e.t, this.p);
    if (!parsed.success || !window || this.deliveries.has(window.opens)) {
      this.ignoredCommitments++;
      return;
    }
    this.deliveries.set(window.opens, { t: e.t, ids: parsed.data.root_ids });
  }

  settle(t: number): Outcome[] {
    const out: Outcome[] = [];
    while (this.emitted < this.scored.length) {
      const day = this.scored[this.emitted]!;
      if (day.settles > t) break;
      const r = this.result(day);
      let released_at = day.settles;
      // each verdict names a post's creation or cascade: released once that post and its cascade are visible
      for (const v of r.verdicts) {
        if (!v.hit && v.reason === "not_a_post") continue;
        const c = this.facts.createdAt(v.id);
        if (c !== null) released_at = Math.max(released_at, this.facts.visibleAt(v.id, c) ?? released_at);
      }
      out.push({
        t: day.settles,
        key: day.key,
        status: r.delivery ? "delivered" : "missed",
        credit: r.credit,
        released_at,
        detail: {
          hits: r.hits,
          digest_size: this.p.digest_size,
          ids: r.verdicts.map((v) => v.id),
          hit_ids: r.verdicts.filter((v) => v.hit).map((v) => v.id),
          verdicts: r.verdicts,
          delivered_at: r.delivery?.t ?? null,
          window_opens: day.opens,
          counted: r.counted,
        },
      });
      this.emitted++;
    }
    return out;
  }

  report(): ScoreReport {
    return this.reportOver(this.scored, this.late);
  }

  /** the report of a fresh scorer with window [sim_start, end): the days settling by `end` */
  reportAt(end: number): ScoreReport {
    const days = daysOpeningIn(this.ctx.sim_start, end, this.p);
    return this.reportOver(
      days.filter((d) => d.settles <= end),
      days.filter((d) => d.settles > end).map((d) => ({ key: d.key, reason: "settles after window" })),
    );
  }

  private reportOver(scored: readonly DigestDay[], late: readonly NotScorable[]): ScoreReport {
    const all = scored.map((d) => this.result(d));
    const counted = all.filter((r) => r.counted);
    const mean = (rs: DayResult[]) => (rs.length === 0 ? null : rs.reduce((s, r) => s + r.credit, 0) / rs.length);
    const delivered = all.filter((r) => r.delivery !== null);
    const notScorable: NotScorable[] = [...late];
    const acc = mean(counted);
    if (all.length === 0) notScorable.push({ key: "digest_acc", reason: "no day settles inside the window" });
    else if (acc === null)
      notScorable.push({ key: "digest_acc", reason: "budget exhausted before the first delivery window opened" });
    return {
      primary: { name: "digest_acc", value: acc, direction: "higher" },
      metrics: {
        digest_acc: acc,
        digest_acc_raw: mean(all),
        window_survived: all.length === 0 ? null : counted.length / all.length,
        days_scored: all.length,
        days_counted: counted.length,
        days_delivered: delivered.length,
        days_missed: all.length - delivered.length,
        mean_hits: delivered.length === 0 ? null : delivered.reduce((s, r) => s + r.hits, 0) / delivered.length,
        digests_rejected: this.rejectedCalls,
        commitments_ignored: this.ignoredCommitments,
      },
      not_scorable: notScorable,
    };
  }

  private result(day: DigestDay): DayResult {
    const delivery = this.deliveries.get(day.opens) ?? null;
    const ids = delivery ? [...new Set(delivery.ids)].slice(0, this.p.digest_size) : [];
    const verdicts = ids.map((id) => this.judge(id, day));
    const hits = verdicts.filter((v) => v.hit).length;
    return {
      day,
      counted: this.budgetExhaustedAt === null || day.opens < this.budgetExhaustedAt,
      delivery,
      hits,
      credit: hits / this.p.digest_size,
      verdicts,
    };
  }

  /** a pure function of the world: memoized so daily reports judge each (day, id) once */
  private judge(id: string, day: DigestDay): IdVerdict {
    const k = `${day.key}\u0000${id}`;
    const done = this.verdicts.get(k);
    if (done) return done;
    const v = this.judgeOnce(id, day);
    this.verdicts.set(k, v);
    return v;
  }

  private judgeOnce(id: string, day: DigestDay): IdVerdict {
    const created = this.facts.createdAt(id);
    if (created === null) return { id, hit: false, reason: "not_a_post" };
    if (created < day.candidatesFrom || created >= day.opens)
      return { id, hit: false, reason: "outside_candidate_window", created_utc: created };
    const n = this.facts.cascade24h(id, created);
    return n >= this.p.hit_threshold
      ? { id, hit: true, cascade_24h: n }
      : { id, hit: false, reason: "below_threshold", cascade_24h: n };
  }
}
