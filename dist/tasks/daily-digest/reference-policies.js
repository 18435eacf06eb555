import { z } from "zod";
import { DAY_MS, HOUR_MS, MINUTE_MS, parseIsoInstant, startOfUtcDay } from "../../kernel/day.js";
import { oracleStatelessPolicy, statelessPolicy } from "../reference-policy.js";
import { DIGEST_STATUS_TOOL, DIGEST_TOOL } from "./digest-tools.js";
import { DailyDigestParams } from "./params.js";
import { RedditFacts } from "./reddit-facts.js";
const Status = z.object({
  today: z.object({
    window: z.object({ opens: z.string(), closes: z.string() }),
    candidates: z.object({ since: z.string(), until: z.string() }),
    delivered: z.boolean()
  }),
  digest_size: z.number().int().positive()
});
const PostsPage = z.object({ posts: z.array(z.object({ id: z.string() })) });
async function status(api) {
  const r = await api.call(DIGEST_STATUS_TOOL, {});
  if (!r.ok) throw new Error(`digest_status failed: ${r.error}`);
  return Status.parse(r.value);
}
function nextDailyAt(now, minuteOfDay) {
  const today = startOfUtcDay(now) + minuteOfDay * MINUTE_MS;
  return today > now ? today : today + DAY_MS;
}
const silentPolicy = statelessPolicy({
  name: "silent",
  description: "Never calls a tool and never delivers a digest (the floor: digest_acc 0).",
  async act() {
  },
  nextWake: () => null,
  cron: []
});
function topCommentsPolicy(name, minuteOfDay) {
  const hh = Math.floor(minuteOfDay / 60);
  const mm = minuteOfDay % 60;
  const at = `${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}`;
  return statelessPolicy({
    name,
    description: `At ${at} UTC each day: list_posts(since = window opening \u2212 24 h, until = window opening, sort = comments) and digest the top ids (one priced call per day).`,
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
        order: "desc"
      });
      if (!page.ok) return;
      const ids = PostsPage.parse(page.value).posts.slice(0, s.digest_size).map((p) => p.id);
      if (ids.length === 0) return;
      await api.call(DIGEST_TOOL, { root_ids: ids });
    },
    nextWake: (now) => nextDailyAt(now, minuteOfDay),
    cron: [`${mm} ${hh} * * *`]
  });
}
const topCommentsPolicyAt1230 = topCommentsPolicy("top-comments", 12 * 60 + 30);
const topCommentsPolicyAt1330 = topCommentsPolicy("top-comments-at-13-30", 13 * 60 + 30);
const oraclePolicy = oracleStatelessPolicy({
  name: "oracle",
  description: "Reads the untouched world: at each window opening, delivers the candidates with the largest 24 h cascades.",
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
  cron: ["0 12 * * *"]
});
const dailyDigestPolicies = [
  silentPolicy,
  oraclePolicy,
  topCommentsPolicyAt1230,
  topCommentsPolicyAt1330
];
export {
  dailyDigestPolicies,
  nextDailyAt,
  oraclePolicy,
  silentPolicy,
  topCommentsPolicy,
  topCommentsPolicyAt1230,
  topCommentsPolicyAt1330
};
//# sourceMappingURL=reference-policies.js.map
