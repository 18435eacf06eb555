import { z } from "zod";
import { TRIGGER_KINDS } from "../common/trigger-kind.js";
import { LedgerEvent, type LedgerEventType } from "../ledger/events.js";
import { RUN_STATUSES } from "./run-summary.js";

/** Every ledger event type, in the order of src/ledger/events.ts. */
export const EVENT_TYPES: readonly LedgerEventType[] = LedgerEvent.options.map((o) => o.shape.type.value);

/** Query values as strings; an empty value (an unfilled form field) counts as absent. */
const opt = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema.optional()) as unknown as z.ZodOptional<T>;

const lineNo = z
  .string()
  .regex(/^\d{1,12}$/, "expected a line number (a non-negative integer)")
  .transform(Number);

const limit = (max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, "expected a positive integer")
    .transform(Number)
    .pipe(z.number().int().min(1, "must be at least 1").max(max, `must be at most ${max}`));

/** A simulated time: epoch milliseconds, or an ISO 8601 date-time (UTC when no zone is given). */
export const simTime = z.string().transform((v, ctx) => {
  const s = v.trim();
  if (/^-?\d{1,16}$/.test(s)) return Number(s);
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?)?(Z|[+-]\d{2}:\d{2})?$/;
  if (iso.test(s)) {
    const hasZone = /(Z|[+-]\d{2}:\d{2})$/.test(s) && s.includes("T");
    const t = Date.parse(s.includes("T") ? (hasZone ? s : `${s}Z`) : `${s}T00:00:00Z`);
    if (Number.isFinite(t)) return t;
  }
  ctx.addIssue({
    code: "custom",
    message: `expected a simulated time as ISO 8601 (e.g. 2026-03-05T12:00:00Z) or epoch ms, got ${JSON.stringify(v)}`,
  });
  return z.NEVER;
});

const eventTypes = z.string().transform((v, ctx) => {
  const parts = v
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const bad = parts.filter((p) => !(EVENT_TYPES as readonly string[]).includes(p));
  if (bad.length > 0) {
    ctx.addIssue({
      code: "custom",
      message: `unknown event type ${bad.map((b) => JSON.stringify(b)).join(", ")}; known: ${EVENT_TYPES.join(", ")}`,
    });
    return z.NEVER;
  }
  return [...new Set(parts)] as LedgerEventType[];
});

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

export const RUN_SORT_KEYS = [
  "task",
  "model",
  "trigger",
  "seed",
  "status",
  "primary",
  "spend",
  "events",
  "id",
] as const;

export const RunsQuery = z.strictObject({
  task: opt(text(200)),
  model: opt(text(200)),
  trigger: opt(z.enum(TRIGGER_KINDS)),
  status: opt(z.enum(RUN_STATUSES)),
  q: opt(text(200)),
  sort: opt(z.enum(RUN_SORT_KEYS)),
  order: opt(z.enum(["asc", "desc"])),
});
export type RunsQuery = z.infer<typeof RunsQuery>;

export const DEFAULT_LEDGER_LIMIT = 100;
export const MAX_LEDGER_LIMIT = 1000;

export const LedgerQuery = z
  .strictObject({
    cursor: opt(lineNo),
    before: opt(lineNo),
    at: opt(simTime),
    limit: opt(limit(MAX_LEDGER_LIMIT)),
    type: opt(eventTypes),
    actor: opt(text(200)),
  })
  .refine((q) => [q.cursor, q.before, q.at].filter((v) => v !== undefined).length <= 1, {
    message: "give at most one of cursor, before and at",
    path: ["cursor"],
  });
export type LedgerQuery = z.infer<typeof LedgerQuery>;

export const DEFAULT_TRANSCRIPT_LIMIT = 50;
export const MAX_TRANSCRIPT_LIMIT = 500;

export const TranscriptQuery = z.strictObject({
  file: opt(lineNo),
  cursor: opt(lineNo),
  limit: opt(limit(MAX_TRANSCRIPT_LIMIT)),
});

export const NoQuery = z.strictObject({});

/** One line per problem: `name: message`, naming unknown parameters too. */
export function queryError(err: z.ZodError): string {
  return err.issues
    .map((i) => {
      if (i.code === "unrecognized_keys")
        return `unknown query parameter${i.keys.length > 1 ? "s" : ""} ${i.keys.map((k) => JSON.stringify(k)).join(", ")}`;
      return `${i.path.length > 0 ? i.path.join(".") : "query"}: ${i.message}`;
    })
    .join("; ");
}
