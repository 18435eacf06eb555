import { z } from "zod";
const price = z.number().finite().positive();
const OhlcBar = z.object({
  open_time: z.number().int().nonnegative(),
  o: price,
  h: price,
  l: price,
  c: price,
  v: z.number().finite().nonnegative()
}).refine((b) => b.l <= Math.min(b.o, b.c) && b.h >= Math.max(b.o, b.c), { message: "inconsistent OHLC (low/high)" });
const decimal = (s) => s !== void 0 && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(s.trim()) ? Number(s) : Number.NaN;
function issueText(e) {
  const i = e.issues[0];
  return i ? `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}` : "invalid row";
}
function candleFromBar(bar, o, timeText) {
  const parsed = OhlcBar.safeParse(bar);
  if (!parsed.success) return issueText(parsed.error);
  const b = parsed.data;
  if (b.open_time % o.intervalMs !== 0)
    return `open time ${timeText} is not aligned to the ${o.intervalMs / 1e3} s interval`;
  return { venue: o.venue, symbol: o.symbol, interval_ms: o.intervalMs, ...b, visible_at: b.open_time + o.intervalMs };
}
function parseKrakenOhlcvt(text, o) {
  const rows = [];
  const rejected = [];
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "") continue;
    const f = line.split(",");
    const reject = (reason) => {
      rejected.push({ file: o.file, line: i + 1, reason });
    };
    if (f.length !== 7) {
      reject(`expected 7 fields, got ${f.length}`);
      continue;
    }
    const trades = decimal(f[6]);
    if (!Number.isInteger(trades) || trades < 0) {
      reject(`trades: not a non-negative integer: "${f[6]}"`);
      continue;
    }
    const row = candleFromBar(
      {
        open_time: decimal(f[0]) * 1e3,
        o: decimal(f[1]),
        h: decimal(f[2]),
        l: decimal(f[3]),
        c: decimal(f[4]),
        v: decimal(f[5])
      },
      o,
      f[0]
    );
    if (typeof row === "string") reject(row);
    else rows.push(row);
  }
  return { rows, rejected };
}
export {
  OhlcBar,
  candleFromBar,
  decimal as parseDecimal,
  parseKrakenOhlcvt
};
//# sourceMappingURL=kraken-ohlcvt.js.map
