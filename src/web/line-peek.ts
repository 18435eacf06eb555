/**
 * Fast reads of a ledger line's leading fields without a JSON parse. The ledger writer serializes
 * `{seq, type, t, ...}` with `JSON.stringify`, so a line normally opens with
 * `{"seq":N,"type":"X","t":T`. A line in any other layout is parsed in full (never guessed).
 */
export interface LinePeek {
  seq: number;
  type: string;
  t: number;
}

const SEQ = Buffer.from('{"seq":');
const TYPE = Buffer.from(',"type":"');
const T = Buffer.from(',"t":');

/** Interned type names by byte length (few distinct values), so peeking allocates no strings. */
const typeNames: Buffer[][] = [];
const typeStrings: string[][] = [];

function typeName(buf: Buffer, from: number, to: number): string {
  const len = to - from;
  if (typeNames[len] === undefined) {
    typeNames[len] = [];
    typeStrings[len] = [];
  }
  const bucket = typeNames[len]!;
  const names = typeStrings[len]!;
  outer: for (let k = 0; k < bucket.length; k++) {
    const name = bucket[k]!;
    for (let i = 0; i < len; i++) if (buf[from + i] !== name[i]) continue outer;
    return names[k]!;
  }
  const name = buf.toString("latin1", from, to);
  if (bucket.length < 16) {
    bucket.push(Buffer.from(name, "latin1"));
    names.push(name);
  }
  return name;
}

function matchAt(buf: Buffer, i: number, end: number, lit: Buffer): boolean {
  if (i + lit.length > end) return false;
  for (let k = 0; k < lit.length; k++) if (buf[i + k] !== lit[k]) return false;
  return true;
}

// the integer read by intAt and the index after it (scratch, so nothing is allocated per line)
let intValue = 0;
let intNext = 0;

/** Reads an integer at i into intValue/intNext; false when there is none (or it is too long to be exact). */
function intAt(buf: Buffer, i: number, end: number, signed: boolean): boolean {
  let neg = false;
  if (signed && buf[i] === 45 /* - */) {
    neg = true;
    i++;
  }
  const from = i;
  let v = 0;
  while (i < end) {
    const c = buf[i]!;
    if (c < 48 || c > 57) break;
    v = v * 10 + (c - 48);
    i++;
  }
  if (i === from || i - from > 15) return false;
  intValue = neg ? -v : v;
  intNext = i;
  return true;
}

/** Reads the canonical prefix into `out`; false when the line is laid out otherwise. */
function canonicalPeek(buf: Buffer, start: number, end: number, out: LinePeek): boolean {
  if (!matchAt(buf, start, end, SEQ)) return false;
  if (!intAt(buf, start + SEQ.length, end, false) || !matchAt(buf, intNext, end, TYPE)) return false;
  const seq = intValue;
  const ts = intNext + TYPE.length;
  let te = ts;
  while (te < end && te - ts < 32) {
    const c = buf[te]!;
    if (c === 34 /* " */) break;
    if ((c < 97 || c > 122) && c !== 95 /* _ */) return false;
    te++;
  }
  if (te === ts || buf[te] !== 34 || !matchAt(buf, te + 1, end, T)) return false;
  if (!intAt(buf, te + 1 + T.length, end, true) || (buf[intNext] !== 44 && buf[intNext] !== 125)) return false;
  out.seq = seq;
  out.type = typeName(buf, ts, te);
  out.t = intValue;
  return true;
}

/**
 * Like `peekLine`, but fills `out` (no allocation on the canonical path, for full-file scans);
 * false when the line has no seq/type/t.
 */
export function peekLineInto(buf: Buffer, start: number, end: number, out: LinePeek): boolean {
  if (canonicalPeek(buf, start, end, out)) return true;
  const p = slowPeek(buf, start, end);
  if (p === null) return false;
  out.seq = p.seq;
  out.type = p.type;
  out.t = p.t;
  return true;
}

function slowPeek(buf: Buffer, start: number, end: number): LinePeek | null {
  const v = parseLine(buf, start, end);
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.type !== "string" || typeof o.t !== "number" || typeof o.seq !== "number") return null;
  return { seq: o.seq, type: o.type, t: o.t };
}

/** seq, type and t of the line `buf[start, end)`, or null when the line is not a JSON object with them. */
export function peekLine(buf: Buffer, start: number, end: number): LinePeek | null {
  const out: LinePeek = { seq: 0, type: "", t: 0 };
  return canonicalPeek(buf, start, end, out) ? out : slowPeek(buf, start, end);
}

/** The line parsed as JSON, or null when it is not valid JSON. */
export function parseLine(buf: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(buf.toString("utf8", start, end));
  } catch {
    return null;
  }
}

const COST = Buffer.from('"cost_usd":');

/** Index of the last occurrence of `key` in buf[start, end), or -1. */
function lastKey(buf: Buffer, start: number, end: number, key: Buffer): number {
  for (let i = end - key.length; i >= start; i--) if (buf[i] === 34 && matchAt(buf, i, end, key)) return i;
  return -1;
}

/** Index of the first occurrence of `key` in buf[start, end), or -1. */
export function firstKey(buf: Buffer, start: number, end: number, key: Buffer): number {
  for (let i = start; i <= end - key.length; i++) if (buf[i] === 34 && matchAt(buf, i, end, key)) return i;
  return -1;
}

/**
 * The top-level `cost_usd` of a `tool_call` or `llm_call` line. The writer puts it after `args`,
 * so the last occurrence of the key is the top-level one (inside a JSON string the quotes would be
 * escaped); a line where that reading is not a number is parsed in full.
 */
export function peekCost(buf: Buffer, start: number, end: number): number {
  const k = lastKey(buf, start, end, COST);
  if (k !== -1) {
    const from = k + COST.length;
    let j = from;
    while (j < end && buf[j] !== 44 /* , */ && buf[j] !== 125 /* } */) j++;
    if (j > from) {
      const n = Number(buf.toString("latin1", from, j));
      if (Number.isFinite(n)) return n;
    }
  }
  const v = parseLine(buf, start, end) as { cost_usd?: unknown } | null;
  return typeof v?.cost_usd === "number" ? v.cost_usd : 0;
}

/** A flat string field (the first occurrence of `key`, e.g. `"reason":"`) without escapes; null when absent or escaped. */
export function peekString(buf: Buffer, start: number, end: number, key: Buffer): string | null {
  const k = firstKey(buf, start, end, key);
  if (k === -1) return null;
  const from = k + key.length;
  for (let j = from; j < end; j++) {
    const c = buf[j];
    if (c === 92 /* \ */) return null;
    if (c === 34 /* " */) return buf.toString("utf8", from, j);
  }
  return null;
}
