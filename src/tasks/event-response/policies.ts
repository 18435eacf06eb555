import { z } from "zod";
import { MINUTE_MS } from "../../common/time.js";
import { requireOracle, statelessPolicy } from "../reference-policy.js";
import type { PolicyApi, PolicyRun, ReferencePolicy } from "../task.js";
import { EventFacts } from "./event-facts.js";
import { EventResponseParams } from "./params.js";
import { ActionRule, expectedAction } from "./task-file.js";
import { LIST_EVENTS_TOOL, RESPOND_TOOL, RULES_TOOL } from "./tools.js";

/** The action a policy sends when the task file labels none for the event. */
export const DEFAULT_ACTION = "ack";
export const POLL_MS = 15 * MINUTE_MS;

const Rules = z.object({
  respond: z.record(z.string(), z.object({ deadline_ms: z.number(), action: ActionRule.nullable() })),
});
const Page = z.object({
  events: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      payload: z.record(z.string(), z.unknown()).optional(),
      needs_response: z.boolean(),
      response: z.unknown().nullable(),
    }),
  ),
  next_offset: z.number().nullable(),
});

/** The first multiple of `step` (from the epoch) strictly after `now`. */
export const nextMultiple = (now: number, step: number): number => (Math.floor(now / step) + 1) * step;

export const silentPolicy: ReferencePolicy = statelessPolicy({
  name: "silent",
  description: "Never calls a tool (the floor: on_time_rate 0).",
  async act() {},
  nextWake: () => null,
  cron: [],
});

/**
 * The honest fixed-interval poller: every 15 minutes (on the quarter hours) it lists the events of
 * time ≥ its previous poll (the first poll: from its first wake), and responds to each that needs
 * a response and has none, with the action the rules (`response_rules`, i.e. the task file's labels,
 * part of the instruction) give for it, else `ack`. Only agent-visible tools.
 */
export const pollEvery15mPolicy: ReferencePolicy = {
  name: "poll-15m",
  description:
    "Every 15 minutes: list the events since the previous poll and respond to each that needs a response, with the " +
    "labelled action (response_rules), else `ack`.",
  cron: ["*/15 * * * *"],
  start(api: PolicyApi): PolicyRun {
    let rules: z.infer<typeof Rules> | null = null;
    let cursor: number | null = null;
    const done = new Set<string>();
    return {
      async act() {
        const now = api.now();
        if (rules === null) {
          const r = await api.call(RULES_TOOL, {});
          if (!r.ok) throw new Error(`response_rules failed: ${r.error}`);
          rules = Rules.parse(r.value);
        }
        const since = cursor ?? now;
        let offset: number | null = 0;
        while (offset !== null) {
          const r = await api.call(LIST_EVENTS_TOOL, { since, offset });
          if (!r.ok) return;
          const page = Page.parse(r.value);
          for (const e of page.events) {
            if (!e.needs_response || e.response !== null || done.has(e.id)) continue;
            const rule = rules.respond[e.kind];
            const action = expectedAction(rule?.action ?? null, e.payload ?? {}) ?? DEFAULT_ACTION;
            done.add(e.id);
            await api.call(RESPOND_TOOL, { event_id: e.id, action });
          }
          offset = page.next_offset;
        }
        cursor = now;
      },
      nextWake: (now) => nextMultiple(now, POLL_MS),
    };
  },
};

/**
 * Oracle (tests and calibration only): reads the untouched world's events and wakes the instant each
 * event needing a response becomes visible, responding with its expected action (else `ack`).
 */
export const oraclePolicy: ReferencePolicy = {
  name: "oracle",
  oracle: true,
  description: "Reads the untouched event log: responds to every event needing a response the instant it is visible.",
  cron: [],
  start(api, env): PolicyRun {
    const o = requireOracle("oracle", env);
    const task = EventResponseParams.parse(o.params).task;
    const events = new EventFacts(o.world.db)
      .ofKinds(Object.keys(task.respond), Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
      .sort((a, b) => a.visible_at - b.visible_at || (a.id < b.id ? -1 : 1));
    let from: number | null = null;
    let next = 0;
    return {
      async act() {
        const now = api.now();
        from ??= now;
        while (next < events.length && events[next]!.visible_at <= now) {
          const e = events[next++]!;
          if (e.t < from) continue;
          const action = expectedAction(task.respond[e.kind]!.action, e.payload) ?? DEFAULT_ACTION;
          await api.call(RESPOND_TOOL, { event_id: e.id, action });
        }
      },
      nextWake: (now) => {
        // events are sorted by visible_at: the first one visible strictly after now (binary search)
        let lo = 0;
        let hi = events.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (events[mid]!.visible_at > now) hi = mid;
          else lo = mid + 1;
        }
        return events[lo]?.visible_at ?? null;
      },
    };
  },
};

export const eventResponsePolicies: ReferencePolicy[] = [silentPolicy, pollEvery15mPolicy, oraclePolicy];
