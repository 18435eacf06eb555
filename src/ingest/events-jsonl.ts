import { createHash, createHmac } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { canonicalJson } from "../common/canonical-json.js";
import { DAY_MS, parseUtcInstant, startOfUtcDay } from "../common/time.js";
import type { EventRow } from "../world/types.js";
import { WorldBuilder } from "../world/world-builder.js";
import type { WorldSink } from "../world/world-sink.js";
import { EventMapping } from "./event-mapping.js";
import { type ImportReport, refuseIfEmpty } from "./import-report.js";
import type { RejectedRow } from "./kraken-ohlcvt.js";
import { readLines } from "./news-jsonl.js";

export const EVENTS_BUILDER = "ingest/events-jsonl";
export const EVENTS_BUILDER_VERSION = "1";
const BATCH = 2000;
/** Numbers (and digit strings) below this in absolute value are epoch seconds, from it on epoch milliseconds. */
export const EPOCH_SECONDS_BELOW = 100_000_000_000;
/** The HMAC key of content-derived ids (fixed, so the same row always gets the same id). */
const ID_KEY = "relive/events-jsonl/id/v1";

/** Reads a mapping file (YAML or JSON: `{time_field, kind_field, id_field?}`); errors name the file and field. */
export function readEventMapping(file: string): EventMapping {
  if (!existsSync(file)) throw new Error(`mapping file ${file} does not exist`);
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`mapping file ${file} is not valid YAML/JSON: ${(e as Error).message}`);
  }
  const p = EventMapping.safeParse(raw);
  if (!p.success) {
    const i = p.error.issues[0];
    throw new Error(`mapping file ${file}: ${i?.path.length ? `${i.path.join(".")}: ` : ""}${i?.message}`);
  }
  return p.data;
}

/**
 * An event time: epoch seconds or milliseconds (a number or a digit string; |v| < 1e11 is seconds,
 * so any instant after 1973-03-03 in ms and before 5138 in seconds reads right; fractional seconds
 * are rounded to the ms) or an ISO-8601 date or date-time (a missing zone is UTC). Null if neither.
 */
export function parseEventTime(v: unknown): number | null {
  let n: number | null = null;
  if (typeof v === "number") n = v;
  else if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v.trim())) n = Number(v.trim());
  if (n !== null) {
    if (!Number.isFinite(n)) return null;
    if (Math.abs(n) < EPOCH_SECONDS_BELOW) return Math.round(n * 1000);
    return Number.isInteger(n) ? n : null;
  }
  if (typeof v !== "string") return null;
  return parseUtcInstant(v);
}

/** The id of a row without an id field: an HMAC-SHA256 of its canonical JSON (content only: no line, no order, no count). */
export function contentEventId(row: Record<string, unknown>): string {
  return `ev-${createHmac("sha256", ID_KEY).update(canonicalJson(row)).digest("hex").slice(0, 24)}`;
}

/**
 * Imports JSONL event logs (one JSON object a line) into a new world with an `event` stream: the
 * mapping names the time, kind and optional id fields; every other field is the payload; an event
 * is visible from its time. Ids: the id field's value (a string, or an integer written as digits)
 * when mapped, else `contentEventId`. Rejected with file:line and reason: invalid JSON, non-objects,
 * a missing or unreadable time, a missing or non-string kind, a missing id, a repeated id (the
 * first is kept; without an id field, a repeated identical row). Window = [first, last] event time.
 * Nothing imported → `ImportRefusedError` and no world.
 */
export async function importEventsJsonl(
  files: string[],
  targetDir: string,
  opts: { name: string; mapping: EventMapping },
): Promise<ImportReport> {
  checkEventInputs(files, opts.mapping);
  const builder = WorldBuilder.create(targetDir, {
    name: opts.name,
    window: { start: 0, end: 0 },
    builder: EVENTS_BUILDER,
    builder_version: EVENTS_BUILDER_VERSION,
  });
  try {
    const r = await importEventsJsonlInto(builder, files, { mapping: opts.mapping });
    return { manifest: builder.finish(), ...r };
  } catch (e) {
    builder.abort();
    throw e;
  }
}

