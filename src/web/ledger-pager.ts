import { type FileHandle, open } from "node:fs/promises";
import { LedgerEvent, type LedgerEventType } from "../ledger/events.js";
import { INDEX_STRIDE, type LineIndex, type LineIndexCache, lineAtTime, offsetOfLine } from "./line-index.js";
import { parseLine, peekLine } from "./line-peek.js";
import { completeEnd, scanBackward, scanForward } from "./line-scan.js";

/** One ledger line as the viewer shows it. `seq` is the line number (0-based). */
export interface LedgerRow {
  seq: number;
  /** simulated time, null when the line has none */
  t: number | null;
  /** the event type, "?" when the line has none */
  type: string;
  /** the parsed line (null when it is not JSON) */
  event: unknown;
  /** why the line is not a valid ledger event, else null */
  error: string | null;
}

/**
 * Where a page starts: `cursor` (the first line to show, default 0), `before` (the page of lines
 * just before that line: previous and last pages) or `at` (the first line at or after a simulated
 * time). At most one of them.
 */
export interface LedgerPageRequest {
  cursor?: number;
  before?: number;
  at?: number;
  limit: number;
  /** only these event types */
  types?: readonly LedgerEventType[];
  /** only events of this actor */
  actor?: string;
}

export interface LedgerPage {
  /** complete lines in the ledger now (a torn last line is not counted) */
  total: number;
  /**
   * false when the ledger was not indexed yet and `total` was taken from its last line's seq
   * (exact for an intact ledger: the writer numbers lines from 0)
   */
  indexed: boolean;
  rows: LedgerRow[];
  /** `before` for the previous page; null when nothing can precede this page */
  prev: number | null;
  /** `cursor` for the next page; null at the end of the ledger as written so far */
  next: number | null;
  /** the lines examined, [from, to) */
  scanned: [number, number];
  /** true when a filtered scan stopped at its byte budget before filling the page (follow prev/next to go on) */
  partial: boolean;
  /** the line `at` resolved to */
  at_line: number | null;
}

/** Bytes a filtered page may scan before it returns what it has (keeps every request bounded). */
export const FILTER_SCAN_BUDGET_BYTES = 32 * 1024 * 1024;

/** The row for the line `buf[start, end)` at line `seq`. */
export function ledgerRow(buf: Buffer, start: number, end: number, seq: number): LedgerRow {
  const json = parseLine(buf, start, end);
  if (json === null) return { seq, t: null, type: "?", event: null, error: "not valid JSON" };
  const o = (typeof json === "object" && !Array.isArray(json) ? json : {}) as Record<string, unknown>;
  const t = typeof o.t === "number" ? o.t : null;
  const type = typeof o.type === "string" ? o.type : "?";
  const parsed = LedgerEvent.safeParse(json);
  let error: string | null = null;
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    error = `${issue.path.join(".") || "(root)"}: ${issue.message}`;
  } else if (parsed.data.seq !== seq) error = `seq ${parsed.data.seq} out of order (line ${seq})`;
  return { seq, t, type, event: json, error };
}

type Matcher = (buf: Buffer, start: number, end: number) => boolean;

function matcher(req: LedgerPageRequest): Matcher | null {
  const types = req.types && req.types.length > 0 ? new Set<string>(req.types) : null;
  const actor = req.actor;
  if (types === null && actor === undefined) return null;
  const needle = actor === undefined ? null : Buffer.from(`"actor":${JSON.stringify(actor)}`);
  return (buf, start, end) => {
    if (types !== null) {
      const p = peekLine(buf, start, end);
      if (p === null || !types.has(p.type)) return false;
    }
    if (needle !== null) {
      if (buf.subarray(start, end).indexOf(needle) === -1) return false;
      const o = parseLine(buf, start, end) as { actor?: unknown } | null;
      return o !== null && typeof o === "object" && o.actor === actor;
    }
    return true;
  };
}

interface Forward {
  rows: LedgerRow[];
  /** the line after the last one examined */
  end: number;
  partial: boolean;
}

/**
 * Collects the page that starts `skip` lines after the line `line` at byte `offset`: up to
 * `limit` (matching) lines before `endBytes`, stopping a filtered scan after `budgetBytes`.
 */
async function forward(
  fh: FileHandle,
  offset: number,
  line: number,
  skip: number,
  endBytes: number,
  limit: number,
  match: Matcher | null,
  budgetBytes: number,
): Promise<Forward> {
  const rows: LedgerRow[] = [];
  if (limit <= 0) return { rows, end: line, partial: false }; // `before: 0`: nothing precedes line 0
  let scannedBytes = 0;
  let partial = false;
  await scanForward(fh, offset, endBytes, (buf, s, e, off) => {
    if (skip > 0) {
      skip--;
      line++;
      return true;
    }
    if (match === null || match(buf, s, e)) rows.push(ledgerRow(buf, s, e, line));
    line++;
    scannedBytes += e - s + 1;
    if (rows.length >= limit) return false;
    if (match !== null && scannedBytes >= budgetBytes && off + (e - s) + 1 < endBytes) {
      partial = true;
      return false;
    }
    return true;
  });
  return { rows, end: line, partial };
}

