/**
 * A complete task defined outside relive: every hour, report how many Reddit posts were created in
 * the hour that just ended. It uses only relive's public API (`import ... from "relive"`).
 *
 *   npx relive run --task-module examples/custom-task/post-counter.ts --task post-counter
 */
import { z } from "zod";
import {
  type CommitmentEvent,
  defineTask,
  defineTool,
  ok,
  type Outcome,
  reject,
  type ScoreReport,
  ScorerBase,
  type ScorerContext,
  statelessPolicy,
} from "relive";

const HOUR = 3_600_000;
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString();

export const PostCounterParams = z.object({ list_usd: z.number().nonnegative().default(0.0001) }).strict();
export type PostCounterParams = z.infer<typeof PostCounterParams>;

const ReportArgs = z
  .object({
    hour: z.string().describe("ISO start of the hour you count, e.g. 2026-03-01T05:00:00Z"),
    count: z.number().int().nonnegative().describe("posts created in [hour, hour + 1 h)"),
  })
  .strict();

/** hour h (its start) is due in [h + 1 h, h + 2 h): the hour after it ended */
const dueWindow = (h: number) => ({ opens: h + HOUR, closes: h + 2 * HOUR });

/**
 * Scores each full hour h of [sim_start, sim_end − 1 h): `ok` when the first report for h arrived
 * in its due window with the true count (recounted from the world, never from the agent), `wrong`
 * with another count, `miss` with none. Primary `count_acc` = ok / hours.
 */
export class PostCounterScorer extends ScorerBase {
  protected readonly watchedTools = new Set<string>();
  private readonly hours: number[] = [];
  private readonly reports = new Map<number, { t: number; count: number }>();
  private readonly outcomes: Outcome[] = [];
  private emitted = 0;

  constructor(private readonly ctx: ScorerContext) {
    super();
    for (let h = ctx.sim_start; dueWindow(h).closes <= ctx.sim_end; h += HOUR) this.hours.push(h);
  }

  private truth(h: number): number {
    return this.ctx.world.at(() => h + HOUR).reddit.listPosts({ since: h, until: h + HOUR - 1, limit: 1 }).total;
  }

  protected override onCommitment(e: CommitmentEvent): void {
    const a = ReportArgs.safeParse(e.args);
    if (!a.success) return;
    const h = Date.parse(a.data.hour);
    const w = dueWindow(h);
    if (e.t >= w.opens && e.t < w.closes && !this.reports.has(h)) this.reports.set(h, { t: e.t, count: a.data.count });
  }

  settle(t: number): Outcome[] {
    const out: Outcome[] = [];
    while (this.emitted < this.hours.length && dueWindow(this.hours[this.emitted]!).closes <= t) {
      const h = this.hours[this.emitted++]!;
      const r = this.reports.get(h);
      const truth = this.truth(h);
      const status = r === undefined ? "miss" : r.count === truth ? "ok" : "wrong";
      const o: Outcome = {
        t: dueWindow(h).closes,
        key: `hour:${iso(h)}`,
        status,
        credit: status === "ok" ? 1 : 0,
        detail: { truth, reported: r?.count ?? null },
      };
      out.push(o);
      this.outcomes.push(o);
    }
    return out;
  }

  report(): ScoreReport {
    const ok = this.outcomes.filter((o) => o.status === "ok").length;
    const n = this.hours.length;
    return {
      primary: { name: "count_acc", value: n === 0 ? null : ok / n, direction: "higher" },
      metrics: { hours: n, ok, missed: this.outcomes.filter((o) => o.status === "miss").length },
      not_scorable: n === 0 ? [{ key: "window", reason: "no full hour in the window" }] : [],
    };
  }
}

/** the start of the hour that ended last, at or before `now` */
const lastFullHour = (now: number) => Math.floor(now / HOUR) * HOUR - HOUR;

export const postCounterTask = defineTask<PostCounterParams>({
  id: "post-counter",
  version: "1",
  scorer_version: "post-counter-scorer/1",
  title: "Hourly post counter (a custom task example)",
  axes: { time_sensitivity: "high", reasoning: "low", recurrence: "hourly" },
  params: PostCounterParams,
  episodes: [
    {
      name: "synth-2d",
      sim_start: day("2026-03-01"),
      sim_end: day("2026-03-03"),
      world: { kind: "synth" },
      description: "Two days of the synthetic Reddit world.",
    },
  ],
  defaultEpisode: "synth-2d",
  budget_usd: 5,
  baseSchedule: "5 * * * *",
  streams: ["reddit_post"],
  createScorer: (ctx) => new PostCounterScorer(ctx),
  referencePolicies: [
    statelessPolicy({
      name: "silent",
      description: "Never reports (count_acc 0).",
      act: async () => {},
      nextWake: () => null,
    }),
    statelessPolicy({
      name: "counter",
      description: "At HH:05 counts the posts of the hour that ended and reports it (count_acc 1).",
      async act(api) {
        const h = lastFullHour(api.now());
        const page = await api.call("count_posts", { since: iso(h), until: iso(h + HOUR - 1) });
        if (page.ok) await api.call("report_count", { hour: iso(h), count: (page.value as { total: number }).total });
      },
      nextWake: (now) => Math.floor(now / HOUR) * HOUR + HOUR + 5 * 60_000,
      cron: ["5 * * * *"],
    }),
  ],
  metrics: { primary: "count_acc", direction: "higher", secondary: ["hours", "ok", "missed"] },
  open(ctx) {
    const reported = new Set<string>();
    return {
      instruction: () =>
        `Every hour, report with report_count how many Reddit posts were created in the hour that just ended ` +
        `(between ${iso(ctx.sim_start)} and ${iso(ctx.sim_end)}). A report for hour H counts only between H + 1 h and ` +
        `H + 2 h. count_posts costs $${ctx.params.list_usd} per call; the budget is $${ctx.budget_usd}.`,
      tools: () => [
        defineTool({
          name: "count_posts",
          description: `Number of Reddit posts created in [since, until] and visible now. $${ctx.params.list_usd} per call.`,
          args: z.object({ since: z.string(), until: z.string() }).strict(),
          kind: "data",
          price: () => ctx.params.list_usd,
          run(a) {
            const since = Date.parse(a.since);
            const until = Date.parse(a.until);
            if (!Number.isFinite(since) || !Number.isFinite(until)) return reject("since/until: ISO date-times");
            return ok({ total: ctx.view.reddit.listPosts({ since, until, limit: 1 }).total });
          },
        }),
        defineTool({
          name: "report_count",
          description: "Free. Report the post count of one hour (the first report per hour counts).",
          args: ReportArgs,
          kind: "commit",
          run(a, c) {
            const h = Date.parse(a.hour);
            if (!Number.isFinite(h) || h % HOUR !== 0) return reject("hour: the ISO start of an hour");
            const w = dueWindow(h);
            if (c.now() < w.opens || c.now() >= w.closes)
              return reject(`hour ${a.hour} can be reported only in [${iso(w.opens)}, ${iso(w.closes)})`);
            if (reported.has(a.hour)) return reject(`hour ${a.hour} is already reported`);
            reported.add(a.hour);
            return ok({ accepted: true });
          },
        }),
      ],
      deadlines: (view, until) => {
        const out: number[] = [];
        for (let d = Math.floor(view.now() / HOUR) * HOUR + HOUR; d < until; d += HOUR) out.push(d);
        return out;
      },
      state: () => [{ title: "hours reported", lines: [...reported].slice(-3) }],
    };
  },
});

export default postCounterTask;
