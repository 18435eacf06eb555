import { krakenPriceDecimals, pairNames, symbolForPair } from "./symbol-map.js";
const JSON_CT = { "content-type": "application/json; charset=utf-8" };
const BINANCE_CT = { "content-type": "application/json;charset=UTF-8" };
const json = (status, value, headers = JSON_CT) => ({
  status,
  headers: { ...headers },
  body: JSON.stringify(value)
});
const BINANCE_404 = {
  status: 404,
  headers: { "content-type": "text/html" },
  body: "<html><body><h2>404 Not found</h2></body></html>"
};
const MIN = 6e4;
const fx = (x, d) => x.toFixed(d);
const typical = (b) => (b.h + b.l + b.c) / 3;
const round8 = (x) => Math.round(x * 1e8) / 1e8;
const isUInt = (s) => /^[0-9]{1,20}$/.test(s);
function requestWeight(style, path, params) {
  switch (style) {
    case "kraken":
    case "coinbase":
      return 1;
    case "binance-spot":
      return path === "/api/v3/klines" ? 2 : 1;
    case "binance-index": {
      const limit = params.limit !== void 0 && isUInt(params.limit) ? Number(params.limit) : 500;
      if (limit < 100) return 1;
      if (limit < 500) return 2;
      if (limit <= 1e3) return 5;
      return 10;
    }
    default: {
      const never = style;
      throw new Error(`unknown api style ${String(never)}`);
    }
  }
}
function handleRequest(style, path, params, feed, now) {
  switch (style) {
    case "kraken":
      return kraken(path, params, feed, now);
    case "binance-spot":
      return binance(path, params, feed, now, false);
    case "binance-index":
      return binance(path, params, feed, now, true);
    case "coinbase":
      return coinbase(path, params, feed, now);
    default: {
      const never = style;
      throw new Error(`unknown api style ${String(never)}`);
    }
  }
}
const KRAKEN_INTERVALS_MIN = [1, 5, 15, 30, 60, 240, 1440, 10080, 21600];
const KRAKEN_MAX_ROWS = 720;
function kraken(path, params, feed, now) {
  if (path !== "/0/public/OHLC") return json(404, { error: ["EGeneral:Unknown method"] });
  const invalid = json(200, { error: ["EGeneral:Invalid arguments"] });
  if (!params.pair) return invalid;
  const symbol = symbolForPair("kraken", feed.symbols, params.pair);
  if (!symbol) return json(200, { error: ["EQuery:Unknown asset pair"] });
  const intervalStr = params.interval ?? "1";
  if (!isUInt(intervalStr)) return invalid;
  const minutes = Number(intervalStr);
  if (!KRAKEN_INTERVALS_MIN.includes(minutes)) return invalid;
  const I = minutes * MIN;
  if (I % feed.baseIntervalMs(symbol) !== 0) return invalid;
  if (params.since !== void 0 && !isUInt(params.since)) return invalid;
  const since = params.since !== void 0 ? Number(params.since) : null;
  const from = since !== null ? since * 1e3 + 1 : now - (KRAKEN_MAX_ROWS + 1) * I;
  const bars = feed.bars(symbol, I, Math.max(from, now - (KRAKEN_MAX_ROWS + 1) * I), now).slice(-KRAKEN_MAX_ROWS);
  const names = pairNames("kraken", symbol);
  const d = krakenPriceDecimals(names.request);
  const rows = bars.map((b) => [
    b.open_time / 1e3,
    fx(b.o, d),
    fx(b.h, d),
    fx(b.l, d),
    fx(b.c, d),
    fx(typical(b), d),
    fx(b.v, 8),
    0
  ]);
  const lastBar = bars[bars.length - 1];
  const last = lastBar ? lastBar.open_time / 1e3 : since ?? 0;
  return json(200, { error: [], result: { [names.resultKey]: rows, last } });
}
function krakenLimitBody(banned) {
  return JSON.stringify({ error: [banned ? "EGeneral:Too many requests" : "EAPI:Rate limit exceeded"] });
}
const BINANCE_INTERVALS = {
  "1m": MIN,
  "3m": 3 * MIN,
  "5m": 5 * MIN,
  "15m": 15 * MIN,
  "30m": 30 * MIN,
  "1h": 60 * MIN,
  "2h": 120 * MIN,
  "4h": 240 * MIN,
  "6h": 360 * MIN,
  "8h": 480 * MIN,
  "12h": 720 * MIN,
  "1d": 1440 * MIN
};
const mandatory = (name) => json(
  400,
  { code: -1102, msg: `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.` },
  BINANCE_CT
);
const illegal = (name) => json(
  400,
  { code: -1100, msg: `Illegal characters found in parameter '${name}'; legal range is '^[0-9]{1,20}$'.` },
  BINANCE_CT
);
function binance(path, params, feed, now, index) {
  const expectedPath = index ? "/fapi/v1/indexPriceKlines" : "/api/v3/klines";
  if (path !== expectedPath) return BINANCE_404;
  const pairParam = index ? "pair" : "symbol";
  const requested = params[pairParam];
  if (!requested) return mandatory(pairParam);
  if (!params.interval) return mandatory("interval");
  const style = index ? "binance-index" : "binance-spot";
  const symbol = symbolForPair(style, feed.symbols, requested);
  if (!symbol) return json(400, { code: -1121, msg: "Invalid symbol." }, BINANCE_CT);
  const I = BINANCE_INTERVALS[params.interval];
  if (I === void 0 || I % feed.baseIntervalMs(symbol) !== 0)
    return json(400, { code: -1120, msg: "Invalid interval." }, BINANCE_CT);
  const maxLimit = index ? 1500 : 1e3;
  let limit = 500;
  if (params.limit !== void 0) {
    if (!isUInt(params.limit) || Number(params.limit) < 1)
      return json(400, { code: -1130, msg: "Data sent for parameter 'limit' is not valid." }, BINANCE_CT);
    limit = Math.min(Number(params.limit), maxLimit);
  }
  for (const p of ["startTime", "endTime"]) {
    const v = params[p];
    if (v !== void 0 && !isUInt(v)) return illegal(p);
  }
  const start = params.startTime !== void 0 ? Number(params.startTime) : null;
  const end = params.endTime !== void 0 ? Number(params.endTime) : null;
  if (start !== null && end !== null && start > end)
    return json(400, { code: -1023, msg: "Start time is greater than end time." }, BINANCE_CT);
  const to = Math.min(end ?? now, now);
  let bars;
  if (start !== null) bars = feed.bars(symbol, I, start, Math.min(to, start + limit * I)).slice(0, limit);
  else bars = feed.bars(symbol, I, to - (limit + 1) * I, to).slice(-limit);
  const rows = bars.map((b) => {
    const closeTime = b.open_time + I - 1;
    if (index)
      return [
        b.open_time,
        fx(b.o, 8),
        fx(b.h, 8),
        fx(b.l, 8),
        fx(b.c, 8),
        "0",
        closeTime,
        "0",
        I / 1e3,
        "0",
        "0",
        "0"
      ];
    const quote = b.v * typical(b);
    return [
      b.open_time,
      fx(b.o, 8),
      fx(b.h, 8),
      fx(b.l, 8),
      fx(b.c, 8),
      fx(b.v, 8),
      closeTime,
      fx(quote, 8),
      0,
      fx(b.v / 2, 8),
      fx(quote / 2, 8),
      "0"
    ];
  });
  return json(200, rows, BINANCE_CT);
}
function binanceLimitBody(banned, limitText, banUntil) {
  return JSON.stringify(
    banned ? {
      code: -1003,
      msg: `Way too many requests; IP(127.0.0.1) banned until ${banUntil}. Please use the websocket for live updates to avoid bans.`
    } : {
      code: -1003,
      msg: `Too many requests; current limit of IP(127.0.0.1) is ${limitText}. Please use the websocket for live updates to avoid polling the API.`
    }
  );
}
const COINBASE_GRANULARITIES = [60, 300, 900, 3600, 21600, 86400];
const COINBASE_MAX = 300;
function parseCoinbaseTime(s) {
  if (isUInt(s)) return Number(s) * 1e3;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(s)) return null;
  const withZone = /T/.test(s) && !/(Z|[+-]\d{2}:\d{2})$/.test(s) ? `${s}Z` : s;
  const t = Date.parse(withZone);
  return Number.isFinite(t) ? t : null;
}
function coinbase(path, params, feed, now) {
  const notFound = json(404, { message: "NotFound" });
  const m = /^\/products\/([^/]+)\/candles$/.exec(path);
  if (!m) return notFound;
  const symbol = symbolForPair("coinbase", feed.symbols, decodeURIComponent(m[1]));
  if (!symbol) return notFound;
  const g = params.granularity !== void 0 && isUInt(params.granularity) ? Number(params.granularity) : null;
  if (g === null || !COINBASE_GRANULARITIES.includes(g) || g * 1e3 % feed.baseIntervalMs(symbol) !== 0)
    return json(400, { message: "Unsupported granularity" });
  const I = g * 1e3;
  const hasStart = params.start !== void 0;
  const hasEnd = params.end !== void 0;
  if (hasStart !== hasEnd) return json(400, { message: "start and end must both be provided" });
  let bars;
  if (hasStart) {
    const start = parseCoinbaseTime(params.start);
    const end = parseCoinbaseTime(params.end);
    if (start === null) return json(400, { message: "Invalid start" });
    if (end === null) return json(400, { message: "Invalid end" });
    if (start > end) return json(400, { message: "start must be before end" });
    if (Math.floor((end - start) / I) + 1 > COINBASE_MAX)
      return json(400, {
        message: "granularity too small for the requested time range. Count of aggregations requested exceeds 300"
      });
    bars = feed.bars(symbol, I, start, Math.min(end, now));
  } else {
    bars = feed.bars(symbol, I, now - (COINBASE_MAX + 1) * I, now).slice(-COINBASE_MAX);
  }
  const rows = bars.map((b) => [b.open_time / 1e3, round8(b.l), round8(b.h), round8(b.o), round8(b.c), round8(b.v)]).reverse();
  return json(200, rows);
}
function coinbaseLimitBody(banned) {
  return JSON.stringify({ message: banned ? "Forbidden" : "Public rate limit exceeded" });
}
function outageBody(style, status) {
  const text = {
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout"
  };
  const reason = text[status] ?? "Server Error";
  switch (style) {
    case "kraken":
      return json(status, { error: [status === 503 ? "EService:Unavailable" : "EService:Busy"] });
    case "binance-spot":
    case "binance-index":
      return {
        status,
        headers: { "content-type": "text/html" },
        body: `<html><head><title>${status} ${reason}</title></head><body><center><h1>${status} ${reason}</h1></center></body></html>`
      };
    case "coinbase":
      return json(status, { message: reason.toLowerCase() });
    default: {
      const never = style;
      throw new Error(`unknown api style ${String(never)}`);
    }
  }
}
export {
  BINANCE_INTERVALS,
  COINBASE_GRANULARITIES,
  KRAKEN_INTERVALS_MIN,
  binanceLimitBody,
  coinbaseLimitBody,
  handleRequest,
  krakenLimitBody,
  outageBody,
  requestWeight
};
//# sourceMappingURL=venue-handlers.js.map
