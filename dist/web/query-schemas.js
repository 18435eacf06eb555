import { z } from "zod";
import { LedgerEvent } from "../ledger/events.js";
import { RUN_STATUSES } from "./run-summary.js";
const EVENT_TYPES = LedgerEvent.options.map((o) => o.shape.type.value);
const opt = (schema) => z.preprocess((v) => v === "" ? void 0 : v, schema.optional());
const lineNo = z.string().regex(/^\d{1,12}$/, "expected a line number (a non-negative integer)").transform(Number);
const limit = (max) => z.string().regex(/^\d{1,6}$/, "expected a positive integer").transform(Number).pipe(z.number().int().min(1, "must be at least 1").max(max, `must be at most ${max}`));
const simTime = z.string().transform((v, ctx) => {
  const s = v.trim();
  if (/^-?\d{1,16}$/.test(s)) return Number(s);
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?)?(Z|[+-]\d{2}:\d{2})?$/;
  if (iso.test(s)) {
    const hasZone = /(Z|[+-]\d{2}:\d{2})$/.test(s) && s.includes("T");
    const t = Date.parse(s.includes("T") ? hasZone ? s : `${s}Z` : `${s}T00:00:00Z`);
    if (Number.isFinite(t)) return t;
  }
  ctx.addIssue({
    code: "custom",
    message: `expected a simulated time as ISO 8601 (e.g. 2026-03-05T12:00:00Z) or epoch ms, got ${JSON.stringify(v)}`
  });
  return z.NEVER;
});
const eventTypes = z.string().transform((v, ctx) => {
  const parts = v.split(",").map((p) => p.trim()).filter((p) => p !== "");
  const bad = parts.filter((p) => !EVENT_TYPES.includes(p));
  if (bad.length > 0) {
    ctx.addIssue({
      code: "custom",
      message: `unknown event type ${bad.map((b) => JSON.stringify(b)).join(", ")}; known: ${EVENT_TYPES.join(", ")}`
    });
    return z.NEVER;
  }
  return [...new Set(parts)];
});
const text = (max) => z.string().max(max, `must be at most ${max} characters`);
const RUN_SORT_KEYS = [
  "task",
  "model",
  "trigger",
  "seed",
  "status",
  "primary",
  "spend",
  "events",
  "id"
];
const RunsQuery = z.strictObject({
  task: opt(text(200)),
  model: opt(text(200)),
  trigger: opt(z.enum(["sleep", "watcher", "cron"])),
  status: opt(z.enum(RUN_STATUSES)),
  q: opt(text(200)),
  sort: opt(z.enum(RUN_SORT_KEYS)),
  order: opt(z.enum(["asc", "desc"]))
});
const DEFAULT_LEDGER_LIMIT = 100;
const MAX_LEDGER_LIMIT = 1e3;
const LedgerQuery = z.strictObject({
  cursor: opt(lineNo),
  before: opt(lineNo),
  at: opt(simTime),
  limit: opt(limit(MAX_LEDGER_LIMIT)),
  type: opt(eventTypes),
  actor: opt(text(200))
}).refine((q) => [q.cursor, q.before, q.at].filter((v) => v !== void 0).length <= 1, {
  message: "give at most one of cursor, before and at",
  path: ["cursor"]
});
const DEFAULT_TRANSCRIPT_LIMIT = 50;
const MAX_TRANSCRIPT_LIMIT = 500;
const TranscriptQuery = z.strictObject({
  file: opt(lineNo),
  cursor: opt(lineNo),
  limit: opt(limit(MAX_TRANSCRIPT_LIMIT))
});
const NoQuery = z.strictObject({});
function queryError(err) {
  return err.issues.map((i) => {
    if (i.code === "unrecognized_keys")
      return `unknown query parameter${i.keys.length > 1 ? "s" : ""} ${i.keys.map((k) => JSON.stringify(k)).join(", ")}`;
    return `${i.path.length > 0 ? i.path.join(".") : "query"}: ${i.message}`;
  }).join("; ");
}
export {
  DEFAULT_LEDGER_LIMIT,
  DEFAULT_TRANSCRIPT_LIMIT,
  EVENT_TYPES,
  LedgerQuery,
  MAX_LEDGER_LIMIT,
  MAX_TRANSCRIPT_LIMIT,
  NoQuery,
  RUN_SORT_KEYS,
  RunsQuery,
  TranscriptQuery,
  queryError,
  simTime
};
//# sourceMappingURL=query-schemas.js.map
