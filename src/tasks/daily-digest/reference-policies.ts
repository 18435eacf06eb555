import { z } from "zod";
import { DAY_MS, HOUR_MS, MINUTE_MS, parseIsoInstant, startOfUtcDay } from "../../common/time.js";
import { oracleStatelessPolicy, statelessPolicy } from "../reference-policy.js";
import type { PolicyApi, ReferencePolicy } from "../task.js";
import { DIGEST_STATUS_TOOL, DIGEST_TOOL } from "./digest-tools.js";
import { DailyDigestParams } from "./params.js";
import { RedditFacts } from "./reddit-facts.js";

/** The parts of `digest_status` the policies read (validated: a policy trusts no shape blindly). */
const Status = z.object({
  today: z.object({
    window: z.object({ opens: z.string(), closes: z.string() }),
    candidates: z.object({ since: z.string(), until: z.string() }),
    delivered: z.boolean(),
  }),
  digest_size: z.number().int().positive(),
});
type Status = z.infer<typeof Status>;

const PostsPage = z.object({ posts: z.array(z.object({ id: z.string() })) });

async function status(api: PolicyApi): Promise<Status> {
  const r = await api.call(DIGEST_STATUS_TOOL, {});
  if (!r.ok) throw new Error(`digest_status failed: ${r.error}`);
  return Status.parse(r.value);
}

/** The first instant strictly after `now` whose UTC time of day is `minuteOfDay`. */
export function nextDailyAt(now: number, minuteOfDay: number): number {
  const today = startOfUtcDay(now) + minuteOfDay * MINUTE_MS;
  return today > now ? today : today + DAY_MS;
}

/** Floor: never delivers. */
export const silentPolicy: ReferencePolicy = statelessPolicy({
  name: "silent",
  description: "Never calls a tool and never delivers a digest (the floor: digest_acc 0).",
  async act() {},
  nextWake: () => null,
  cron: [],
});

/**
 * The honest heuristic: at `minuteOfDay` (UTC), list the posts of the candidate window sorted by
 * comments visible now and deliver the top `digest_size` ids. It acts only in the half hour after
 * its time, and not when today's digest is already delivered, so the task's base cron wake and
 * other wakes do nothing.
 */
export function topCommentsPolicy(name: string, minuteOfDay: number): ReferencePolicy {
  const hh = Math.floor(minuteOfDay / 60);
  const mm = minuteOfDay % 60;
  const at = `${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}`;
  return statelessPolicy({
    name,
    description:
      `At ${at} UTC each day: list_posts(since = window opening − 24 h, until = window opening, sort = comments) and ` +
      "digest the top ids (one priced call per day).",
    async act(api) {
      const now = api.now();
      const target = startOfUtcDay(now) + minuteOfDay * MINUTE_MS;
      if (now < target || now >= target + 30 * MINUTE_MS) return;
      const s = await status(api);
      if (s.today.delivered) return;
      const page = await api.call("list_posts", {
        since: s.today.candidates.since,
        until: s.today.candidates.until,
        sort: "comments",
        order: "desc",
      });
      if (!page.ok) return;
      const ids = PostsPage.parse(page.value)
        .posts.slice(0, s.digest_size)
        .map((p) => p.id);
      if (ids.length === 0) return;
      await api.call(DIGEST_TOOL, { root_ids: ids });
    },
    nextWake: (now) => nextDailyAt(now, minuteOfDay),
    cron: [`${mm} ${hh} * * *`],
  });
}

/** Delivers at 12:30, inside the window (anchor: 1.0 on the synthetic world). */
export const topCommentsPolicyAt1230 = topCommentsPolicy("top-comments", 12 * 60 + 30);
/** The same heuristic at 13:30, after the window closed (anchor: every digest rejected, 0.0). */
export const topCommentsPolicyAt1330 = topCommentsPolicy("top-comments-at-13-30", 13 * 60 + 30);

/**
 * Oracle (tests and calibration only): when the window opens, delivers the candidate posts with
 * the largest true 24 h cascades, read from the untouched world.
 */
export const oraclePolicy: ReferencePolicy = oracleStatelessPolicy({
  name: "oracle",
  description:
    "Reads the untouched world: at each window opening, delivers the candidates with the largest 24 h cascades.",
  async act(api, env) {
    const s = await status(api);
    const now = api.now();
    const opens = parseIsoInstant(s.today.window.opens);
    const closes = parseIsoInstant(s.today.window.closes);
    if (now < opens || now >= closes || s.today.delivered) return;
    const p = DailyDigestParams.parse(env.params ?? {});
    const facts = new RedditFacts(env.world.db);
    const ids = facts.topByCascade(opens - p.candidate_hours * HOUR_MS, opens, p.digest_size).map((r) => r.id);
    if (ids.length === 0) return;
    await api.call(DIGEST_TOOL, { root_ids: ids });
  },
  nextWake: (now) => nextDailyAt(now, 12 * 60),
  cron: ["0 12 * * *"],
});

export const dailyDigestPolicies: ReferencePolicy[] = [
  silentPolicy,
  oraclePolicy,
  topCommentsPolicyAt1230,
  topCommentsPolicyAt1330,
];
