import { createHash } from "node:crypto";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { formatDuration, MINUTE_MS, parseDurationMs } from "../../common/time.js";

export const DEFAULT_LIST_EVENTS_USD = 0.00024;
export const DEFAULT_GET_EVENT_USD = 0.00024;

/**
 * A duration of the task file: one or more `<integer><unit>` parts, units ms, s, m, h, d (`30m`,
 * `1h30m`, `90s`), or a bare integer of minutes.
 */
const minutesOrDuration = (v: string | number): number | null => {
  const minutes = typeof v === "number" ? v : /^\s*\d+\s*$/.test(v) ? Number(v) : null;
  if (minutes !== null) return Number.isInteger(minutes) && minutes > 0 ? minutes * MINUTE_MS : null;
  return typeof v === "string" ? parseDurationMs(v) : null;
};

const Duration = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const ms = minutesOrDuration(v);
  if (ms === null) {
    ctx.addIssue({ code: "custom", message: `not a duration: ${JSON.stringify(v)} (use e.g. 30m, 1h, 90s, 1h30m)` });
    return z.NEVER;
  }
  return ms;
});
const Action = z.string().min(1).max(128);

/** The expected action of a kind: one action, or one by the value of a payload field (with a default). */
export const ActionRule = z.union([
  Action,
  z.object({ field: z.string().min(1), values: z.record(z.string(), Action), default: Action.optional() }).strict(),
]);
export type ActionRule = z.infer<typeof ActionRule>;

/** A kind's rule: `alert: 30m` (a deadline alone) or `{deadline, action?}`. */
const KindRule = z.preprocess(
  (v) => (typeof v === "string" || typeof v === "number" ? { deadline: v } : v),
  z
    .object({ deadline: Duration, action: ActionRule.optional() })
    .strict()
    .transform((r) => ({ deadline_ms: r.deadline, action: (r.action ?? null) as ActionRule | null })),
);

/**
 * The task file beside an event log (YAML or JSON): which kinds need a response and by when (e.g.
 * `alert: 30m`), optional expected actions (labels: part of the instruction, so agent-visible),
 * tool prices and the budget.
 */
export const TaskFileSchema = z
  .object({
    respond: z.record(z.string().min(1), KindRule).refine((r) => Object.keys(r).length > 0, {
      message: "name at least one kind that needs a response",
    }),
    prices: z
      .object({
        list_events_usd: z.number().nonnegative().default(DEFAULT_LIST_EVENTS_USD),
        get_event_usd: z.number().nonnegative().default(DEFAULT_GET_EVENT_USD),
      })
      .strict()
      .default({ list_events_usd: DEFAULT_LIST_EVENTS_USD, get_event_usd: DEFAULT_GET_EVENT_USD }),
    budget_usd: z.number().positive().optional(),
  })
  .strict();
export type TaskFile = z.output<typeof TaskFileSchema>;
export type KindRule = TaskFile["respond"][string];

export const sha256Text = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

/** Parses a task file's text; throws an Error naming the field on bad input. */
export function parseTaskFile(text: string, where: string): TaskFile {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (e) {
    throw new Error(`${where}: not valid YAML/JSON: ${(e as Error).message}`);
  }
  const p = TaskFileSchema.safeParse(raw);
  if (!p.success) {
    const i = p.error.issues[0];
    throw new Error(`${where}: ${i?.path.length ? `${i.path.map(String).join(".")}: ` : ""}${i?.message}`);
  }
  return p.data;
}

/** The expected action of an event under a rule (null: any action is right). */
export function expectedAction(rule: ActionRule | null, payload: Record<string, unknown>): string | null {
  if (rule === null) return null;
  if (typeof rule === "string") return rule;
  const v = payload[rule.field];
  const key = typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : null;
  return (key !== null ? rule.values[key] : undefined) ?? rule.default ?? null;
}

/** One line per kind for the instruction and the rules tool. */
export function describeRule(kind: string, r: KindRule): string {
  const base = `\`${kind}\`: respond within ${formatDuration(r.deadline_ms)} of the event's time`;
  const a = r.action;
  if (a === null) return `${base} (any action)`;
  if (typeof a === "string") return `${base} with action \`${a}\``;
  const vals = Object.entries(a.values)
    .map(([v, act]) => `${a.field} = ${v} → \`${act}\``)
    .join(", ");
  return `${base}; action by payload field \`${a.field}\`: ${vals}${a.default ? `, otherwise \`${a.default}\`` : ", otherwise any action"}`;
}