/** Pages starting this close to line 0 are served before the file is indexed. */
export const UNINDEXED_FIRST_LINES = 5 * INDEX_STRIDE;

/**
 * A page near the start of a ledger that has no index yet: read from byte 0, with the total taken
 * from the last complete line's `seq` (the writer numbers lines from 0), so the first page never
 * waits for a whole-file scan. Null when the last line has no readable seq.
 */
async function unindexedPage(
  path: string,
  cursor: number,
  limit: number,
  match: Matcher | null,
  budgetBytes: number,
): Promise<LedgerPage | null> {
  const fh = await open(path, "r");
  try {
    const endBytes = await completeEnd(fh, (await fh.stat()).size);
    let lastSeq: number | null = null;
    await scanBackward(fh, endBytes, 0, (buf, s, e) => {
      lastSeq = peekLine(buf, s, e)?.seq ?? null;
      return false;
    });
    if (lastSeq === null && endBytes > 0) return null;
    const total = lastSeq === null ? 0 : lastSeq + 1;
    const start = Math.min(cursor, total);
    const f = await forward(fh, 0, 0, start, endBytes, limit, match, budgetBytes);
    return {
      total,
      indexed: false,
      rows: f.rows,
      prev: start > 0 ? start : null,
      next: f.end < total ? f.end : null,
      scanned: [start, f.end],
      partial: f.partial,
      at_line: null,
    };
  } finally {
    await fh.close();
  }
}

/**
 * One page of a ledger, read through its sparse index: never the whole file. Unfiltered pages
 * read exactly their lines; filtered pages scan forward (or backward, for `before`) from their
 * start until `limit` matches, the end of the file, or the scan budget. A page near the start
 * of a ledger not indexed yet is read directly (see `unindexedPage`) while the index is built in
 * the background.
 */
export async function readLedgerPage(
  indexes: LineIndexCache,
  path: string,
  req: LedgerPageRequest,
  budgetBytes = FILTER_SCAN_BUDGET_BYTES,
): Promise<LedgerPage> {
  const given = [req.cursor, req.before, req.at].filter((v) => v !== undefined).length;
  if (given > 1) throw new RangeError("give at most one of cursor, before and at");
  if (!Number.isInteger(req.limit) || req.limit < 1)
    throw new RangeError(`limit must be a positive integer: ${req.limit}`);
  const match = matcher(req);
  const cursor = req.cursor ?? 0;
  if (req.before === undefined && req.at === undefined && cursor <= UNINDEXED_FIRST_LINES && !indexes.has(path)) {
    const page = await unindexedPage(path, cursor, req.limit, match, budgetBytes);
    indexes.warm(path);
    if (page !== null) return page;
  }
  return indexes.with(path, async (index, fh) => {
    const total = index.lines;
    let atLine: number | null = null;
    let start: number;
    if (req.at !== undefined) start = atLine = await lineAtTime(index, fh, req.at);
    else if (req.before !== undefined) {
      const end = Math.min(req.before, total);
      if (match !== null) return { ...(await scanBack(index, fh, end, req.limit, match, budgetBytes)), at_line: null };
      start = Math.max(0, end - req.limit);
      const f = await forward(fh, await offsetOfLine(index, fh, start), start, 0, index.bytes, end - start, null, 0);
      return {
        total,
        indexed: true,
        rows: f.rows,
        prev: start > 0 ? start : null,
        next: end < total ? end : null,
        scanned: [start, end],
        partial: false,
        at_line: null,
      };
    } else start = Math.min(cursor, total);
    const f = await forward(
      fh,
      await offsetOfLine(index, fh, start),
      start,
      0,
      index.bytes,
      req.limit,
      match,
      budgetBytes,
    );
    return {
      total,
      indexed: true,
      rows: f.rows,
      prev: start > 0 ? start : null,
      next: f.end < total ? f.end : null,
      scanned: [start, f.end],
      partial: f.partial,
      at_line: atLine,
    };
  });
}

async function scanBack(
  index: LineIndex,
  fh: FileHandle,
  end: number,
  limit: number,
  match: Matcher,
  budgetBytes: number,
): Promise<Omit<LedgerPage, "at_line">> {
  const rows: LedgerRow[] = [];
  let line = end; // lines [line, end) have been examined
  let scannedBytes = 0;
  let partial = false;
  await scanBackward(fh, await offsetOfLine(index, fh, end), 0, (buf, s, e) => {
    line--;
    if (match(buf, s, e)) rows.push(ledgerRow(buf, s, e, line));
    scannedBytes += e - s + 1;
    if (rows.length >= limit) return false;
    if (scannedBytes >= budgetBytes && line > 0) {
      partial = true;
      return false;
    }
    return true;
  });
  rows.reverse();
  return {
    total: index.lines,
    indexed: true,
    rows,
    prev: line > 0 ? line : null,
    next: end < index.lines ? end : null,
    scanned: [line, end],
    partial,
  };
}
