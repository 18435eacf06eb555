import { createHash, hash as oneShotHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { z } from "zod";
import type { NewsRow, WorldManifest } from "../world/types.js";
import { WorldBuilder } from "../world/world-builder.js";
import type { WorldSink } from "../world/world-sink.js";
import { refuseIfEmpty } from "./import-report.js";

export const NEWS_JSONL_BUILDER = "ingest/news-jsonl";
export const NEWS_JSONL_BUILDER_VERSION = "1";
/** Rows per insert transaction: small enough that a batch's strings die young (less GC). */
const BATCH = 2000;

const ISO_RE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** ISO 8601 (no zone = UTC) or epoch seconds (< 1e11) / milliseconds → epoch ms; null if invalid. */
export function parsePublishedAt(v: string | number): number | null {
  if (typeof v === "number") {
    if (!Number.isFinite(v) || v < 0) return null;
    return Math.round(v < 1e11 ? v * 1000 : v);
  }
  const s = v.trim();
  const m = ISO_RE.exec(s);
  if (!m) return null;
  let iso = s.replace(" ", "T");
  if (iso.length === 10) iso += "T00:00:00";
  const zone = m[1];
  if (!zone) iso += "Z";
  else if (/^[+-]\d{4}$/.test(zone)) iso = `${iso.slice(0, -5)}${zone.slice(0, 3)}:${zone.slice(3)}`;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

const URL_RE = /^https?:\/\/[^\s/]+/i;

/** The schema of record for one JSONL line (its issues are the rejection reasons). */
export const NewsLine = z
  .object({
    id: z.string().min(1).optional(),
    url: z.string().regex(URL_RE, "must be an http(s) URL"),
    title: z.string(),
    text: z.string().optional(),
    body: z.string().optional(),
    published_at: z.union([z.string(), z.number()]),
    domain: z.string().min(1).optional(),
  })
  .refine((r) => r.text !== undefined || r.body !== undefined, { message: "needs text or body", path: ["text"] });

type NewsLineData = z.infer<typeof NewsLine>;

const optString = (v: unknown, min: number) => v === undefined || (typeof v === "string" && v.length >= min);

/**
 * A hand-rolled check of `NewsLine` for the hot path: returns the line's fields if `raw` certainly
 * passes the schema, or null to let zod decide (and word the rejection). It accepts only what the
 * schema accepts (property-tested), so zod stays the schema of record and error texts are zod's.
 */
export function quickNewsLine(raw: unknown): NewsLineData | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const { id, url, title, text, body, published_at, domain } = r;
  if (typeof url !== "string" || typeof title !== "string" || !URL_RE.test(url)) return null;
  if (typeof published_at !== "string" && typeof published_at !== "number") return null;
  if (!optString(text, 0) || !optString(body, 0) || (text === undefined && body === undefined)) return null;
  if (!optString(id, 1) || !optString(domain, 1)) return null;
  return r as NewsLineData;
}

/**
 * The lines of a file (LF or CRLF; a last line without a newline included), via readline over the
 * default 64 KiB-chunk stream (bigger chunks make readline slower), yielded in arrays of up to
 * 4,096 lines; every byte also goes into `hash`.
 */
export async function* readLines(file: string, hash: { update(b: Buffer): unknown }): AsyncGenerator<string[]> {
  const stream = createReadStream(file);
  stream.on("data", (chunk) => hash.update(chunk as Buffer));
  const rl = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let lines: string[] = [];
  for await (const line of rl) {
    lines.push(line);
    if (lines.length >= 4096) {
      yield lines;
      lines = [];
    }
  }
  if (lines.length > 0) yield lines;
}

const HOST_RE = /^https?:\/\/([A-Za-z0-9.-]+)(?:[:/?#]|$)/i;

/** Hostname of an http(s) URL, lowercased, without a leading "www." (regex fast path, else WHATWG URL). */
export function urlDomain(url: string): string | null {
  const m = HOST_RE.exec(url);
  if (m?.[1]) return m[1].toLowerCase().replace(/^www\./, "");
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return null;
  }
}

/** Default article id: the first 32 hex digits of sha256(url). */
export function urlId(url: string): string {
  return oneShotHash("sha256", url, "hex").slice(0, 32);
}

export interface NewsJsonlRejection {
  line: number;
  file: string;
  reason: string;
}

export interface NewsJsonlResult {
  manifest: WorldManifest;
  accepted: number;
  rejected: NewsJsonlRejection[];
  /** Build diagnostics for benchmarks: wall and process-CPU milliseconds of each finish() stage. */
  stages: { wall_ms: Record<string, number>; cpu_ms: Record<string, number> };
}

/**
 * Imports JSONL news files into a new world at `targetDir` (never a partial one: the build runs in
 * a temp dir and is renamed at the end). One JSON object per line:
 * `{ id?, url, title, text | body, published_at, domain? }`; `published_at` is ISO 8601 (no zone
 * = UTC) or epoch seconds/ms; `id` defaults to sha256(url) (32 hex digits); `domain` defaults to
 * the URL's host. visible_at = published_at. Bad rows, duplicate URLs (the first is kept),
 * duplicate ids and rows outside `opts.window` are rejected with file:line and a reason, not fatal.
 * Blank lines are skipped. The window defaults to [min, max] published_at of accepted rows. An
 * input with no row, or whose every row is rejected, throws `ImportRefusedError` (no world written).
 */
export async function importNewsJsonl(
  files: string[],
  targetDir: string,
  opts: {
    name: string;
    window?: { start: number; end: number };
    /** worker threads for the news vectors (WorldBuildOptions.vectorWorkers; default: the builder's) */
    vectorWorkers?: number;
  },
): Promise<NewsJsonlResult> {
  const builder = WorldBuilder.create(
    targetDir,
    {
      name: opts.name,
      window: opts.window ?? { start: 0, end: 0 },
      builder: NEWS_JSONL_BUILDER,
      builder_version: NEWS_JSONL_BUILDER_VERSION,
    },
    { streamNewsFts: true, ...(opts.vectorWorkers === undefined ? {} : { vectorWorkers: opts.vectorWorkers }) },
  );
  try {
    const r = await importNewsJsonlInto(builder, files, opts.window ? { window: opts.window } : {});
    const manifest = builder.finish();
    const stages = { wall_ms: { ...builder.finishTimings }, cpu_ms: { ...builder.finishCpuMs } };
    return { manifest, ...r, stages };
  } catch (e) {
    builder.abort();
    throw e;
  }
}

/**
 * `importNewsJsonl`'s rows written into `sink` (the `news` stream and one manifest source per
 * file): the same checks and rejections; without `opts.window` the sink's window is set to
 * [min, max] published_at. Throws `ImportRefusedError` when nothing is accepted (the sink's maker
 * aborts the build).
 */
export async function importNewsJsonlInto(
  sink: WorldSink,
  files: string[],
  opts: { window?: { start: number; end: number } },
): Promise<{ accepted: number; rejected: NewsJsonlRejection[] }> {
  const rejected: NewsJsonlRejection[] = [];
  const seenUrl = new Set<string>();
  const seenId = new Set<string>();
  let accepted = 0;
  let read = 0;
  let minT = Number.POSITIVE_INFINITY;
  let maxT = Number.NEGATIVE_INFINITY;
  for (const file of files) {
    const hash = createHash("sha256");
    let batch: NewsRow[] = [];
    let lineNo = 0;
    let fileRows = 0;
    let fileRejected = 0;
    const reject = (reason: string) => {
      rejected.push({ line: lineNo, file, reason });
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
        let r = quickNewsLine(raw);
        if (r === null) {
          const parsed = NewsLine.safeParse(raw);
          if (!parsed.success) {
            const issue = parsed.error.issues[0];
            const field = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "(row)";
            reject(`field "${field}": ${issue?.message ?? "invalid"}`);
            continue;
          }
          r = parsed.data;
        }
        const t = parsePublishedAt(r.published_at);
        if (t === null) {
          reject(`field "published_at": not an ISO 8601 date or epoch seconds/ms: ${JSON.stringify(r.published_at)}`);
          continue;
        }
        if (opts.window && (t < opts.window.start || t > opts.window.end)) {
          reject(`field "published_at": ${new Date(t).toISOString()} is outside the world window`);
          continue;
        }
        const domain = r.domain ?? urlDomain(r.url);
        if (domain === null || domain === "") {
          reject(`field "url": cannot parse a host from ${JSON.stringify(r.url)}`);
          continue;
        }
        // one hash-set operation per key: add, and a size that did not grow means "seen before"
        const urls = seenUrl.size;
        if (seenUrl.add(r.url).size === urls) {
          reject(`duplicate url ${JSON.stringify(r.url)} (the first occurrence is kept)`);
          continue;
        }
        const id = r.id ?? urlId(r.url);
        const ids = seenId.size;
        if (seenId.add(id).size === ids) {
          seenUrl.delete(r.url); // the row is rejected: its url was not taken
          reject(`duplicate id ${JSON.stringify(id)} (the first occurrence is kept)`);
          continue;
        }
        batch.push({
          id,
          url: r.url,
          domain,
          title: r.title,
          text: r.text ?? r.body ?? "",
          published_at: t,
          visible_at: t,
        });
        fileRows++;
        if (t < minT) minT = t;
        if (t > maxT) maxT = t;
        if (batch.length >= BATCH) {
          sink.insertValidated("news", batch);
          batch = [];
        }
      }
    }
    if (batch.length > 0) sink.insertValidated("news", batch);
    accepted += fileRows;
    sink.addSource({ path: file, sha256: hash.digest("hex"), rows: fileRows, rejected: fileRejected });
  }
  refuseIfEmpty("articles", read, accepted, rejected);
  if (!opts.window) sink.setWindow({ start: minT, end: maxT });
  return { accepted, rejected };
}
