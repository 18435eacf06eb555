import { requireOracle, statelessPolicy } from "../reference-policy.js";
import { WorldCandles } from "./candle-series.js";
import { PriceCheckParams } from "./params.js";
import { median, PriceTruth } from "./truth.js";
import { ExchangeDocs, HttpResult, lastCandle, recentCandlesRequest } from "./venue-client.js";
import { resolveSetup } from "./world-setup.js";
const HOUR_MS = 36e5;
const POLL_OFFSET_MS = 50 * 6e4;
const OUTLIER_BPS = 50;
function nextPollAfter(now) {
  return (Math.floor((now - POLL_OFFSET_MS) / HOUR_MS) + 1) * HOUR_MS + POLL_OFFSET_MS;
}
const silentPolicy = statelessPolicy({
  name: "silent",
  description: "Never acts: every symbol-hour is a miss (price_acc 0).",
  async act() {
  },
  nextWake: () => null
});
const oraclePolicy = {
  name: "oracle",
  description: "Reports the truth price read from untouched world data at HH:50 (tests and calibration only).",
  oracle: true,
  cron: ["50 * * * *"],
  start(api, oracle) {
    const env = requireOracle("oracle", oracle);
    const params = PriceCheckParams.parse(env.params ?? {});
    const candles = new WorldCandles(env.world.db);
    const setup = resolveSetup(candles.keys(), params);
    const truth = new PriceTruth(candles, setup);
    return {
      async act() {
        for (const symbol of setup.symbols) {
          const p = truth.at(symbol, api.now());
          if (p) await api.call("report", { symbol, price: p.price });
          else await api.call("abstain", { symbol, reason: "no completed candle yet" });
        }
      },
      nextWake: nextPollAfter
    };
  }
};
function dropOutliers(closes) {
  if (closes.length < 3) return [...closes];
  const m = median(closes);
  return closes.filter((x) => Math.abs(x / m - 1) * 1e4 <= OUTLIER_BPS);
}
const medianPollPolicy = {
  name: "median-poll",
  description: "Polls every truth venue at HH:50 through http_fetch, drops errors, stale feeds and outliers, reports the median (abstains below 2 usable venues).",
  cron: ["50 * * * *"],
  start(api) {
    const backoff = /* @__PURE__ */ new Map();
    return { act: () => medianPollWake(api, backoff), nextWake: nextPollAfter };
  }
};
async function medianPollWake(api, backoff) {
  const got = await api.call("get_exchange_docs", {});
  if (!got.ok) throw new Error(`get_exchange_docs failed: ${got.error}`);
  const docs = ExchangeDocs.parse(got.value);
  const now = api.now();
  const I = docs.truth.interval_ms;
  for (const symbol of docs.symbols) {
    const closes = [];
    for (const venue of docs.truth.venues[symbol] ?? []) {
      const doc = docs.venues[venue];
      const pair = doc?.symbols[symbol];
      if (!doc || !pair) continue;
      if (now < (backoff.get(venue) ?? Number.NEGATIVE_INFINITY)) continue;
      const req = recentCandlesRequest(doc.api, pair, I, now);
      const r = await api.call("http_fetch", { venue, path: req.path, params: req.params, timeout_s: 5 });
      if (!r.ok) continue;
      const res = HttpResult.parse(r.value);
      const retryAfter = Number(res.headers["retry-after"]);
      if (Number.isFinite(retryAfter) && retryAfter > 0) backoff.set(venue, now + retryAfter * 1e3);
      if (res.status !== 200) continue;
      const last = lastCandle(doc.api, res.body, doc.result_keys?.[symbol] ?? pair);
      if (!last || !Number.isFinite(last.close) || last.close <= 0) continue;
      if (now - (last.open_time + I) >= I) continue;
      closes.push(last.close);
    }
    const usable = dropOutliers(closes);
    if (usable.length >= 2) await api.call("report", { symbol, price: median(usable) });
    else await api.call("abstain", { symbol, reason: `only ${usable.length} usable venue(s)` });
  }
}
export {
  OUTLIER_BPS,
  dropOutliers,
  medianPollPolicy,
  nextPollAfter,
  oraclePolicy,
  silentPolicy
};
//# sourceMappingURL=policies.js.map
