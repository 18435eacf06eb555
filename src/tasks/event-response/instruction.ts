import { isoInstant } from "../../common/time.js";
import { describeRule, type TaskFile } from "./task-file.js";
import { EVENTS_PAGE_SIZE } from "./tools.js";

/** The agent's task text, rendered with the run's window, the task file's rules, prices and the budget. */
export function renderInstruction(o: {
  task: TaskFile;
  sim_start: number;
  sim_end: number;
  budget_usd: number;
}): string {
  const t = o.task;
  return [
    "# Respond to events of an event log",
    "",
    `You run from ${isoInstant(o.sim_start)} to ${isoInstant(o.sim_end)} (exclusive) over a replay of an event log. ` +
      "Events appear at their time; some kinds need a response within a deadline:",
    ...Object.entries(t.respond).map(([k, r]) => `- ${describeRule(k, r)}`),
    "Every other kind needs no response.",
    "",
    "## Scoring",
    "- Each event that needs a response is settled at its deadline: on time = a response in [event time, deadline) " +
      "(with the expected action where one is given above). Your score is the share of those events answered on time.",
    "- A response after the deadline still counts as late (not on time); a response with another action than the " +
      "expected one is a wrong action. Events whose deadline falls after the run ends are not scored.",
    "",
    "## Tools",
    `- \`list_events(since?, until?, kind?, offset?)\`: the events visible now, oldest first, ${EVENTS_PAGE_SIZE} a page, ` +
      `with the total; $${t.prices.list_events_usd} per call. \`get_event(id)\`: one event whole; $${t.prices.get_event_usd} per call.`,
    "- `respond(event_id, action)`: free, one accepted response per event; an unknown or not yet visible id, an event " +
      "of a kind that needs no response, or a second response is rejected (free).",
    "- `response_rules()` (free) repeats the rules above.",
    `- Your total budget is $${o.budget_usd.toFixed(2)} for everything (model calls included).`,
  ].join("\n");
}
