import { z } from "zod";
import { isoInstant } from "../common/time.js";
import { compileCron } from "../kernel/cron.js";
import type { Kernel, TriggerInfo, Wake } from "../kernel/kernel.js";
import { defineTool, ok, reject, type ToolResult } from "../tools/tool.js";
import { type GateLimits, type GateOutcome, MAX_GATE_SOURCE_CHARS, runGate, validateGate } from "./cron-gate.js";
import { type AgentTrigger, agentWakeOf, type IntentSlot, isHarnessTriggerId, parseInstantArg } from "./trigger.js";

export const DONE_TOOL = "done";
export const BASE_SCHEDULE_ID = "base";
/** bounded episodes: at most this many tool calls per firing */
export const CRON_EPISODE_TOOL_CALLS = 30;
export const MAX_PENDING_SCHEDULES = 200;
export const SCHEDULE_ID = /^[a-z0-9_-]{1,64}$/;

export interface CronTriggerOptions {
  kernel: Kernel;
  actorId: string;
  slot: IntentSlot;
  /** the task's base schedule (croner syntax, UTC) */
  baseSchedule: string;
  /** readonly: the agent cannot update or delete "base"; editable: it is an ordinary default entry */
  base: "readonly" | "editable";
  /** entries installed beside the base at install (a scripted policy's own schedules) */
  extraSchedules?: readonly { id: string; cron_expr: string; note?: string; when?: string }[];
  /** a `when` gate on the base schedule (config `agent.cron_gate.program`) */
  baseWhen?: string;
  /** what `when` gates run with; absent: `when` is refused (no data tools to read) */
  gate?: CronGateOptions;
}

export interface CronGateOptions extends GateLimits {
  /** names of the task's data tools (envkit.tools.<name>) */
  dataTools: () => string[];
  /** runs one data tool for the gate exactly like the agent's own call (billed, rate-limited, ledgered) */
  callTool: (name: string, args: unknown) => Promise<ToolResult>;
  /** ledgers a note: `cron_gate_wake`, `cron_gate_skip`, `cron_gate_error` (failed open), `sandbox_release_failed` */
  note: (kind: string, message: string) => void;
}

/** The ledger note of one gate run: `<id>: <decision or error>; sandbox: <polls> polls, <n> data tool calls`. */
export function gateNote(id: string, g: GateOutcome): { kind: string; message: string } {
  const use = `sandbox: ${g.polls} polls, ${g.toolCalls} data tool call${g.toolCalls === 1 ? "" : "s"}`;
  if (g.error !== undefined)
    return { kind: "cron_gate_error", message: `${id}: failed open (wake): ${g.error}; ${use}` };
  const why = g.reason !== undefined ? ` (${g.reason})` : "";
  return {
    kind: g.decision === "skip" ? "cron_gate_skip" : "cron_gate_wake",
    message: `${id}: ${g.decision}${why}; ${use}`,
  };
}

const Id = z.string().describe("schedule id: 1-64 characters of a-z, 0-9, _ and -");
const When = {
  at: z
    .union([z.string(), z.number()])
    .optional()
    .describe("one-shot: ISO-8601 or epoch ms, after now (removed after it fires)"),
  cron_expr: z
    .string()
    .optional()
    .describe('recurring: a cron expression in UTC, e.g. "30 12 * * *" (minute hour day month weekday)'),
  note: z.string().max(200).optional().describe("what this entry is for (shown by list_schedules)"),
  when: z
    .string()
    .max(MAX_GATE_SOURCE_CHARS)
    .optional()
    .describe(
      "optional gate: JavaScript run in the watcher sandbox at each firing, before you wake; it reads data tools " +
        '(await envkit.tools.<name>(args), billed like yours; envkit.now()) and decides with envkit.handover("wake") or ' +
        'envkit.handover("skip"); no waiting, no workspace, no commits. A crash or the step budget wakes you. ' +
        'update_schedule with when: "" removes it',
    ),
};

type Timing = { kind: "once"; at: number } | { kind: "cron"; expr: string };

