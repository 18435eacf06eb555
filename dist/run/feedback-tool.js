import { z } from "zod";
import { isoInstant, parseUtcInstant } from "../kernel/day.js";
import {
  releasedAtOf
} from "../tasks/task.js";
import { defineTool, ok, reject } from "../tools/tool.js";
const FEEDBACK_TOOL = "get_feedback";
function oracleFeedbackOf(events, now) {
  return {
    settled(since) {
      const t = now();
      const out = [];
      for (const e of events) {
        if (e.type !== "outcome") continue;
        const released_at = releasedAtOf(e);
        if (released_at <= t && (since === null || released_at > since))
          out.push({ t: e.t, key: e.key, status: e.status, credit: e.credit, released_at, detail: e.detail });
      }
      return out.sort((a, b) => a.released_at - b.released_at);
    }
  };
}
const sinceArg = z.object({
  since: z.string().optional().describe("ISO date-time: only feedback released after it (default: everything released so far)")
}).strict();
function feedbackTool(condition, task, run, ctx) {
  const parseSince = (s) => {
    if (s === void 0) return null;
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
        description: "Free: hindsight feedback on this run, the outcomes released after `since` (ISO) and up to now, each with its settlement time, release time, key, status and credit. An outcome is released once it has settled and every fact it reports is visible to you.",
        args: sinceArg,
        kind: "meta",
        run(a, c) {
          const since = parseSince(a.since);
          if (typeof since === "string") return reject(since);
          const items = channel.settled(since).flatMap((o) => {
            const payload = shape(o);
            return payload === null ? [] : [{ settled_at: isoInstant(o.t), released_at: isoInstant(releasedAtOf(o)), ...payload }];
          });
          return ok({ now: isoInstant(c.now()), since: since === null ? null : isoInstant(since), items });
        }
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
            items: labels(since)
          });
        }
      });
    }
  }
}
export {
  FEEDBACK_TOOL,
  feedbackTool,
  oracleFeedbackOf
};
//# sourceMappingURL=feedback-tool.js.map
