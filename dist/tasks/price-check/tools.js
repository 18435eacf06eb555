import { z } from "zod";
import { defineTool, ok, reject } from "../../tools/tool.js";
import { exchangeDocs } from "./exchange-docs.js";
const REPORT_TOOL = "report";
const ABSTAIN_TOOL = "abstain";
const ReportArgs = z.object({ symbol: z.string(), price: z.number() }).strict();
const AbstainArgs = z.object({ symbol: z.string(), reason: z.string().max(500).optional() }).strict();
function isoHour(t) {
  return new Date(Math.floor(t / 36e5) * 36e5).toISOString().slice(0, 13);
}
function priceCheckTools(env, book) {
  const { params } = env;
  const venuesAt = (t) => env.setupAt(t).venues;
  const symbolsAt = (t) => env.setupAt(t).symbols;
  const venues = venuesAt(env.sim_start);
  const unknownSymbol = (s, t) => `unknown symbol "${s}"; scored symbols: ${symbolsAt(t).join(", ")}`;
  const getDocs = defineTool({
    name: "get_exchange_docs",
    description: "Free. Documentation of the exchange APIs you can reach with http_fetch: venues, paths, parameters, symbol names per venue, rate limits and ban rules, the documented incident rates (outages, stale feeds, spikes), and the truth and scoring rules.",
    args: z.object({}).strict(),
    kind: "meta",
    run: (_a, ctx) => ok(exchangeDocs(env, ctx.now()))
  });
  const httpFetch = defineTool({
    name: "http_fetch",
    description: `GET a venue's public market-data API (replayed at the current simulated time; only completed candles). Returns {status, headers, body (string), elapsed_ms} and error "timeout" (status 0) when no answer came within timeout_s. Costs $${params.http_fetch_usd} per call whatever the status. Venues: ${venues.join(", ")}. Venues enforce request-weight limits: a 429 carries Retry-After; calling again before it passes gets you banned. Never moves the clock.`,
    args: z.object({
      venue: z.string(),
      path: z.string(),
      params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
      timeout_s: z.number().positive().max(params.max_timeout_s).default(10)
    }).strict(),
    kind: "data",
    domain: "http",
    price: () => params.http_fetch_usd,
    run: (a, ctx) => {
      const known = venuesAt(ctx.now());
      if (!known.includes(a.venue)) return reject(`unknown venue "${a.venue}"; venues: ${known.join(", ")}`);
      if (!a.path.startsWith("/")) return reject(`path must start with "/" (e.g. "/api/v3/klines"), got "${a.path}"`);
      return ok(env.api.fetch({ venue: a.venue, path: a.path, params: a.params, timeout_s: a.timeout_s }));
    }
  });
  const report = defineTool({
    name: REPORT_TOOL,
    description: "Free. Report your price for a symbol now. Each UTC hour, your last report or abstain for a symbol is scored against the cross-venue median close of the last completed candle (see get_exchange_docs).",
    args: ReportArgs,
    kind: "commit",
    run: (a, ctx) => {
      if (!symbolsAt(ctx.now()).includes(a.symbol)) return reject(unknownSymbol(a.symbol, ctx.now()));
      if (!Number.isFinite(a.price) || a.price <= 0)
        return reject(`price must be a positive finite number, got ${a.price}`);
      book.record(a.symbol, { t: ctx.now(), kind: "report", price: a.price });
      return ok({ accepted: true, symbol: a.symbol, price: a.price, hour: isoHour(ctx.now()) });
    }
  });
  const abstain = defineTool({
    name: ABSTAIN_TOOL,
    description: "Free. Abstain for a symbol in the current UTC hour (replaces an earlier report of that hour). Abstentions score no accuracy but are not misses; keep them under the abstain-rate constraint.",
    args: AbstainArgs,
    kind: "commit",
    run: (a, ctx) => {
      if (!symbolsAt(ctx.now()).includes(a.symbol)) return reject(unknownSymbol(a.symbol, ctx.now()));
      book.record(a.symbol, { t: ctx.now(), kind: "abstain" });
      return ok({ accepted: true, symbol: a.symbol, abstained: true, hour: isoHour(ctx.now()) });
    }
  });
  return [getDocs, httpFetch, report, abstain];
}
export {
  ABSTAIN_TOOL,
  AbstainArgs,
  REPORT_TOOL,
  ReportArgs,
  isoHour,
  priceCheckTools
};
//# sourceMappingURL=tools.js.map
