import { z } from "zod";
import { parseBody } from "./pull-context.js";
import { definePullSource } from "./pull-source.js";

/**
 * Exchange candles from the venues' public kline endpoints, walked page by page over
 * [--start, --end) for each venue-native symbol:
 * - kraken: `GET /0/public/OHLC?pair=&interval=<min>&since=<s>` → `{error: [], result: {<pair>: [[t, o, h, l,
 *   c, vwap, volume, count]], last}}`, paged by `last`; the final entry of a response is the frame
 *   not yet committed and is dropped. Written as Kraken's OHLCVT export (`t,o,h,l,c,volume,count`,
 *   no header: the CSV `parseKrakenOhlcvt` reads): `exchanges/kraken/<pair>_<min>-<since>.csv`.
 *   Kraken serves only the latest 720 frames of an interval: older starts are logged.
 * - binance: `GET /api/v3/klines?symbol=&interval=&startTime=&endTime=&limit=1000` (spot) or the
 *   futures index price `GET /fapi/v1/indexPriceKlines?pair=…` (`--kind index`) → kline arrays,
 *   paged by open time; written as served: `exchanges/binance[-index]/<symbol>-<interval>-<startMs>.json`.
 * - okx: `GET /api/v5/market/history-candles?instId=&bar=&after=<ms>&limit=100` → `{code: "0", data:
 *   [[ts, o, h, l, c, vol, volCcy, volCcyQuote, confirm]]}` newest first, paged backwards from
 *   --end by the oldest ts; `exchanges/okx/<instId>-<bar>-<after>.json`.
 * - kucoin: `GET /api/v1/market/candles?type=&symbol=&startAt=<s>&endAt=<s>` → `{code: "200000", data:
 *   [[t, open, close, high, low, volume, turnover]]}` newest first, ≤ 1500 per call, walked in
 *   1500-frame windows; `exchanges/kucoin/<symbol>-<type>-<startAt>.json`.
 */

const INTERVALS = {
  "1m": { ms: 60_000, kraken: 1, binance: "1m", okx: "1m", kucoin: "1min" },
  "5m": { ms: 300_000, kraken: 5, binance: "5m", okx: "5m", kucoin: "5min" },
  "15m": { ms: 900_000, kraken: 15, binance: "15m", okx: "15m", kucoin: "15min" },
  "30m": { ms: 1_800_000, kraken: 30, binance: "30m", okx: "30m", kucoin: "30min" },
  "1h": { ms: 3_600_000, kraken: 60, binance: "1h", okx: "1H", kucoin: "1hour" },
  "4h": { ms: 14_400_000, kraken: 240, binance: "4h", okx: "4Hutc", kucoin: "4hour" },
  "1d": { ms: 86_400_000, kraken: 1440, binance: "1d", okx: "1Dutc", kucoin: "1day" },
} as const;
type Interval = (typeof INTERVALS)[keyof typeof INTERVALS];

const instant = z.string().transform((s, c) => {
  const t = Date.parse(s);
  if (!Number.isFinite(t)) {
    c.addIssue({ code: "custom", message: `not an ISO date-time: ${s}` });
    return z.NEVER;
  }
  return t;
});

const base = {
  symbol: z.array(z.string().regex(/^[A-Za-z0-9._:-]{2,40}$/, "not a symbol")).min(1, "give --symbol"),
  interval: z.enum(Object.keys(INTERVALS) as [keyof typeof INTERVALS, ...(keyof typeof INTERVALS)[]]).default("1h"),
  start: instant,
  end: instant,
};
const window = (o: { start: number; end: number }) => o.start < o.end;
const WINDOW_MSG = { message: "--start must be before --end" };

const OPTIONS = [
  { flags: "--symbol <symbol>", description: "venue-native symbol (repeatable)", repeatable: true },
  { flags: "--interval <i>", description: `candle interval: ${Object.keys(INTERVALS).join(", ")}`, default: "1h" },
  { flags: "--start <iso>", description: "from (ISO date-time)" },
  { flags: "--end <iso>", description: "to, exclusive (ISO date-time)" },
] as const;

const num = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)]);

// ---- kraken ---------------------------------------------------------------------------------

