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
  const bucket = (typeNames[len] ??= []);
  const names = (typeStrings[len] ??= []);
  for (let k = 0; k < bucket.length; k++) if (buf.compare(bucket[k]!, 0, len, from, to) === 0) return names[k]!;
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

function canonicalPeek(buf: Buffer, start: number, end: number): LinePeek | null {
  if (!matchAt(buf, start, end, SEQ)) return null;
  if (!intAt(buf, start + SEQ.length, end, false) || !matchAt(buf, intNext, end, TYPE)) return null;
  const seq = intValue;
  const ts = intNext + TYPE.length;
  let te = ts;
  while (te < end && te - ts < 32) {
    const c = buf[te]!;
    if (c === 34 /* " */) break;
    if ((c < 97 || c > 122) && c !== 95 /* _ */) return null;
    te++;
  }
  if (te === ts || buf[te] !== 34 || !matchAt(buf, te + 1, end, T)) return null;
  if (!intAt(buf, te + 1 + T.length, end, true) || (buf[intNext] !== 44 && buf[intNext] !== 125)) return null;
  return { seq, type: typeName(buf, ts, te), t: intValue };
}

/** seq, type and t of the line `buf[start, end)`, or null when the line is not a JSON object with them. */
export function peekLine(buf: Buffer, start: number, end: number): LinePeek | null {
  const fast = canonicalPeek(buf, start, end);
  if (fast) return fast;
  const v = parseLine(buf, start, end);
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.type !== "string" || typeof o.t !== "number" || typeof o.seq !== "number") return null;
  return { seq: o.seq, type: o.type, t: o.t };
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

/**
 * The top-level `cost_usd` of a `tool_call` or `llm_call` line. The writer puts it after `args`,
 * so the last occurrence of the key is the top-level one; a line where that reading is not a
 * number is parsed in full.
 */
export function peekCost(buf: Buffer, start: number, end: number): number {
  const line = buf.subarray(start, end);
  const k = line.lastIndexOf(COST);
  if (k !== -1) {
    let j = k + COST.length;
    while (j < line.length && line[j] !== 44 /* , */ && line[j] !== 125 /* } */) j++;
    const n = Number(line.toString("latin1", k + COST.length, j));
    if (Number.isFinite(n) && j > k + COST.length) return n;
  }
  const v = parseLine(buf, start, end) as { cost_usd?: unknown } | null;
  return typeof v?.cost_usd === "number" ? v.cost_usd : 0;
}
