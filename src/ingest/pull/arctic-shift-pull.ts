import { z } from "zod";
import { parseBody } from "./pull-context.js";
import { definePullSource } from "./pull-source.js";

/**
 * Arctic Shift (Reddit archive API): `GET /api/posts/search` and `GET /api/comments/search` with
 * `subreddit`, `after`, `before` (epoch seconds), `limit` (≤ 100) and `sort=asc`; the response is
 * `{data: [...]}`. Pages are walked forward by `created_utc`: the next page starts one second
 * before the last item's (so items sharing its second are not lost, whether `after` is inclusive or
 * not; ids of the previous page are dropped), always moving forward, until a page comes back short
 * (a full page within one or two seconds cannot be paged past by time: it moves on, logged). Each page is written as NDJSON, one object per line
 * exactly as served (the dump format the Reddit importer reads):
 * `arctic-shift/<subreddit>/<posts|comments>/<after>.ndjson`.
 */

const isoOrEpoch = z.string().transform((s, c) => {
  const t = /^\d+$/.test(s) ? Number(s) * 1000 : Date.parse(s);
  if (!Number.isFinite(t)) {
    c.addIssue({ code: "custom", message: `not a date: ${s}` });
    return z.NEVER;
  }
  return Math.floor(t / 1000);
});

const Options = z
  .object({
    subreddit: z.array(z.string().regex(/^[A-Za-z0-9_]{2,21}$/, "not a subreddit name")).min(1, "give --subreddit"),
    kind: z.enum(["posts", "comments", "both"]).default("both"),
    after: isoOrEpoch,
    before: isoOrEpoch,
    limit: z.coerce.number().int().min(1).max(100).default(100),
    maxPages: z.coerce.number().int().positive().default(10_000),
  })
  .refine((o) => o.after < o.before, { message: "--after must be before --before" });

const Item = z.looseObject({
  id: z.string().min(1),
  created_utc: z.union([z.number(), z.string().regex(/^\d+(\.\d+)?$/)]).transform(Number),
});
const Page = z.object({ data: z.array(Item) });

export const arcticShiftPull = definePullSource({
  name: "arctic-shift",
  describe: "Reddit submissions and comments of subreddits from the Arctic Shift API",
  endpoints: { api: { default: "https://arctic-shift.photon-reddit.com", env: "RELIVE_PULL_ARCTIC_SHIFT_URL" } },
  defaultRate: 2,
  options: [
    { flags: "--subreddit <name>", description: "subreddit (repeatable)", repeatable: true },
    { flags: "--kind <kind>", description: "posts, comments or both", default: "both" },
    { flags: "--after <date>", description: "from (ISO date or epoch seconds)" },
    { flags: "--before <date>", description: "to, exclusive (ISO date or epoch seconds)" },
    { flags: "--limit <n>", description: "items per page (≤ 100)", default: "100" },
    { flags: "--max-pages <n>", description: "stop after this many pages per subreddit and kind", default: "10000" },
  ],
  schema: Options,
  async run(ctx, o) {
    const kinds = o.kind === "both" ? (["posts", "comments"] as const) : ([o.kind] as const);
    for (const sub of o.subreddit)
      for (const kind of kinds) {
        let after = o.after;
        let prev = new Set<string>();
        for (let page = 0; page < o.maxPages; page++) {
          ctx.progress.grow(1);
          const skip = prev;
          const got = await ctx.item(
            `${sub}/${kind}/${after}-${o.before}/${o.limit}`,
            `${ctx.base("api")}/api/${kind}/search?subreddit=${sub}&after=${after}&before=${o.before}&limit=${o.limit}&sort=asc`,
            `arctic-shift/${sub}/${kind}/${after}.ndjson`,
            (body, url) => {
              const items = parseBody(body, url, Page, "an Arctic Shift search response").data;
              const raw = (JSON.parse(body.toString("utf8")) as { data: unknown[] }).data;
              const fresh = raw.filter((_, i) => !skip.has(items[i]!.id));
              return {
                write: fresh.map((x) => `${JSON.stringify(x)}\n`).join(""),
                meta: {
                  n: items.length,
                  fresh: fresh.length,
                  last: items.at(-1)?.created_utc ?? null,
                  ids: items.map((x) => x.id),
                },
              };
            },
          );
          const m = got?.meta as { n: number; fresh: number; last: number | null; ids: string[] };
          if (m.n < o.limit || m.last === null) break;
          const last = Math.floor(m.last);
          // re-ask from the second before the last item's (items sharing it are not lost; repeats are dropped),
          // always moving forward
          const next = m.fresh === 0 ? last + 1 : Math.max(last - 1, after + 1);
          if (next > last - 1)
            ctx.log(
              `arctic-shift: ${sub} ${kind}: a full page of ${o.limit} within seconds ${after}–${last}: ` +
                `items of second ${last} beyond it may be missed (use a larger --limit)`,
            );
          if (next >= o.before) break;
          after = next;
          prev = new Set(m.ids);
        }
      }
  },
});