/** `importEventsJsonl`'s rows written into `sink` (the `event` stream, one manifest source per file, the whole-day window). */
export async function importEventsJsonlInto(
  sink: WorldSink,
  files: string[],
  opts: { mapping: EventMapping },
): Promise<Omit<ImportReport, "manifest">> {
  const m = checkEventInputs(files, opts.mapping);
  const rejected: RejectedRow[] = [];
  const seen = new Set<string>();
  const kinds = new Map<string, number>();
  let read = 0;
  let imported = 0;
  let duplicates = 0;
  let minT = Number.POSITIVE_INFINITY;
  let maxT = Number.NEGATIVE_INFINITY;
  for (const file of files) {
    const hash = createHash("sha256");
    let lineNo = 0;
    let fileRows = 0;
    let fileRejected = 0;
    let batch: EventRow[] = [];
    const reject = (reason: string) => {
      rejected.push({ file, line: lineNo, reason });
      fileRejected++;
    };
    for await (const lines of readLines(file, hash)) {
      for (const line of lines) {
        lineNo++;
        if (line.trim() === "") continue;
        read++;
        let raw: unknown;
        try {
          raw = JSON.parse(line);
        } catch (e) {
          reject(`invalid JSON: ${(e as Error).message}`);
          continue;
        }
        if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
          reject("not a JSON object");
          continue;
        }
        const row = raw as Record<string, unknown>;
        const tv = row[m.time_field];
        if (tv === undefined || tv === null) {
          reject(`no time field "${m.time_field}"`);
          continue;
        }
        const t = parseEventTime(tv);
        if (t === null) {
          reject(
            `time field "${m.time_field}": cannot read ${JSON.stringify(tv)} as ISO-8601 or epoch seconds/milliseconds`,
          );
          continue;
        }
        const kind = row[m.kind_field];
        if (typeof kind !== "string" || kind.length === 0) {
          reject(
            kind === undefined
              ? `no kind field "${m.kind_field}"`
              : `kind field "${m.kind_field}": not a non-empty string`,
          );
          continue;
        }
        let id: string;
        if (m.id_field !== undefined) {
          const iv = row[m.id_field];
          if (typeof iv === "string" && iv.length > 0) id = iv;
          else if (typeof iv === "number" && Number.isSafeInteger(iv)) id = String(iv);
          else {
            reject(
              iv === undefined
                ? `no id field "${m.id_field}"`
                : `id field "${m.id_field}": not a non-empty string or integer`,
            );
            continue;
          }
        } else id = contentEventId(row);
        if (seen.has(id)) {
          duplicates++;
          reject(
            m.id_field !== undefined
              ? `duplicate id ${JSON.stringify(id)} (the first is kept)`
              : "duplicate of an earlier identical row (the first is kept)",
          );
          continue;
        }
        seen.add(id);
        const payload: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(row))
          if (k !== m.time_field && k !== m.kind_field && k !== m.id_field) payload[k] = v;
        batch.push({ id, kind, t, payload, visible_at: t });
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        if (t < minT) minT = t;
        if (t > maxT) maxT = t;
        fileRows++;
        imported++;
        if (batch.length >= BATCH) {
          sink.insertValidated("event", batch);
          batch = [];
        }
      }
    }
    if (batch.length > 0) sink.insertValidated("event", batch);
    sink.addSource({ path: file, sha256: hash.digest("hex"), rows: fileRows, rejected: fileRejected });
  }
  refuseIfEmpty("events", read, imported, rejected);
  // whole UTC days, so the last event lies inside the [start, end) window and day-based episodes fit it
  sink.setWindow({ start: startOfUtcDay(minT), end: startOfUtcDay(maxT) + DAY_MS });
  const counts: Record<string, number> = { events: imported, duplicates, kinds: kinds.size };
  for (const [k, n] of [...kinds].sort(([a], [b]) => (a < b ? -1 : 1))) counts[`kind:${k}`] = n;
  return { read, imported, rejected, counts };
}

/** Refuses a missing file or an invalid mapping (before any world is created); the parsed mapping. */
function checkEventInputs(files: readonly string[], mapping: EventMapping): EventMapping {
  for (const f of files) if (!existsSync(f)) throw new Error(`no such file: ${f}`);
  return EventMapping.parse(mapping);
}
