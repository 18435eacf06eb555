import { ScorerBase } from "../scorer-base.js";
import { DIGEST_TOOL, digestArgs } from "./digest-tools.js";
import { DailyDigestParams } from "./params.js";
import { RedditFacts } from "./reddit-facts.js";
import { daysOpeningIn, openWindowAt } from "./schedule.js";
const DAILY_DIGEST_SCORER_VERSION = "daily-digest-scorer/1";
class DailyDigestScorer extends ScorerBase {
  constructor(ctx) {
    super();
    this.ctx = ctx;
    this.p = DailyDigestParams.parse(ctx.params ?? {});
    this.facts = new RedditFacts(ctx.world.db);
    this.args = digestArgs(this.p.max_ids);
    const days = daysOpeningIn(ctx.sim_start, ctx.sim_end, this.p);
    this.scored = days.filter((d) => d.settles <= ctx.sim_end);
    this.late = days.filter((d) => d.settles > ctx.sim_end).map((d) => ({ key: d.key, reason: "settles after window" }));
  }
  ctx;
  p;
  facts;
  scored;
  late;
  deliveries = /* @__PURE__ */ new Map();
  args;
  watchedTools = /* @__PURE__ */ new Set([DIGEST_TOOL]);
  emitted = 0;
  ignoredCommitments = 0;
  rejectedCalls = 0;
  verdicts = /* @__PURE__ */ new Map();
  onToolCall(e) {
    if (e.status !== "ok") this.rejectedCalls++;
  }
  onCommitment(e) {
    if (e.tool !== DIGEST_TOOL) return;
    const parsed = this.args.safeParse(e.args);
    const window = openWindowAt(e.t, this.p);
    if (!parsed.success || !window || this.deliveries.has(window.opens)) {
      this.ignoredCommitments++;
      return;
    }
    this.deliveries.set(window.opens, { t: e.t, ids: parsed.data.root_ids });
  }
  settle(t) {
    const out = [];
    while (this.emitted < this.scored.length) {
      const day = this.scored[this.emitted];
      if (day.settles > t) break;
      const r = this.result(day);
      let released_at = day.settles;
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
          counted: r.counted
        }
      });
      this.emitted++;
    }
    return out;
  }
  report() {
    return this.reportOver(this.scored, this.late);
  }
  /** the report of a fresh scorer with window [sim_start, end): the days settling by `end` */
  reportAt(end) {
    const days = daysOpeningIn(this.ctx.sim_start, end, this.p);
    return this.reportOver(
      days.filter((d) => d.settles <= end),
      days.filter((d) => d.settles > end).map((d) => ({ key: d.key, reason: "settles after window" }))
    );
  }
  reportOver(scored, late) {
    const all = scored.map((d) => this.result(d));
    const counted = all.filter((r) => r.counted);
    const mean = (rs) => rs.length === 0 ? null : rs.reduce((s, r) => s + r.credit, 0) / rs.length;
    const delivered = all.filter((r) => r.delivery !== null);
    const notScorable = [...late];
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
        commitments_ignored: this.ignoredCommitments
      },
      not_scorable: notScorable
    };
  }
  result(day) {
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
      verdicts
    };
  }
  /** a pure function of the world: memoized so daily reports judge each (day, id) once */
  judge(id, day) {
    const k = `${day.key}\0${id}`;
    const done = this.verdicts.get(k);
    if (done) return done;
    const v = this.judgeOnce(id, day);
    this.verdicts.set(k, v);
    return v;
  }
  judgeOnce(id, day) {
    const created = this.facts.createdAt(id);
    if (created === null) return { id, hit: false, reason: "not_a_post" };
    if (created < day.candidatesFrom || created >= day.opens)
      return { id, hit: false, reason: "outside_candidate_window", created_utc: created };
    const n = this.facts.cascade24h(id, created);
    return n >= this.p.hit_threshold ? { id, hit: true, cascade_24h: n } : { id, hit: false, reason: "below_threshold", cascade_24h: n };
  }
}
export {
  DAILY_DIGEST_SCORER_VERSION,
  DailyDigestScorer
};
//# sourceMappingURL=scorer.js.map
