import { z } from "zod";
import { isoInstant, MINUTE_MS, parseIsoInstant } from "../common/time.js";
import { type RateLimiter, SlidingWindowLimiter } from "../kernel/rate-limiter.js";
import { defineTool, ok, reject, type ToolDef, type ToolResult } from "../tools/tool.js";
import { type AsOfView, NotVisibleError } from "../world/as-of-view.js";
import type { RedditCommentRow, RedditPostRow } from "../world/types.js";

/**
 * The Reddit data tools shared by popularity and daily-digest: `list_posts`, `get_post`,
 * `get_cascade` (priced, limiter "reddit") and `quota` (free). Every read goes through the as-of
 * view; an unknown or not-yet-visible id becomes a free rejection carrying the view's own text.
 */

export const REDDIT_LIMITER = "reddit";
export const REDDIT_DEFAULT_CALL_USD = 0.00024;
export const REDDIT_DEFAULT_RATE_LIMIT = 1000;
export const REDDIT_DEFAULT_RATE_WINDOW_MS = 10 * MINUTE_MS;
export const LIST_PAGE_SIZE = 50;
export const CASCADE_PAGE_SIZE = 100;
/** post bodies in `list_posts` pages are cut to this many characters (`get_post` gives the full body) */
export const LIST_BODY_CHARS = 280;

export interface RedditRateLimit {
  limit: number;
  windowMs: number;
}

/** Fresh limiter instances for one run (the runtime registers them under their names). */
export function redditLimiters(o: Partial<RedditRateLimit> = {}): Record<string, RateLimiter> {
  return {
    [REDDIT_LIMITER]: new SlidingWindowLimiter({
      limit: o.limit ?? REDDIT_DEFAULT_RATE_LIMIT,
      windowMs: o.windowMs ?? REDDIT_DEFAULT_RATE_WINDOW_MS,
    }),
  };
}

/** Epoch ms below this are almost surely epoch seconds (before 1973-03 in ms). */
const SECONDS_SUSPECT = 100_000_000_000;

const TimeArg = z
  .union([z.number(), z.string()])
  .describe(
    'an instant: epoch milliseconds (e.g. 1772366400000) or an ISO-8601 string ("2026-03-01T12:00:00Z"; a date alone or a time without a zone is read as UTC)',
  );

/** Parse a time argument: epoch ms, or ISO-8601 (missing zone = UTC). Returns an error text on failure. */
export function parseTimeArg(name: string, v: number | string): { ok: true; t: number } | { ok: false; error: string } {
  if (typeof v === "number") {
    if (!Number.isFinite(v) || !Number.isInteger(v))
      return { ok: false, error: `${name}: not an integer epoch-ms instant: ${v}` };
    if (Math.abs(v) < SECONDS_SUSPECT)
      return {
        ok: false,
        error: `${name}: ${v} looks like epoch seconds; pass epoch milliseconds or an ISO-8601 string`,
      };
    return { ok: true, t: v };
  }
  const s = v.trim();
  if (/^-?\d+$/.test(s)) return parseTimeArg(name, Number(s));
  let iso = s;
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) iso = `${iso}T00:00:00Z`;
  else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(iso)) iso = `${iso}Z`;
  iso = iso.replace(" ", "T");
  try {
    return { ok: true, t: parseIsoInstant(iso) };
  } catch {
    return {
      ok: false,
      error: `${name}: cannot read "${s}" as an instant; use epoch milliseconds or ISO-8601 like "2026-03-01T12:00:00Z"`,
    };
  }
}

function asAgentError(err: unknown): ToolResult {
  if (err instanceof NotVisibleError) return reject(err.message);
  throw err;
}

function postSummary(p: RedditPostRow & { num_comments: number }, bodyChars: number | null) {
  const body = bodyChars !== null && p.body.length > bodyChars ? `${p.body.slice(0, bodyChars)}…` : p.body;
  return {
    id: p.id,
    subreddit: p.subreddit,
    author: p.author,
    title: p.title,
    body,
    created: isoInstant(p.created_utc),
    created_utc: p.created_utc,
    num_comments: p.num_comments,
  };
}

function commentOut(c: RedditCommentRow) {
  return {
    id: c.id,
    parent: c.parent,
    author: c.author,
    created: isoInstant(c.created_utc),
    created_utc: c.created_utc,
    body: c.body,
  };
}

export const ListPostsArgs = z
  .object({
    since: TimeArg.optional().describe("only posts created at or after this instant (epoch ms or ISO-8601)"),
    until: TimeArg.optional().describe("only posts created strictly before this instant (epoch ms or ISO-8601)"),
    subreddit: z.string().min(1).max(100).optional().describe("only this subreddit (exact name, without r/)"),
    sort: z
      .enum(["new", "comments"])
      .optional()
      .describe('"new" (default): by creation time; "comments": by comments visible now'),
    order: z.enum(["asc", "desc"]).optional().describe('"desc" (default) or "asc"'),
    offset: z.number().int().min(0).optional().describe("skip this many matching posts (pages of 50)"),
  })
  .strict();

export const GetPostArgs = z.object({ id: z.string().min(1).max(200).describe("post id") }).strict();

