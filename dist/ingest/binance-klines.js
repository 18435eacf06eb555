import { z } from "zod";
import {
  candleFromBar,
  parseDecimal
} from "./kraken-ohlcvt.js";
const KlineArray = z.array(z.unknown()).min(7);
function parseBinanceKlinesJson(text, o) {
  const rows = [];
  const rejected = [];
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { rows, rejected: [{ file: o.file, line: 0, reason: `not JSON: ${e.message}` }] };
  }
  if (!Array.isArray(raw)) return { rows, rejected: [{ file: o.file, line: 0, reason: "not a JSON array of klines" }] };
  for (const [i, k] of raw.entries()) {
    const reject = (reason) => {
      rejected.push({ file: o.file, line: i + 1, reason });
    };
    const arr = KlineArray.safeParse(k);
    if (!arr.success) {
      reject("not a kline array of at least 7 fields");
      continue;
    }
    const f = arr.data;
    const num = (x) => typeof x === "number" ? x : typeof x === "string" ? parseDecimal(x) : Number.NaN;
    const openTime = num(f[0]);
    const closeTime = num(f[6]);
    if (!Number.isInteger(openTime) || !Number.isInteger(closeTime)) {
      reject("open/close time is not an integer");
      continue;
    }
    if (closeTime - openTime + 1 !== o.intervalMs) {
      reject(`interval ${closeTime - openTime + 1} ms differs from the expected ${o.intervalMs} ms`);
      continue;
    }
    const row = candleFromBar(
      { open_time: openTime, o: num(f[1]), h: num(f[2]), l: num(f[3]), c: num(f[4]), v: num(f[5]) },
      o,
      String(f[0])
    );
    if (typeof row === "string") reject(row);
    else rows.push(row);
  }
  return { rows, rejected };
}
const ISO_OFFSET = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
function parseBinanceUsCsv(text, o) {
  const rows = [];
  const rejected = [];
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? "").trim().toLowerCase();
  if (header !== "open_time,open,high,low,close,volume")
    return { rows, rejected: [{ file: o.file, line: 1, reason: `unexpected header "${lines[0] ?? ""}"` }] };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "") continue;
    const reject = (reason) => rejected.push({ file: o.file, line: i + 1, reason });
    const f = line.split(",");
    if (f.length !== 6) {
      reject(`expected 6 fields, got ${f.length}`);
      continue;
    }
    const m = ISO_OFFSET.exec(f[0]);
    const t = m ? Date.parse(`${m[1]}T${m[2]}${m[3] ?? ""}${m[4]}`) : Number.NaN;
    if (!Number.isFinite(t)) {
      reject(`open_time is not an ISO instant with an offset: "${f[0]}"`);
      continue;
    }
    const row = candleFromBar(
      {
        open_time: t,
        o: parseDecimal(f[1]),
        h: parseDecimal(f[2]),
        l: parseDecimal(f[3]),
        c: parseDecimal(f[4]),
        v: parseDecimal(f[5])
      },
      o,
      f[0]
    );
    if (typeof row === "string") reject(row);
    else rows.push(row);
  }
  return { rows, rejected };
}
function resampleCandles(rows, targetMs) {
  if (rows.length === 0) return [];
  const first = rows[0];
  const base = first.interval_ms;
  if (targetMs % base !== 0) throw new RangeError(`target ${targetMs} ms is not a multiple of ${base} ms`);
  for (const r of rows)
    if (r.venue !== first.venue || r.symbol !== first.symbol || r.interval_ms !== base)
      throw new Error("resampleCandles: rows must be one series (venue, symbol, interval)");
  const sorted = [...rows].sort((a, b) => a.open_time - b.open_time);
  const n = targetMs / base;
  const out = [];
  let i = 0;
  while (i < sorted.length) {
    const bucket = Math.floor(sorted[i].open_time / targetMs) * targetMs;
    let j = i;
    while (j < sorted.length && sorted[j].open_time < bucket + targetMs) {
      if (j > i && sorted[j].open_time === sorted[j - 1].open_time)
        throw new Error(`resampleCandles: duplicate open_time ${sorted[j].open_time}`);
      j++;
    }
    if (j - i === n) {
      const part = sorted.slice(i, j);
      out.push({
        venue: first.venue,
        symbol: first.symbol,
        interval_ms: targetMs,
        open_time: bucket,
        o: part[0].o,
        h: Math.max(...part.map((r) => r.h)),
        l: Math.min(...part.map((r) => r.l)),
        c: part[part.length - 1].c,
        v: part.reduce((s, r) => s + r.v, 0),
        visible_at: bucket + targetMs
      });
    }
    i = j;
  }
  return out;
}
export {
  parseBinanceKlinesJson,
  parseBinanceUsCsv,
  resampleCandles
};
//# sourceMappingURL=binance-klines.js.map
