import { HOUR_MS } from "../../common/time.js";
import { requireOracle, statelessPolicy } from "../reference-policy.js";
import type { PolicyApi, ReferencePolicy } from "../task.js";
import { WorldCandles } from "./candle-series.js";
import { PriceCheckParams } from "./params.js";
import { median, PriceTruth } from "./truth.js";
import { ExchangeDocs, HttpResult, lastCandle, recentCandlesRequest } from "./venue-client.js";
import { resolveSetup } from "./world-setup.js";

const POLL_OFFSET_MS = 50 * 60_000;
/** the heuristic drops a close further than this from the median of ≥ 3 closes (spike filter) */
export const OUTLIER_BPS = 50;

/** the next HH:50 strictly after now */
export function nextPollAfter(now: number): number {
  return (Math.floor((now - POLL_OFFSET_MS) / HOUR_MS) + 1) * HOUR_MS + POLL_OFFSET_MS;
}

/** silent: never acts (the floor: every symbol-hour is a miss). */
export const silentPolicy: ReferencePolicy = statelessPolicy({
  name: "silent",
  description: "Never acts: every symbol-hour is a miss (price_acc 0).",
  async act() {},
  nextWake: () => null,
});

/**
 * oracle (tests and calibration only): at every HH:50 (and at its start wake) it reports, per
 * symbol, the truth itself, computed from the untouched world candles of its OracleEnv (the same
 * PriceTruth the scorer uses); abstains where no truth candle exists yet.
 */
export const oraclePolicy: ReferencePolicy = {
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
      nextWake: nextPollAfter,
    };
  },
};

/** With ≥ 3 closes, drops those more than OUTLIER_BPS from their median; fewer are kept as they are. */
export function dropOutliers(closes: readonly number[]): number[] {
  if (closes.length < 3) return [...closes];
  const m = median(closes);
  return closes.filter((x) => Math.abs(x / m - 1) * 1e4 <= OUTLIER_BPS);
}

/**
 * median-poll (honest heuristic, agent-visible tools only): at every HH:50 it reads
 * get_exchange_docs, and for each symbol fetches the last few candles at the truth interval from
 * each of the symbol's documented truth venues. It discards errors, timeouts, rate-limit answers
 * (and then respects Retry-After: it does not call that venue again before it passes, so it is
 * never banned), stale data (the newest candle is not the last completed one), and outliers (more
 * than 50 bps from the median of ≥ 3 closes); it reports the median of the rest, or abstains when
 * fewer than 2 venues are usable.
 */
export const medianPollPolicy: ReferencePolicy = {
  name: "median-poll",
  description:
    "Polls every truth venue at HH:50 through http_fetch, drops errors, stale feeds and outliers, reports the median (abstains below 2 usable venues).",
  cron: ["50 * * * *"],
  start(api) {
    // per run: venue → the instant its Retry-After passes
    const backoff = new Map<string, number>();
    return { act: () => medianPollWake(api, backoff), nextWake: nextPollAfter };
  },
};

/** one median-poll wake; `backoff` (venue → end of its Retry-After) is the run's state */
async function medianPollWake(api: PolicyApi, backoff: Map<string, number>): Promise<void> {
  const got = await api.call("get_exchange_docs", {});
  if (!got.ok) throw new Error(`get_exchange_docs failed: ${got.error}`);
  const docs = ExchangeDocs.parse(got.value);
  const now = api.now();
  const I = docs.truth.interval_ms;
  for (const symbol of docs.symbols) {
    const closes: number[] = [];
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
      if (Number.isFinite(retryAfter) && retryAfter > 0) backoff.set(venue, now + retryAfter * 1000);
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
