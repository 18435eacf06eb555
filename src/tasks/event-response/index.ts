import { isoInstant, utcDay } from "../../common/time.js";
import type { AsOfView } from "../../world/as-of-view.js";
import type { EventRow } from "../../world/types.js";
import { defineTask, type Episode, type Observation, type StateSection, type TaskRunContext } from "../task.js";
import { eventResponseExampleWatcher } from "./example-watcher.js";
import { renderInstruction } from "./instruction.js";
import { EventResponseParams } from "./params.js";
import { eventResponsePolicies } from "./policies.js";
import { EVENT_RESPONSE_SCORER_VERSION, EventResponseScorer } from "./scorer.js";
import type { TaskFile } from "./task-file.js";
import { dueOf, eventTools, type ResponseBook } from "./tools.js";

export const EVENT_RESPONSE_EPISODES: Episode[] = [
  {
    name: "example-oncall-3d",
    sim_start: utcDay("2026-03-02"),
    sim_end: utcDay("2026-03-05"),
    world: { kind: "synth" },
    description:
      "The window of the shipped example log (examples/event-log/, 2026-03-02 → 03-04). event-response always needs " +
      "--world (an imported event log); for another log set sim_start/sim_end in the run config to its window.",
  },
];

/** Every visible event of `kind` with t ≥ since (paged through the as-of view). */
function visibleSince(view: AsOfView, kind: string, since: number): EventRow[] {
  const out: EventRow[] = [];
  for (let offset = 0; ; ) {
    const page = view.events.list({ since, kind, offset, limit: 1000 });
    out.push(...page.events);
    offset += page.events.length;
    if (page.events.length === 0 || offset >= page.total) return out;
  }
}

/** Open events (visible now, needing a response, none accepted, deadline not passed), by deadline. */
function openEvents(view: AsOfView, task: TaskFile, book: ResponseBook): { e: EventRow; due: number }[] {
  const now = view.now();
  const out: { e: EventRow; due: number }[] = [];
  for (const [kind, r] of Object.entries(task.respond))
    for (const e of visibleSince(view, kind, now - r.deadline_ms)) {
      const due = dueOf(task, e)!;
      if (due > now && !book.has(e.id)) out.push({ e, due });
    }
  return out.sort((a, b) => a.due - b.due || (a.e.id < b.e.id ? -1 : 1));
}

function checkRun(ctx: TaskRunContext<EventResponseParams>): void {
  const m = ctx.world.manifest;
  if ((m.streams.event ?? 0) === 0)
    throw new Error(
      `event-response needs a world with an event stream (an imported event log); the world ${JSON.stringify(m.name)} has ` +
        "none. Import one with `relive data import --events LOG.jsonl --time-field F --kind-field K -o DIR` and run " +
        "with `--world DIR -p task_file=TASK.yaml`",
    );
  if (ctx.sim_end <= m.window.start || ctx.sim_start > m.window.end)
    throw new Error(
      `event-response: the run window [${isoInstant(ctx.sim_start)}, ${isoInstant(ctx.sim_end)}) does not overlap the event ` +
        `log's window [${isoInstant(m.window.start)}, ${isoInstant(m.window.end)}]; set sim_start and sim_end in the run ` +
        "config to the log's window",
    );
  const b = ctx.params.task.budget_usd;
  if (b !== undefined && b !== ctx.budget_usd)
    throw new Error(
      `event-response: the task file ${ctx.params.task_file} sets budget_usd ${b} but the run's budget is $${ctx.budget_usd}; ` +
        `pass --budget ${b} (or budget_usd: ${b} in the run config)`,
    );
}

export const eventResponseTask = defineTask<EventResponseParams>({
  id: "event-response",
  version: "1",
  scorer_version: EVENT_RESPONSE_SCORER_VERSION,
  title: "Event response (your own event log)",
  axes: { time_sensitivity: "high (deadline)", reasoning: "low", recurrence: "event" },
  params: EventResponseParams,
  episodes: EVENT_RESPONSE_EPISODES,
  defaultEpisode: "example-oncall-3d",
  budget_usd: 20,
  baseSchedule: "*/15 * * * *",
  exampleWatcher: eventResponseExampleWatcher,
  streams: ["event"],
  open(ctx) {
    checkRun(ctx);
    const task = ctx.params.task;
    const book: ResponseBook = new Map();
    return {
      instruction: () =>
        renderInstruction({ task, sim_start: ctx.sim_start, sim_end: ctx.sim_end, budget_usd: ctx.budget_usd }),
      tools: () => eventTools(ctx.view, task, book),
      deadlines: (view, until) =>
        openEvents(view, task, book)
          .map((x) => x.due)
          .filter((d) => d < until),
      state: (): StateSection[] => [
        {
          title: "events awaiting a response",
          lines: openEvents(ctx.view, task, book).map(
            (x) => `${x.e.id} (${x.e.kind} at ${isoInstant(x.e.t)}): due ${isoInstant(x.due)}`,
          ),
        },
      ],
      observations: (since, now): Observation[] =>
        ctx.view.events.arrivals(since, now).map((a) => ({
          t: a.visible_at,
          kind: a.kind,
          id: a.id,
          summary: `${a.kind} at ${isoInstant(a.t)}${task.respond[a.kind] ? " (needs a response)" : ""}`,
        })),
    };
  },
  createScorer: (ctx) => new EventResponseScorer(ctx),
  referencePolicies: eventResponsePolicies,
  metrics: {
    primary: "on_time_rate",
    direction: "higher",
    secondary: [
      "needing_response",
      "ok",
      "wrong_action",
      "late",
      "miss",
      "missed_deadlines",
      "noise",
      "responses",
      "responses_unscored",
      "responds_rejected",
      "commitments_ignored",
      "reaction_h_p50",
      "reaction_h_p90",
      "reaction_h_max",
    ],
  },
});
