import { z } from "zod";
import { isoInstant } from "../../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../../tools/tool.js";
import type { StateSection } from "../task.js";
import type { DailyDigestParams } from "./params.js";
import { digestDayOf, nextWindowAfter, openWindowAt } from "./schedule.js";

export const DIGEST_TOOL = "digest";
export const DIGEST_STATUS_TOOL = "digest_status";
/** longest id string a digest accepts (a format bound, not an existence check) */
export const MAX_ID_CHARS = 128;

/**
 * The digest payload. Malformed payloads (not an array, non-string or empty ids, no ids, more than
 * `max_ids`) fail this schema and are rejected by argument validation: free, and they do not use
 * the window's one digest. Ids are not checked against the world at call time; duplicates are
 * allowed (the scorer counts distinct ids).
 */
export function digestArgs(maxIds: number) {
  return z
    .object({
      root_ids: z
        .array(z.string().min(1).max(MAX_ID_CHARS))
        .min(1)
        .max(maxIds)
        .describe(
          `ids of root posts, best first (1 to ${maxIds}; only the first distinct ones up to the digest size are scored)`,
        ),
    })
    .strict();
}

/**
 * `digest_status` (free) and `digest` (commit, free). The one-digest-per-window right is tool
 * state of this run: accepted digests are remembered in `delivered` (window opening → delivery time;
 * the run's own map, shared with `digestState`). A resumed run rebuilds it
 * by re-running the episode (DESIGN invariant 3), so no restore code is needed.
 */
export function digestTools(p: DailyDigestParams, delivered: Map<number, number> = new Map()): ToolDef[] {
  const args = digestArgs(p.max_ids);

  const status = defineTool({
    name: DIGEST_STATUS_TOOL,
    description:
      "Free: whether a delivery window is open now, whether today's digest was delivered (and when), the next window " +
      "opening, and the candidate window of today's digest.",
    args: z.object({}).strict(),
    kind: "meta",
    run(_a, ctx) {
      const now = ctx.now();
      const today = digestDayOf(now, p);
      const open = openWindowAt(now, p);
      const deliveredAt = delivered.get(today.opens);
      const next = nextWindowAfter(now, p);
      return ok({
        now: isoInstant(now),
        window_open: open !== null,
        today: {
          day: today.key.slice(4),
          window: { opens: isoInstant(today.opens), closes: isoInstant(today.closes) },
          candidates: { since: isoInstant(today.candidatesFrom), until: isoInstant(today.opens) },
          delivered: deliveredAt !== undefined,
          delivered_at: deliveredAt !== undefined ? isoInstant(deliveredAt) : null,
        },
        next_window_opens: isoInstant(next.opens),
        digest_size: p.digest_size,
        hit_threshold: p.hit_threshold,
      });
    },
  });

  const digest = defineTool({
    name: DIGEST_TOOL,
    description:
      `Deliver today's digest: the ids of the root posts created in the 24 h before the window opened that you expect to ` +
      `reach ${p.hit_threshold} comments within 24 h of posting. Free. Accepted only while a delivery window is open, ` +
      `once per window; the first ${p.digest_size} distinct ids are scored (up to ${p.max_ids} ids accepted). ` +
      "Ids are not checked now: a wrong id simply scores no hit. A rejected call does not use the window's digest.",
    args,
    kind: "commit",
    run(a, ctx) {
      const now = ctx.now();
      const open = openWindowAt(now, p);
      if (!open) {
        const today = digestDayOf(now, p);
        const next = nextWindowAfter(now, p);
        const when =
          now >= today.closes
            ? `today's window [${isoInstant(today.opens)}, ${isoInstant(today.closes)}) has closed`
            : "no window is open";
        return reject(`digest rejected: ${when}; the next delivery window opens ${isoInstant(next.opens)}`);
      }
      const prior = delivered.get(open.opens);
      if (prior !== undefined)
        return reject(`digest rejected: a digest was already delivered in this window at ${isoInstant(prior)}`);
      delivered.set(open.opens, now);
      const distinct = new Set(a.root_ids).size;
      return ok({
        accepted: true,
        day: open.key.slice(4),
        delivered_at: isoInstant(now),
        ids_received: a.root_ids.length,
        distinct_ids: distinct,
        scored_ids: Math.min(distinct, p.digest_size),
        settles_at: isoInstant(open.settles),
      });
    },
  });

  return [status, digest];
}

/**
 * The decision-critical state at `now`: today's delivery window and whether its one digest is
 * delivered (a right used) or still owed (an open item), and when the next window opens.
 */
export function digestState(now: number, p: DailyDigestParams, delivered: ReadonlyMap<number, number>): StateSection[] {
  const today = digestDayOf(now, p);
  const at = delivered.get(today.opens);
  const next = nextWindowAfter(now, p);
  const window = `[${isoInstant(today.opens)}, ${isoInstant(today.closes)})`;
  const line =
    at !== undefined
      ? `today's digest (window ${window}): delivered at ${isoInstant(at)}`
      : now >= today.closes
        ? `today's digest (window ${window}): not delivered, window closed`
        : `today's digest (window ${window}): not delivered yet${openWindowAt(now, p) ? " (window open now)" : ""}`;
  const owed = at === undefined && now < today.closes;
  return [
    {
      title: "daily digest",
      lines: [line, `next window opens ${isoInstant(next.opens)}`],
      open: owed ? 1 : 0,
    },
  ];
}