const KrakenRow = z.tuple([z.number().int(), num, num, num, num, num, num, z.number().int()]);
const KrakenOhlc = z.object({
  error: z.array(z.string()).max(0, "Kraken returned an error"),
  result: z.looseObject({ last: z.number().int() }),
});

export const krakenPull = definePullSource({
  name: "kraken",
  describe: "Kraken OHLC candles (written as Kraken's OHLCVT CSV export)",
  endpoints: { api: { default: "https://api.kraken.com", env: "RELIVE_PULL_KRAKEN_URL" } },
  defaultRate: 1,
  options: OPTIONS,
  schema: z.object(base).refine(window, WINDOW_MSG),
  async run(ctx, o) {
    const iv: Interval = INTERVALS[o.interval];
    for (const pair of o.symbol) {
      let since = Math.floor(o.start / 1000);
      for (;;) {
        ctx.progress.grow(1);
        const got = await ctx.item(
          `${pair}/${iv.kraken}/${since}/${o.start}-${o.end}`,
          `${ctx.base("api")}/0/public/OHLC?pair=${pair}&interval=${iv.kraken}&since=${since}`,
          `exchanges/kraken/${pair}_${iv.kraken}-${since}.csv`,
          (body, url) => {
            const doc = parseBody(body, url, KrakenOhlc, "a Kraken OHLC response");
            const key = Object.keys(doc.result).find((k) => k !== "last");
            if (!key) throw new Error(`${url}: no candle array in result`);
            const rows = z.array(KrakenRow).safeParse(doc.result[key]);
            if (!rows.success) throw new Error(`${url}: result.${key}: ${rows.error.issues[0]?.message}`);
            const committed = rows.data.slice(0, -1);
            const inWindow = committed.filter((r) => r[0] * 1000 >= o.start && r[0] * 1000 < o.end);
            return {
              write: inWindow.map((r) => `${r[0]},${r[1]},${r[2]},${r[3]},${r[4]},${r[6]},${r[7]}\n`).join(""),
              meta: { last: doc.result.last, first: rows.data[0]?.[0] ?? null, n: rows.data.length },
            };
          },
        );
        const m = got?.meta as { last: number; first: number | null; n: number };
        if (since === Math.floor(o.start / 1000) && m.first !== null && m.first * 1000 > o.start + iv.ms)
          ctx.log(
            `kraken: ${pair}: candles start at ${new Date(m.first * 1000).toISOString()} (Kraken serves the latest 720)`,
          );
        if (m.n <= 1 || m.last <= since || m.last * 1000 >= o.end) break;
        since = m.last;
      }
    }
  },
});

// ---- binance --------------------------------------------------------------------------------

const Kline = z
  .array(z.unknown())
  .min(7)
  .refine((k) => Number.isInteger(k[0]) && Number.isInteger(k[6]), {
    message: "a kline is [open_ms, o, h, l, c, v, close_ms, …]",
  });

export const binancePull = definePullSource({
  name: "binance",
  describe: "Binance klines (spot, or the futures index price with --kind index), as served",
  endpoints: {
    spot: { default: "https://api.binance.com", env: "RELIVE_PULL_BINANCE_URL" },
    futures: { default: "https://fapi.binance.com", env: "RELIVE_PULL_BINANCE_FUTURES_URL" },
  },
  defaultRate: 5,
  options: [
    ...OPTIONS,
    { flags: "--kind <kind>", description: "spot or index (futures index price)", default: "spot" },
  ],
  schema: z.object({ ...base, kind: z.enum(["spot", "index"]).default("spot") }).refine(window, WINDOW_MSG),
  async run(ctx, o) {
    const iv: Interval = INTERVALS[o.interval];
    const dir = o.kind === "index" ? "binance-index" : "binance";
    for (const sym of o.symbol) {
      let start = o.start;
      while (start < o.end) {
        ctx.progress.grow(1);
        const path =
          o.kind === "index"
            ? `${ctx.base("futures")}/fapi/v1/indexPriceKlines?pair=${sym}`
            : `${ctx.base("spot")}/api/v3/klines?symbol=${sym}`;
        const got = await ctx.item(
          `${o.kind}/${sym}/${iv.binance}/${start}-${o.end}`,
          `${path}&interval=${iv.binance}&startTime=${start}&endTime=${o.end - 1}&limit=1000`,
          `exchanges/${dir}/${sym}-${iv.binance}-${start}.json`,
          (body, url) => {
            const ks = parseBody(body, url, z.array(Kline), "a Binance klines response");
            return { write: body, meta: { n: ks.length, lastOpen: (ks.at(-1)?.[0] as number | undefined) ?? null } };
          },
        );
        const m = got?.meta as { n: number; lastOpen: number | null };
        if (m.lastOpen === null || m.n < 1000) break;
        start = m.lastOpen + iv.ms;
      }
    }
  },
});

