import { z } from "zod";
import { deepFreeze } from "../../common/deep-freeze.js";
import { defineTool, ok, reject, type ToolDef } from "../../tools/tool.js";
import type { PriceCheckEnv } from "./environment.js";
import { exchangeDocs } from "./exchange-docs.js";
import type { HourBook } from "./hour-book.js";
import type { PriceCheckSetup } from "./world-setup.js";

export const REPORT_TOOL = "report";
export const ABSTAIN_TOOL = "abstain";

export const ReportArgs = z
  .object({
    symbol: z.string().describe("one of the task's symbols, e.g. BTC-USD"),
    price: z.number().describe("the current market price in USD"),
  })
  .strict();
export const AbstainArgs = z
  .object({
    symbol: z.string().describe("one of the task's symbols, e.g. BTC-USD"),
    reason: z.string().max(500).optional().describe("why you cannot report a price this hour (for your own record)"),
  })
  .strict();

/** "2026-03-02T05": the UTC hour an instant falls in (the scored unit's hour key) */
export function isoHour(t: number): string {
  return new Date(Math.floor(t / 3_600_000) * 3_600_000).toISOString().slice(0, 13);
}

/**
 * The agent tools of price-check (accepted commitments are recorded in the run's `book`): `get_exchange_docs` (free, meta), `http_fetch` (data, priced per
 * call), `report` and `abstain` (commitments, free). Rejections (free, with a reason): unknown
 * venue, a path not starting with "/", unknown symbol, a non-positive or non-finite price. A
 * venue's own 4xx/5xx/429 answers are normal responses, not rejections.
 */
export function priceCheckTools(env: PriceCheckEnv, book: HourBook): ToolDef[] {
  const { params } = env;
  // every list an agent sees is as of its time: a venue or symbol whose candles become visible later is unknown until then
  const venuesAt = (t: number) => env.setupAt(t).venues;
  const symbolsAt = (t: number) => env.setupAt(t).symbols;
  const venues = venuesAt(env.sim_start);
  const unknownSymbol = (s: string, t: number) => `unknown symbol "${s}"; scored symbols: ${symbolsAt(t).join(", ")}`;
  // the docs depend on the run's environment and the setup visible at the call: built once per setup (an
  // hourly agent asks 24 times a day), frozen so that no caller can change what a later call returns
  const docsBySetup = new WeakMap<PriceCheckSetup, Readonly<Record<string, unknown>>>();
  const docsAt = (t: number) => {
    const setup = env.setupAt(t);
    let docs = docsBySetup.get(setup);
    if (!docs) {
      docs = deepFreeze(exchangeDocs(env, t));
      docsBySetup.set(setup, docs);
    }
    return docs;
  };

  const getDocs = defineTool({
    name: "get_exchange_docs",
    description:
      "Free. Documentation of the exchange APIs you can reach with http_fetch: venues, paths, parameters, symbol names per venue, rate limits and ban rules, the documented incident rates (outages, stale feeds, spikes), and the truth and scoring rules.",
    args: z.object({}).strict(),
    kind: "meta",
    run: (_a, ctx) => ok(docsAt(ctx.now())),
  });

  const httpFetch = defineTool({
    name: "http_fetch",
    description: `GET a venue's public market-data API (replayed at the current simulated time; only completed candles). Returns {status, headers, body (string), elapsed_ms} and error "timeout" (status 0) when no answer came within timeout_s. Costs $${params.http_fetch_usd} per call whatever the status. Venues: ${venues.join(", ")}. Venues enforce request-weight limits: a 429 carries Retry-After; calling again before it passes gets you banned. Never moves the clock.`,
    args: z
      .object({
        venue: z.string().describe("a venue named in your instruction and in get_exchange_docs"),
        path: z.string().describe("the API path, e.g. from get_exchange_docs (may carry a query string)"),
        params: z
          .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
          .default({})
          .describe("query parameters, merged over the path's query string"),
        timeout_s: z
          .number()
          .positive()
          .max(params.max_timeout_s)
          .default(10)
          .describe(`seconds to wait for the answer (simulated; at most ${params.max_timeout_s})`),
      })
      .strict(),
    kind: "data",
    domain: "http",
    price: () => params.http_fetch_usd,
    run: (a, ctx) => {
      const known = venuesAt(ctx.now());
      if (!known.includes(a.venue)) return reject(`unknown venue "${a.venue}"; venues: ${known.join(", ")}`);
      if (!a.path.startsWith("/")) return reject(`path must start with "/" (e.g. "/api/v3/klines"), got "${a.path}"`);
      return ok(env.api.fetch({ venue: a.venue, path: a.path, params: a.params, timeout_s: a.timeout_s }));
    },
  });

  const report = defineTool({
    name: REPORT_TOOL,
    description:
      "Free. Report your price for a symbol now. Each UTC hour, your last report or abstain for a symbol is scored against the cross-venue median close of the last completed candle (see get_exchange_docs).",
    args: ReportArgs,
    kind: "commit",
    run: (a, ctx) => {
      if (!symbolsAt(ctx.now()).includes(a.symbol)) return reject(unknownSymbol(a.symbol, ctx.now()));
      if (!Number.isFinite(a.price) || a.price <= 0)
        return reject(`price must be a positive finite number, got ${a.price}`);
      book.record(a.symbol, { t: ctx.now(), kind: "report", price: a.price });
      return ok({ accepted: true, symbol: a.symbol, price: a.price, hour: isoHour(ctx.now()) });
    },
  });

  const abstain = defineTool({
    name: ABSTAIN_TOOL,
    description:
      "Free. Abstain for a symbol in the current UTC hour (replaces an earlier report of that hour). Abstentions score no accuracy but are not misses; keep them under the abstain-rate constraint.",
    args: AbstainArgs,
    kind: "commit",
    run: (a, ctx) => {
      if (!symbolsAt(ctx.now()).includes(a.symbol)) return reject(unknownSymbol(a.symbol, ctx.now()));
      book.record(a.symbol, { t: ctx.now(), kind: "abstain" });
      return ok({ accepted: true, symbol: a.symbol, abstained: true, hour: isoHour(ctx.now()) });
    },
  });

  return [getDocs, httpFetch, report, abstain];
}
