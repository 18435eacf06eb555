import { open } from "node:fs/promises";
import { LedgerEvent } from "../ledger/events.js";
import { INDEX_STRIDE, lineAtTime, offsetOfLine } from "./line-index.js";
import { parseLine, peekLine } from "./line-peek.js";
import { completeEnd, scanBackward, scanForward } from "./line-scan.js";
const FILTER_SCAN_BUDGET_BYTES = 32 * 1024 * 1024;
function ledgerRow(buf, start, end, seq) {
  const json = parseLine(buf, start, end);
  if (json === null) return { seq, t: null, type: "?", event: null, error: "not valid JSON" };
  const o = typeof json === "object" && !Array.isArray(json) ? json : {};
  const t = typeof o.t === "number" ? o.t : null;
  const type = typeof o.type === "string" ? o.type : "?";
  const parsed = LedgerEvent.safeParse(json);
  let error = null;
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    error = `${issue.path.join(".") || "(root)"}: ${issue.message}`;
  } else if (parsed.data.seq !== seq) error = `seq ${parsed.data.seq} out of order (line ${seq})`;
  return { seq, t, type, event: json, error };
}
function matcher(req) {
  const types = req.types && req.types.length > 0 ? new Set(req.types) : null;
  const actor = req.actor;
  if (types === null && actor === void 0) return null;
  const needle = actor === void 0 ? null : Buffer.from(`"actor":${JSON.stringify(actor)}`);
  return (buf, start, end) => {
    if (types !== null) {
      const p = peekLine(buf, start, end);
      if (p === null || !types.has(p.type)) return false;
    }
    if (needle !== null) {
      if (buf.subarray(start, end).indexOf(needle) === -1) return false;
      const o = parseLine(buf, start, end);
      return o !== null && typeof o === "object" && o.actor === actor;
    }
    return true;
  };
}
async function forward(fh, offset, line, skip, endBytes, limit, match, budgetBytes) {
  const rows = [];
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
const UNINDEXED_FIRST_LINES = 5 * INDEX_STRIDE;
async function unindexedPage(path, cursor, limit, match, budgetBytes) {
  const fh = await open(path, "r");
  try {
    const endBytes = await completeEnd(fh, (await fh.stat()).size);
    let lastSeq = null;
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
      at_line: null
    };
  } finally {
    await fh.close();
  }
}
async function readLedgerPage(indexes, path, req, budgetBytes = FILTER_SCAN_BUDGET_BYTES) {
  const given = [req.cursor, req.before, req.at].filter((v) => v !== void 0).length;
  if (given > 1) throw new RangeError("give at most one of cursor, before and at");
  if (!Number.isInteger(req.limit) || req.limit < 1)
    throw new RangeError(`limit must be a positive integer: ${req.limit}`);
  const match = matcher(req);
  const cursor = req.cursor ?? 0;
  if (req.before === void 0 && req.at === void 0 && cursor <= UNINDEXED_FIRST_LINES && !indexes.has(path)) {
    const page = await unindexedPage(path, cursor, req.limit, match, budgetBytes);
    indexes.warm(path);
    if (page !== null) return page;
  }
  return indexes.with(path, async (index, fh) => {
    const total = index.lines;
    let atLine = null;
    let start;
    if (req.at !== void 0) start = atLine = await lineAtTime(index, fh, req.at);
    else if (req.before !== void 0) {
      const end = Math.min(req.before, total);
      if (match !== null) return { ...await scanBack(index, fh, end, req.limit, match, budgetBytes), at_line: null };
      start = Math.max(0, end - req.limit);
      const f2 = await forward(fh, await offsetOfLine(index, fh, start), start, 0, index.bytes, end - start, null, 0);
      return {
        total,
        indexed: true,
        rows: f2.rows,
        prev: start > 0 ? start : null,
        next: end < total ? end : null,
        scanned: [start, end],
        partial: false,
        at_line: null
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
      budgetBytes
    );
    return {
      total,
      indexed: true,
      rows: f.rows,
      prev: start > 0 ? start : null,
      next: f.end < total ? f.end : null,
      scanned: [start, f.end],
      partial: f.partial,
      at_line: atLine
    };
  });
}
async function scanBack(index, fh, end, limit, match, budgetBytes) {
  const rows = [];
  let line = end;
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
    partial
  };
}
export {
  FILTER_SCAN_BUDGET_BYTES,
  UNINDEXED_FIRST_LINES,
  ledgerRow,
  readLedgerPage
};
//# sourceMappingURL=ledger-pager.js.map