export const GetCascadeArgs = z
  .object({
    id: z.string().min(1).max(200).describe("post id"),
    offset: z.number().int().min(0).optional().describe("skip this many comments (pages of 100, oldest first)"),
  })
  .strict();

export const QuotaArgs = z.object({}).strict();

export interface RedditToolOptions {
  view: AsOfView;
  /** USD per accepted data call */
  callUsd: number;
  /** the run's "reddit" limiter instance (the same one registered with the runtime): `quota` reads it */
  limiter: RateLimiter;
  rate: RedditRateLimit;
}

/** `list_posts`, `get_post`, `get_cascade`, `quota` over an as-of view. */
export function redditDataTools(o: RedditToolOptions): ToolDef[] {
  const { view, callUsd, limiter, rate } = o;
  const price = () => callUsd;
  const priceText = `$${callUsd} per call`;
  const limitText = `shares the Reddit limit of ${rate.limit} calls per sliding ${Math.round(rate.windowMs / MINUTE_MS)} minutes`;

  const listPosts = defineTool({
    name: "list_posts",
    description:
      `List Reddit root posts visible now, ${LIST_PAGE_SIZE} per page, with \`total\` matching posts and \`next_offset\`. ` +
      "Filters: `since` (created at or after) and `until` (created strictly before), each epoch milliseconds or an " +
      'ISO-8601 string such as "2026-03-01T12:00:00Z" (no zone = UTC); `subreddit`. `sort`: "new" (creation time, ' +
      'default) or "comments" (comments visible now); `order` "desc" (default) or "asc". `num_comments` counts only ' +
      `comments visible now; bodies are cut to ${LIST_BODY_CHARS} characters. ${priceText}; ${limitText}.`,
    args: ListPostsArgs,
    kind: "data",
    domain: "data",
    limiter: REDDIT_LIMITER,
    price,
    run(args) {
      let since: number | undefined;
      let until: number | undefined;
      if (args.since !== undefined) {
        const r = parseTimeArg("since", args.since);
        if (!r.ok) return reject(r.error);
        since = r.t;
      }
      if (args.until !== undefined) {
        const r = parseTimeArg("until", args.until);
        if (!r.ok) return reject(r.error);
        until = r.t;
      }
      const offset = args.offset ?? 0;
      try {
        const res = view.reddit.listPosts({
          ...(since !== undefined ? { since } : {}),
          // the view's `until` is inclusive; the tool's is exclusive (instants are integer ms)
          ...(until !== undefined ? { until: until - 1 } : {}),
          ...(args.subreddit !== undefined ? { subreddit: args.subreddit } : {}),
          sort: args.sort ?? "new",
          order: args.order ?? "desc",
          offset,
          limit: LIST_PAGE_SIZE,
        });
        const next = offset + res.posts.length;
        return ok({
          posts: res.posts.map((p) => postSummary(p, LIST_BODY_CHARS)),
          total: res.total,
          offset,
          next_offset: res.posts.length > 0 && next < res.total ? next : null,
        });
      } catch (err) {
        return asAgentError(err);
      }
    },
  });

  const getPost = defineTool({
    name: "get_post",
    description:
      "One Reddit root post with its full body and `num_comments` (comments visible now). Once the post is 24 h old, " +
      `\`descendants_24h\` gives its revealed 24 h cascade size (null before). ${priceText}; ${limitText}.`,
    args: GetPostArgs,
    kind: "data",
    domain: "data",
    limiter: REDDIT_LIMITER,
    price,
    run(args) {
      try {
        const p = view.reddit.getPost(args.id);
        return ok({ ...postSummary(p, null), descendants_24h: view.reddit.revealed(args.id) });
      } catch (err) {
        return asAgentError(err);
      }
    },
  });

  const getCascade = defineTool({
    name: "get_cascade",
    description:
      `The visible comments of a post's reply tree, oldest first, ${CASCADE_PAGE_SIZE} per page, with \`total\` visible ` +
      `comments and \`next_offset\`. ${priceText}; ${limitText}.`,
    args: GetCascadeArgs,
    kind: "data",
    domain: "data",
    limiter: REDDIT_LIMITER,
    price,
    run(args) {
      const offset = args.offset ?? 0;
      try {
        const res = view.reddit.cascade(args.id, { offset, limit: CASCADE_PAGE_SIZE });
        const next = offset + res.comments.length;
        return ok({
          post_id: args.id,
          comments: res.comments.map(commentOut),
          total: res.total,
          offset,
          next_offset: res.comments.length > 0 && next < res.total ? next : null,
        });
      } catch (err) {
        return asAgentError(err);
      }
    },
  });

  const quota = defineTool({
    name: "quota",
    description: `Free: how many Reddit data calls you can make right now (${rate.limit} per sliding ${Math.round(rate.windowMs / MINUTE_MS)} minutes) and their price.`,
    args: QuotaArgs,
    kind: "meta",
    run(_args, ctx) {
      return ok({
        remaining: limiter.remaining(ctx.now()),
        limit: rate.limit,
        window_minutes: rate.windowMs / MINUTE_MS,
        price_usd_per_call: callUsd,
      });
    },
  });

  return [listPosts, getPost, getCascade, quota];
}