// ---- okx ------------------------------------------------------------------------------------

const OkxCandles = z.object({
  code: z.literal("0", { message: "OKX returned a non-zero code" }),
  msg: z.string().optional(),
  data: z.array(z.array(z.string()).min(6)),
});

export const okxPull = definePullSource({
  name: "okx",
  describe: "OKX history candles, as served",
  endpoints: { api: { default: "https://www.okx.com", env: "RELIVE_PULL_OKX_URL" } },
  defaultRate: 5,
  options: OPTIONS,
  schema: z.object(base).refine(window, WINDOW_MSG),
  async run(ctx, o) {
    const iv: Interval = INTERVALS[o.interval];
    for (const inst of o.symbol) {
      let after = o.end;
      while (after > o.start) {
        ctx.progress.grow(1);
        const got = await ctx.item(
          `${inst}/${iv.okx}/${after}-${o.start}`,
          `${ctx.base("api")}/api/v5/market/history-candles?instId=${inst}&bar=${iv.okx}&after=${after}&limit=100`,
          `exchanges/okx/${inst}-${iv.okx}-${after}.json`,
          (body, url) => {
            const doc = parseBody(body, url, OkxCandles, "an OKX candles response");
            const ts = doc.data.map((c) => Number(c[0]));
            if (ts.some((t) => !Number.isInteger(t))) throw new Error(`${url}: a candle ts is not epoch ms`);
            return { write: body, meta: { n: ts.length, oldest: ts.length ? Math.min(...ts) : null } };
          },
        );
        const m = got?.meta as { n: number; oldest: number | null };
        if (m.oldest === null || m.n < 100 || m.oldest >= after) break;
        after = m.oldest;
      }
    }
  },
});

// ---- kucoin ---------------------------------------------------------------------------------

const KucoinCandles = z.object({
  code: z.literal("200000", { message: "KuCoin returned an error code" }),
  data: z.array(z.array(z.string()).min(6)),
});

export const kucoinPull = definePullSource({
  name: "kucoin",
  describe: "KuCoin candles, as served",
  endpoints: { api: { default: "https://api.kucoin.com", env: "RELIVE_PULL_KUCOIN_URL" } },
  defaultRate: 3,
  options: OPTIONS,
  schema: z.object(base).refine(window, WINDOW_MSG),
  async run(ctx, o) {
    const iv: Interval = INTERVALS[o.interval];
    const step = 1500 * (iv.ms / 1000);
    const from = Math.floor(o.start / 1000);
    const to = Math.ceil(o.end / 1000);
    ctx.progress.grow(o.symbol.length * Math.ceil((to - from) / step));
    for (const sym of o.symbol)
      for (let a = from; a < to; a += step) {
        const b = Math.min(a + step, to);
        await ctx.item(
          `${sym}/${iv.kucoin}/${a}-${b}`,
          `${ctx.base("api")}/api/v1/market/candles?type=${iv.kucoin}&symbol=${sym}&startAt=${a}&endAt=${b}`,
          `exchanges/kucoin/${sym}-${iv.kucoin}-${a}.json`,
          (body, url) => {
            const doc = parseBody(body, url, KucoinCandles, "a KuCoin candles response");
            if (doc.data.some((c) => !/^\d+$/.test(c[0] ?? "")))
              throw new Error(`${url}: a candle time is not epoch seconds`);
            return { write: body, meta: null };
          },
        );
      }
  },
});
