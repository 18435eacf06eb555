import { z } from "zod";
import { isoInstant } from "../../common/time.js";
import { defineTool, ok, reject, type ToolDef, type ToolResult } from "../../tools/tool.js";
import { type AsOfView, NotVisibleError } from "../../world/as-of-view.js";
import type { EventRow } from "../../world/types.js";
import { parseTimeArg } from "../reddit-tools.js";
import type { TaskFile } from "./task-file.js";

export const LIST_EVENTS_TOOL = "list_events";
export const GET_EVENT_TOOL = "get_event";
export const RESPOND_TOOL = "respond";
export const RULES_TOOL = "response_rules";
export const EVENTS_PAGE_SIZE = 50;
/** payloads longer than this (JSON characters) are cut to a preview in list pages (`get_event` gives them whole) */
export const LIST_PAYLOAD_CHARS = 2000;

/** One run's accepted responses (tool state: a resumed run rebuilds it by re-running the episode). */
export type ResponseBook = Map<string, { t: number; action: string }>;

/** The deadline of an event under the task file (null: its kind needs no response). */
export function dueOf(task: TaskFile, e: { kind: string; t: number }): number | null {
  const r = task.respond[e.kind];
  return r === undefined ? null : e.t + r.deadline_ms;
}

const TimeArg = z
  .union([z.number(), z.string()])
  .describe('epoch milliseconds or ISO-8601 ("2026-03-02T10:00:00Z"; a missing zone is UTC)');

function visibleEvent(view: AsOfView, id: string): EventRow | ToolResult {
  try {
    return view.events.get(id);
  } catch (e) {
    if (e instanceof NotVisibleError) return reject(e.message);
    throw e;
  }
}

/** The event-response tools: `list_events`, `get_event` (priced), `respond` (free commit), `response_rules` (free). */
export function eventTools(view: AsOfView, task: TaskFile, book: ResponseBook): ToolDef[] {
  const shape = (e: EventRow, full: boolean) => {
    const due = dueOf(task, e);
    const r = book.get(e.id);
    const json = JSON.stringify(e.payload);
    const cut = !full && json.length > LIST_PAYLOAD_CHARS;
    return {
      id: e.id,
      kind: e.kind,
      t: isoInstant(e.t),
      ...(cut
        ? { payload_preview: json.slice(0, LIST_PAYLOAD_CHARS), payload_truncated: true }
        : { payload: e.payload }),
      needs_response: due !== null,
      due: due === null ? null : isoInstant(due),
      response: r ? { action: r.action, at: isoInstant(r.t) } : null,
    };
  };

  const list = defineTool({
    name: LIST_EVENTS_TOOL,
    description:
      `List the events visible now, oldest first, ${EVENTS_PAGE_SIZE} a page, with the total that match: since (inclusive) ` +
      `and until (exclusive) bound the event time; kind filters. Costs $${task.prices.list_events_usd} per call.`,
    args: z
      .object({
        since: TimeArg.optional().describe(
          'events at or after this time: epoch milliseconds or ISO-8601 ("2026-03-02T10:00:00Z"; a missing zone is UTC)',
        ),
        until: TimeArg.optional().describe(
          'events before this time: epoch milliseconds or ISO-8601 ("2026-03-02T10:00:00Z"; a missing zone is UTC)',
        ),
        kind: z.string().min(1).optional().describe("only events of this kind"),
        offset: z.number().int().nonnegative().optional().describe("skip this many matches (paging; default 0)"),
      })
      .strict(),
    kind: "data",
    domain: "data",
    price: () => task.prices.list_events_usd,
    run(a) {
      const since = a.since === undefined ? undefined : parseTimeArg("since", a.since);
      const until = a.until === undefined ? undefined : parseTimeArg("until", a.until);
      if (since && !since.ok) return reject(since.error);
      if (until && !until.ok) return reject(until.error);
      const offset = a.offset ?? 0;
      const page = view.events.list({
        ...(since ? { since: since.t } : {}),
        ...(until ? { until: until.t - 1 } : {}),
        ...(a.kind !== undefined ? { kind: a.kind } : {}),
        offset,
        limit: EVENTS_PAGE_SIZE,
      });
      const next = offset + page.events.length;
      return ok({
        now: isoInstant(view.now()),
        events: page.events.map((e) => shape(e, false)),
        total: page.total,
        offset,
        next_offset: next < page.total ? next : null,
      });
    },
  });

  const get = defineTool({
    name: GET_EVENT_TOOL,
    description: `One visible event by id, with its whole payload. Costs $${task.prices.get_event_usd} per call.`,
    args: z.object({ id: z.string().min(1).describe("the event's id (from list_events)") }).strict(),
    kind: "data",
    domain: "data",
    price: () => task.prices.get_event_usd,
    run(a) {
      const e = visibleEvent(view, a.id);
      return "ok" in e ? e : ok(shape(e, true));
    },
  });

  const respond = defineTool({
    name: RESPOND_TOOL,
    description:
      "Respond to an event that needs a response, with an action (free). One accepted response per event; rejected " +
      "(free, nothing used): an unknown or not yet visible id, an event of a kind that needs no response, a second response.",
    args: z
      .object({
        event_id: z.string().min(1).describe("the event's id (from list_events)"),
        action: z.string().min(1).max(128).describe("the action you take (see response_rules for the expected ones)"),
      })
      .strict(),
    kind: "commit",
    run(a, ctx) {
      const e = visibleEvent(view, a.event_id);
      if ("ok" in e) return e;
      const due = dueOf(task, e);
      if (due === null)
        return reject(`respond rejected: event ${a.event_id} is of kind "${e.kind}", which needs no response`);
      const prior = book.get(e.id);
      if (prior)
        return reject(`respond rejected: event ${a.event_id} already has a response (at ${isoInstant(prior.t)})`);
      const now = ctx.now();
      book.set(e.id, { t: now, action: a.action });
      return ok({
        accepted: true,
        event_id: e.id,
        action: a.action,
        responded_at: isoInstant(now),
        due: isoInstant(due),
        before_deadline: now < due,
      });
    },
  });

  const rules = defineTool({
    name: RULES_TOOL,
    description: "Free: the response rules of this task (kinds that need a response, deadlines, expected actions).",
    args: z.object({}).strict(),
    kind: "meta",
    run: () =>
      ok({
        respond: Object.fromEntries(
          Object.entries(task.respond).map(([k, r]) => [k, { deadline_ms: r.deadline_ms, action: r.action }]),
        ),
      }),
  });

  return [list, get, respond, rules];
}
