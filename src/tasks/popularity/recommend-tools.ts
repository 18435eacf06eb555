import { z } from "zod";
import { HOUR_MS, isoInstant } from "../../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../../tools/tool.js";
import { type AsOfView, NotVisibleError } from "../../world/as-of-view.js";
import type { PopularityParams } from "./params.js";
import {
  capWindowMs,
  horizonMs,
  judgeRecommendation,
  type Recommendation,
  type RuleVerdict,
} from "./recommend-rule.js";
import type { RecommendationBook } from "./recommendation-book.js";

export const RECOMMEND_TOOL = "recommend";
export const RECOMMENDATIONS_TOOL = "recommendations";

export const RecommendArgs = z
  .object({ root_id: z.string().min(1).max(200).describe("id of a root post created after the run started") })
  .strict();

const hours = (ms: number) => Math.round((ms / HOUR_MS) * 1e6) / 1e6;

/** one pending recommendation in `recommendations()` */
interface PendingEntry {
  root_id: string;
  recommended_at: string;
  delay_hours: number;
  reveals_at: string;
}

/** The rejection text of a failed rule: names the rule and only public instants. */
export function rejectionText(
  verdict: Exclude<RuleVerdict, { ok: true }>,
  post: { id: string; created_utc: number },
  sim_start: number,
  p: PopularityParams,
): string {
  const id = JSON.stringify(post.id);
  switch (verdict.reason) {
    case "before_run_start":
      return `recommend rejected: post ${id} was created at ${isoInstant(post.created_utc)}, before the run started (${isoInstant(sim_start)}); only posts created after the run start can be recommended`;
    case "revealed":
      return `recommend rejected: post ${id} is already revealed (its ${p.horizon_hours} h cascade became public at ${isoInstant(post.created_utc + horizonMs(p))})`;
    case "already_recommended":
      return `recommend rejected: post ${id} was already recommended at ${isoInstant(verdict.at)} (each post once)`;
    case "cap_reached":
      return `recommend rejected: ${p.cap} recommendations were accepted in the last ${p.cap_window_hours} h (the cap); the next slot frees at ${isoInstant(verdict.next_slot_at)}`;
    default: {
      const never: never = verdict;
      throw new Error(`unhandled verdict ${JSON.stringify(never)}`);
    }
  }
}

function capStatus(book: RecommendationBook, now: number, p: PopularityParams) {
  const window = book.inCapWindow(now, p);
  const free = window.length < p.cap;
  return {
    limit: p.cap,
    window_hours: p.cap_window_hours,
    used: window.length,
    remaining: Math.max(0, p.cap - window.length),
    next_slot_at: free ? null : isoInstant(Math.min(...window.map((r) => r.t)) + capWindowMs(p)),
  };
}

/** `recommend(root_id)` (commit, free) and `recommendations()` (free status of the agent's pending recommendations and the cap). */
export function recommendTools(o: {
  view: AsOfView;
  params: PopularityParams;
  sim_start: number;
  book: RecommendationBook;
}): ToolDef[] {
  const { view, params: p, sim_start, book } = o;
  const runStart = isoInstant(sim_start);
  /**
   * A pending recommendation's entry, a pure function of the recommendation, made once: the status is
   * asked at every wake and lists the same pending ones again (formatting their instants was 4% of a
   * 365-day velocity run's CPU).
   */
  const entries = new WeakMap<Recommendation, PendingEntry>();
  const entryOf = (r: Recommendation): PendingEntry => {
    let e = entries.get(r);
    if (!e) {
      e = {
        root_id: r.id,
        recommended_at: isoInstant(r.t),
        delay_hours: hours(r.t - r.created_utc),
        reveals_at: isoInstant(r.created_utc + horizonMs(p)),
      };
      entries.set(r, e);
    }
    return { ...e };
  };

  const recommend = defineTool({
    name: RECOMMEND_TOOL,
    description:
      `Recommend a root post you expect to reach ${p.tail_threshold} comments within ${p.horizon_hours} h of posting. Free. ` +
      `Accepted only for posts created after the run started and not yet revealed (younger than ${p.horizon_hours} h), ` +
      `each post once, at most ${p.cap} accepted per rolling ${p.cap_window_hours} h. A rejected call is free and uses ` +
      "no slot. The earlier you recommend a post after its creation, the more credit it earns.",
    args: RecommendArgs,
    kind: "commit",
    run(a, ctx) {
      const now = ctx.now();
      let post: { id: string; created_utc: number };
      try {
        const row = view.reddit.getPost(a.root_id);
        post = { id: row.id, created_utc: row.created_utc };
      } catch (err) {
        if (err instanceof NotVisibleError) return reject(`recommend rejected: ${err.message}`);
        throw err;
      }
      const verdict = judgeRecommendation(post, now, sim_start, book, p);
      if (!verdict.ok) return reject(rejectionText(verdict, post, sim_start, p));
      book.accept({ id: post.id, t: now, created_utc: post.created_utc });
      return ok({
        accepted: true,
        root_id: post.id,
        recommended_at: isoInstant(now),
        delay_hours: hours(now - post.created_utc),
        reveals_at: isoInstant(post.created_utc + horizonMs(p)),
        cap: capStatus(book, now, p),
      });
    },
  });

  const status = defineTool({
    name: RECOMMENDATIONS_TOOL,
    description:
      "Free: your pending recommendations (accepted, post not yet revealed: post id, when, delay after posting, when " +
      `the post reveals), how many you have made in all and how many have revealed, the rolling cap (${p.cap} per ` +
      `${p.cap_window_hours} h: used, remaining, when the next slot frees), plus the run start (only posts created at ` +
      "or after it can be recommended).",
    args: z.object({}).strict(),
    kind: "meta",
    run(_a, ctx) {
      const now = ctx.now();
      const pending = book.pending(now, p);
      return ok({
        now: isoInstant(now),
        run_start: runStart,
        cap: capStatus(book, now, p),
        accepted_total: book.accepted.length,
        revealed_total: book.accepted.length - pending.length,
        pending: pending.map(entryOf),
      });
    },
  });

  return [recommend, status];
}
