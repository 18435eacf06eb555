const SEQ = Buffer.from('{"seq":');
const TYPE = Buffer.from(',"type":"');
const T = Buffer.from(',"t":');
const typeNames = [];
const typeStrings = [];
function typeName(buf, from, to) {
  const len = to - from;
  if (typeNames[len] === void 0) {
    typeNames[len] = [];
    typeStrings[len] = [];
  }
  const bucket = typeNames[len];
  const names = typeStrings[len];
  outer: for (let k = 0; k < bucket.length; k++) {
    const name2 = bucket[k];
    for (let i = 0; i < len; i++) if (buf[from + i] !== name2[i]) continue outer;
    return names[k];
  }
  const name = buf.toString("latin1", from, to);
  if (bucket.length < 16) {
    bucket.push(Buffer.from(name, "latin1"));
    names.push(name);
  }
  return name;
}
function matchAt(buf, i, end, lit) {
  if (i + lit.length > end) return false;
  for (let k = 0; k < lit.length; k++) if (buf[i + k] !== lit[k]) return false;
  return true;
}
let intValue = 0;
let intNext = 0;
function intAt(buf, i, end, signed) {
  let neg = false;
  if (signed && buf[i] === 45) {
    neg = true;
    i++;
  }
  const from = i;
  let v = 0;
  while (i < end) {
    const c = buf[i];
    if (c < 48 || c > 57) break;
    v = v * 10 + (c - 48);
    i++;
  }
  if (i === from || i - from > 15) return false;
  intValue = neg ? -v : v;
  intNext = i;
  return true;
}
function canonicalPeek(buf, start, end, out) {
  if (!matchAt(buf, start, end, SEQ)) return false;
  if (!intAt(buf, start + SEQ.length, end, false) || !matchAt(buf, intNext, end, TYPE)) return false;
  const seq = intValue;
  const ts = intNext + TYPE.length;
  let te = ts;
  while (te < end && te - ts < 32) {
    const c = buf[te];
    if (c === 34) break;
    if ((c < 97 || c > 122) && c !== 95) return false;
    te++;
  }
  if (te === ts || buf[te] !== 34 || !matchAt(buf, te + 1, end, T)) return false;
  if (!intAt(buf, te + 1 + T.length, end, true) || buf[intNext] !== 44 && buf[intNext] !== 125) return false;
  out.seq = seq;
  out.type = typeName(buf, ts, te);
  out.t = intValue;
  return true;
}
function peekLineInto(buf, start, end, out) {
  if (canonicalPeek(buf, start, end, out)) return true;
  const p = slowPeek(buf, start, end);
  if (p === null) return false;
  out.seq = p.seq;
  out.type = p.type;
  out.t = p.t;
  return true;
}
function slowPeek(buf, start, end) {
  const v = parseLine(buf, start, end);
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const o = v;
  if (typeof o.type !== "string" || typeof o.t !== "number" || typeof o.seq !== "number") return null;
  return { seq: o.seq, type: o.type, t: o.t };
}
function peekLine(buf, start, end) {
  const out = { seq: 0, type: "", t: 0 };
  return canonicalPeek(buf, start, end, out) ? out : slowPeek(buf, start, end);
}
function parseLine(buf, start, end) {
  try {
    return JSON.parse(buf.toString("utf8", start, end));
  } catch {
    return null;
  }
}
const COST = Buffer.from('"cost_usd":');
function lastKey(buf, start, end, key) {
  for (let i = end - key.length; i >= start; i--) if (buf[i] === 34 && matchAt(buf, i, end, key)) return i;
  return -1;
}
function firstKey(buf, start, end, key) {
  for (let i = start; i <= end - key.length; i++) if (buf[i] === 34 && matchAt(buf, i, end, key)) return i;
  return -1;
}
function peekCost(buf, start, end) {
  const k = lastKey(buf, start, end, COST);
  if (k !== -1) {
    const from = k + COST.length;
    let j = from;
    while (j < end && buf[j] !== 44 && buf[j] !== 125) j++;
    if (j > from) {
      const n = Number(buf.toString("latin1", from, j));
      if (Number.isFinite(n)) return n;
    }
  }
  const v = parseLine(buf, start, end);
  return typeof v?.cost_usd === "number" ? v.cost_usd : 0;
}
function peekString(buf, start, end, key) {
  const k = firstKey(buf, start, end, key);
  if (k === -1) return null;
  const from = k + key.length;
  for (let j = from; j < end; j++) {
    const c = buf[j];
    if (c === 92) return null;
    if (c === 34) return buf.toString("utf8", from, j);
  }
  return null;
}
export {
  firstKey,
  parseLine,
  peekCost,
  peekLine,
  peekLineInto,
  peekString
};
//# sourceMappingURL=line-peek.js.map
