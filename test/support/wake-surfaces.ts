import type { PolicyApi, TaskRun } from "../../src/tasks/task.js";

/**
 * What an agent is shown at each wake of a driven policy, for the different-futures tests: the
 * state block, the observations since the previous wake, the wake note, self labels and the oracle
 * feedback channel, one JSON string per wake. `feedbackItems` counts the items feedback held at the
 * last wake (so a comparison of feedback is not vacuous).
 */
export function wakeSurfaceRecorder(from: number) {
  const wakes: string[] = [];
  let prev = from;
  const rec = {
    wakes,
    feedbackItems: 0,
    onWake: async (api: PolicyApi, run: TaskRun) => {
      const now = api.now();
      const fb = await api.call("get_feedback", {});
      if (fb.ok) rec.feedbackItems = (JSON.stringify(fb.value).match(/"key":/g) ?? []).length;
      wakes.push(
        JSON.stringify({
          now,
          state: run.state(),
          observations: run.observations(prev, now),
          note: run.wakeNote({ at: now, reason: "sleep" }),
          self: run.feedback.self ? run.feedback.self(prev === from ? null : prev) : null,
          feedback: fb,
        }),
      );
      prev = now;
    },
  };
  return rec;
}