/**
 * The cron trigger: every firing (the task's base schedule, or the agent's own entries) runs a bounded
 * episode of at most 30 tool calls that `done(summary)` ends; the transcript persists across firings.
 * Schedule tools edit the kernel's trigger table of this agent directly (ids `^[a-z0-9_-]{1,64}$`,
 * at most 200 pending entries; one-shots disappear after firing).
 */
export function cronTrigger(o: CronTriggerOptions): AgentTrigger {
  const { kernel, actorId } = o;
  const readOnlyBase = o.base === "readonly";
  /** schedule id → its `when` gate source */
  const gates = new Map<string, string>();
  const gateLimits: GateLimits = {
    ...(o.gate?.stepBudget !== undefined ? { stepBudget: o.gate.stepBudget } : {}),
    ...(o.gate?.memoryLimitBytes !== undefined ? { memoryLimitBytes: o.gate.memoryLimitBytes } : {}),
  };
  /** null: fine; else why `when` is refused */
  const checkWhen = async (id: string, when: string, now: number): Promise<string | null> => {
    if (o.gate === undefined) return "`when` gates are not available in this run";
    const v = await validateGate({
      source: when,
      path: `when:${id}`,
      now,
      toolNames: o.gate.dataTools(),
      ...gateLimits,
    });
    return v.ok ? null : `the when gate does not validate: ${v.error}`;
  };
  const visible = () => kernel.listTriggers(actorId).filter((t) => !isHarnessTriggerId(t.id));
  const pending = () => visible().filter((t) => t.next !== null).length;
  const view = (t: TriggerInfo) => ({
    id: t.id,
    kind: t.kind,
    ...(t.at !== undefined ? { at: isoInstant(t.at) } : {}),
    ...(t.cron !== undefined ? { cron_expr: t.cron } : {}),
    next: t.next === null ? null : isoInstant(t.next),
    ...(t.note !== undefined ? { note: t.note } : {}),
    ...(t.id === BASE_SCHEDULE_ID && readOnlyBase ? { read_only: true } : {}),
    ...(gates.has(t.id) ? { when: gates.get(t.id) as string } : {}),
  });
  const timingOf = (
    a: { at?: string | number | undefined; cron_expr?: string | undefined },
    now: number,
  ): Timing | string => {
    if ((a.at === undefined) === (a.cron_expr === undefined))
      return "give exactly one of `at` (one-shot) or `cron_expr` (recurring)";
    if (a.at !== undefined) {
      const t = parseInstantArg(a.at);
      if (t === null)
        return `cannot read at=${JSON.stringify(a.at)}; use ISO-8601 like "2026-03-01T12:30:00Z" or epoch ms`;
      if (!(t > now)) return `at ${isoInstant(t)} is not after now (${isoInstant(now)})`;
      return { kind: "once", at: t };
    }
    try {
      compileCron(a.cron_expr as string);
    } catch (err) {
      return `${(err as Error).message}; use five fields "minute hour day month weekday" in UTC`;
    }
    return { kind: "cron", expr: a.cron_expr as string };
  };
  const install = (id: string, timing: Timing, note: string | undefined, when: string | undefined) => {
    if (timing.kind === "once") kernel.addOnce(actorId, id, timing.at, note);
    else kernel.addCron(actorId, id, timing.expr, note);
    if (when !== undefined && when !== "") gates.set(id, when);
    else gates.delete(id);
  };
  const badId = (id: string) =>
    SCHEDULE_ID.test(id) ? null : `invalid schedule id ${JSON.stringify(id)}: use 1-64 characters of a-z, 0-9, _ and -`;
  const find = (id: string) => visible().find((t) => t.id === id);
  const guardBase = (id: string, what: string) =>
    id === BASE_SCHEDULE_ID && readOnlyBase ? `${what} rejected: "base" is the task's read-only base schedule` : null;

  const done = defineTool({
    name: DONE_TOOL,
    description: `Free. End this episode (at most ${CRON_EPISODE_TOOL_CALLS} tool calls per firing); you wake at the next scheduled firing.`,
    args: z.object({ summary: z.string().max(2000).optional().describe("what you did, for your own record") }).strict(),
    kind: "meta",
    run(_a) {
      o.slot.set({ kind: "next_trigger", why: { kind: "tool", tool: DONE_TOOL } });
      return ok({ done: true });
    },
  });

  const list = defineTool({
    name: "list_schedules",
    description: "Free. Your schedule entries (the task's base schedule and your own), with their next firing.",
    args: z.object({}).strict(),
    kind: "meta",
    run: () => ok({ schedules: visible().map(view), pending: pending(), max_pending: MAX_PENDING_SCHEDULES }),
  });

  const create = defineTool({
    name: "create_schedule",
    description:
      `Free. Add a schedule entry: \`at\` (one-shot) or \`cron_expr\` (recurring, UTC). It fires strictly after now; ` +
      `entries never fire while you are awake. At most ${MAX_PENDING_SCHEDULES} pending entries.`,
    args: z.object({ id: Id, ...When }).strict(),
    kind: "meta",
    async run(a, ctx) {
      const bad = badId(a.id);
      if (bad) return reject(bad);
      if (find(a.id)) return reject(`schedule "${a.id}" exists; use update_schedule or delete_schedule`);
      const timing = timingOf(a, ctx.now());
      if (typeof timing === "string") return reject(`create_schedule rejected: ${timing}`);
      if (pending() >= MAX_PENDING_SCHEDULES)
        return reject(
          `create_schedule rejected: ${MAX_PENDING_SCHEDULES} entries are pending (the maximum); delete some first`,
        );
      if (a.when !== undefined) {
        const bad = await checkWhen(a.id, a.when, ctx.now());
        if (bad) return reject(`create_schedule rejected: ${bad}`);
      }
      install(a.id, timing, a.note, a.when);
      return ok({ created: view(find(a.id) as TriggerInfo) });
    },
  });

  const update = defineTool({
    name: "update_schedule",
    description:
      "Free. Replace an entry's timing (`at` or `cron_expr`), note and/or `when` gate; omitted fields keep the current ones.",
    args: z.object({ id: Id, ...When }).strict(),
    kind: "meta",
    async run(a, ctx) {
      const bad = badId(a.id) ?? guardBase(a.id, "update_schedule");
      if (bad) return reject(bad);
      const cur = find(a.id);
      if (!cur) return reject(`no schedule "${a.id}"; see list_schedules`);
      let timing: Timing | string;
      if (a.at === undefined && a.cron_expr === undefined) {
        if (cur.kind === "once") timing = { kind: "once", at: cur.at as number };
        else timing = { kind: "cron", expr: cur.cron as string };
      } else timing = timingOf(a, ctx.now());
      if (typeof timing === "string") return reject(`update_schedule rejected: ${timing}`);
      if (a.when !== undefined && a.when !== "") {
        const badWhen = await checkWhen(a.id, a.when, ctx.now());
        if (badWhen) return reject(`update_schedule rejected: ${badWhen}`);
      }
      const when = a.when ?? gates.get(a.id);
      kernel.removeTrigger(actorId, a.id);
      install(a.id, timing, a.note ?? cur.note, when);
      return ok({ updated: view(find(a.id) as TriggerInfo) });
    },
  });

  const del = defineTool({
    name: "delete_schedule",
    description: "Free. Delete one of your schedule entries.",
    args: z.object({ id: Id }).strict(),
    kind: "meta",
    run(a) {
      const bad = badId(a.id) ?? guardBase(a.id, "delete_schedule");
      if (bad) return reject(bad);
      if (!find(a.id)) return reject(`no schedule "${a.id}"; see list_schedules`);
      kernel.removeTrigger(actorId, a.id);
      gates.delete(a.id);
      return ok({ deleted: a.id });
    },
  });

  /** runs the gate of the entry that fired; true: wake the agent (with the wake's detail) */
  const gateOf = async (w: Wake): Promise<{ wake: boolean; detail?: string }> => {
    if ((w.reason !== "cron" && w.reason !== "trigger") || w.triggerId === undefined) return { wake: true };
    const source = gates.get(w.triggerId);
    if (source === undefined || o.gate === undefined) return { wake: true };
    const g = o.gate;
    if (!visible().some((t) => t.id === w.triggerId && t.next !== null)) gates.delete(w.triggerId); // a fired one-shot
    const wrappers: Record<string, (args: unknown) => Promise<ToolResult>> = {};
    for (const name of g.dataTools()) wrappers[name] = (args) => g.callTool(name, args);
    const out = await runGate({
      source,
      path: `when:${w.triggerId}`,
      now: w.at,
      wrappers,
      ...gateLimits,
      onReleaseFailure: (m) => g.note("sandbox_release_failed", `when:${w.triggerId}: ${m}`),
    });
    const n = gateNote(w.triggerId, out);
    g.note(n.kind, n.message);
    if (out.decision === "skip") return { wake: false };
    return { wake: true, detail: `when gate of "${w.triggerId}": ${n.message.slice(w.triggerId.length + 2)}` };
  };

  return {
    kind: "cron",
    tools: [done, list, create, update, del],
    waitToolName: DONE_TOOL,
    maxToolCallsPerWake: CRON_EPISODE_TOOL_CALLS,
    howYouRun: [
      "## How you run",
      "You run on a schedule. Simulated time stands still while you work; each firing of a schedule entry",
      `wakes you for one episode of at most ${CRON_EPISODE_TOOL_CALLS} tool calls, which \`done(summary)\` ends. A line`,
      '"(woke at <time> for <reason>)" opens each episode; your earlier episodes stay in the conversation.',
      `The task's base schedule is entry "base" (cron "${o.baseSchedule}", UTC${readOnlyBase ? ", read-only" : ", editable"}).`,
      "Add your own entries with create_schedule (one-shot `at` or recurring `cron_expr`), and inspect or change",
      "them with list_schedules, update_schedule and delete_schedule. An entry may carry a `when` gate: a small",
      'JavaScript check run at each firing before you wake (it reads data tools; envkit.handover("skip") lets the',
      'firing pass without waking you, "wake" wakes you; a failing gate wakes you with its error). With nothing pending you wake at the next',
      "midnight UTC. If you end a turn without calling a tool you are nudged once, then the episode ends.",
      "`finish(summary)` ends your participation for good.",
    ].join("\n"),
    state: () => [
      {
        title: "pending schedules (yours and the base schedule)",
        open: 0,
        lines: visible()
          .filter((t) => t.next !== null)
          .map((t) => {
            const v = view(t);
            const when = v.cron_expr !== undefined ? `cron "${v.cron_expr}"` : `once at ${v.at}`;
            const gated = gates.has(t.id) ? ", when-gated" : "";
            return `${v.id}: ${when}, next ${v.next}${gated}${v.note !== undefined ? ` (${v.note})` : ""}`;
          }),
      },
    ],
    install() {
      kernel.addCron(
        actorId,
        BASE_SCHEDULE_ID,
        o.baseSchedule,
        readOnlyBase ? "task base schedule (read-only)" : "task base schedule (editable default)",
      );
      if (o.baseWhen !== undefined) gates.set(BASE_SCHEDULE_ID, o.baseWhen);
      for (const e of o.extraSchedules ?? []) {
        const bad = badId(e.id);
        if (bad) throw new Error(`cron trigger: ${bad}`);
        kernel.addCron(actorId, e.id, e.cron_expr, e.note);
        if (e.when !== undefined) gates.set(e.id, e.when);
      }
    },
    async wait(self, intent) {
      switch (intent.kind) {
        case "next_trigger":
          for (;;) {
            const w = await self.waitForTrigger();
            const g = await gateOf(w);
            if (!g.wake) continue; // skipped: this firing passes, the agent stays asleep
            const aw = agentWakeOf(w);
            return g.detail !== undefined && aw.reason !== "end" ? { ...aw, detail: g.detail } : aw;
          }
        case "sleep":
        case "program":
          throw new Error(`the cron trigger cannot ${intent.kind}`);
        default: {
          const never: never = intent;
          throw new Error(`unknown intent ${JSON.stringify(never)}`);
        }
      }
    },
  };
}
