import { z } from "zod";
import { isoInstant, parseUtcInstant } from "../common/time.js";
import type { LedgerEvent } from "../ledger/events.js";
import {
  type AnyTask,
  type FeedbackCondition,
  type OracleFeedback,
  type Outcome,
  releasedAtOf,
  type TaskRun,
  type TaskRunContext,
} from "../tasks/task.js";
import { defineTool, ok, reject, type ToolDef } from "../tools/tool.js";

export const FEEDBACK_TOOL = "get_feedback";

/**
 * The oracle channel over the run's own ledger: outcomes whose `released_at` is in (since, now]
 * (DESIGN.md invariant 5: never before every fact of the payload is visible), in release order,
 * ties in ledger (settlement) order. An event without `released_at` (older ledgers) releases at `t`.
 */
export function oracleFeedbackOf(events: readonly LedgerEvent[], now: () => number): OracleFeedback {
  return {
    settled(since) {
      const t = now();
      const out: Outcome[] = [];
      for (const e of events) {
        if (e.type !== "outcome") continue;
        const released_at = releasedAtOf(e);
        if (released_at <= t && (since === null || released_at > since))
          out.push({ t: e.t, key: e.key, status: e.status, credit: e.credit, released_at, detail: e.detail });
      }
      // stable: equal release times keep ledger order
      return out.sort((a, b) => a.released_at! - b.released_at!);
    },
  };
}

const sinceArg = z
  .object({
    since: z
      .string()
      .optional()
      .describe("ISO date-time: only feedback released after it (default: everything released so far)"),
  })
  .strict();

/**
 * `get_feedback(since?)` for the `oracle` and `self` conditions; `none` gets no tool at all (the
 * blind condition has no channel). Free; reads only what has settled by now.
 */
export function feedbackTool(
  condition: Exclude<FeedbackCondition, "none">,
  task: AnyTask,
  run: TaskRun,
  ctx: TaskRunContext<unknown>,
): ToolDef {
  const parseSince = (s: string | undefined): number | null | string => {
    if (s === undefined) return null;
    const t = parseUtcInstant(s);
    return t !== null ? t : `since: not an ISO date-time: ${JSON.stringify(s)}`;
  };
  switch (condition) {
    case "oracle": {
      const channel = ctx.oracleFeedback;
      if (!channel) throw new Error("internal: oracle feedback tool without an oracle channel");
      const shape = run.feedback.oracle;
      return defineTool({
        name: FEEDBACK_TOOL,
        description:
          "Free: hindsight feedback on this run, the outcomes released after `since` (ISO) and up to now, each with " +
          "its settlement time, release time, key, status and credit. An outcome is released once it has settled " +
          "and every fact it reports is visible to you.",
        args: sinceArg,
        kind: "meta",
        run(a, c) {
          const since = parseSince(a.since);
          if (typeof since === "string") return reject(since);
          const items = channel.settled(since).flatMap((o) => {
            const payload = shape(o);
            return payload === null
              ? []
              : [{ settled_at: isoInstant(o.t), released_at: isoInstant(releasedAtOf(o)), ...payload }];
          });
          return ok({ now: isoInstant(c.now()), since: since === null ? null : isoInstant(since), items });
        },
      });
    }
    case "self": {
      const self = task.selfFeedback;
      const labels = run.feedback.self;
      if (!self || !labels) throw new Error(`internal: task ${task.id} defines no self feedback`);
      return defineTool({
        name: FEEDBACK_TOOL,
        description: `Free: self-computed feedback from data visible now (no hidden truth): ${self.description}`,
        args: sinceArg,
        kind: "meta",
        run(a, c) {
          const since = parseSince(a.since);
          if (typeof since === "string") return reject(since);
          return ok({
            now: isoInstant(c.now()),
            since: since === null ? null : isoInstant(since),
            items: labels(since),
          });
        },
      });
    }
  }
}
