import { z } from "zod";
import { parseBody } from "./pull-context.js";
import { definePullSource } from "./pull-source.js";

/**
 * Polymarket: the Gamma API (`GET /events?id=E`, `GET /markets?id=M`, and `GET /markets?limit=L&offset=K`
 * pages, optionally `closed=`, `end_date_min=`, `end_date_max=`) and the CLOB price history
 * (`GET /prices-history?market=<token>&fidelity=<minutes>` with `interval=max`, or `startTs`/`endTs`
 * in seconds). With `--history`, the history of every outcome token (`clobTokenIds`) of the
 * fetched events and markets is fetched too. Raw responses are written as they come:
 * `polymarket/events/<id>.json`, `polymarket/markets/<id>.json`,
 * `polymarket/markets-pages/<query>/<offset>.json`, `polymarket/prices-history/<query>/<token>.json`
 * (`<query>` names the page size, filters, range and fidelity, so different pulls never overwrite
 * each other).
 */

const Options = z
  .object({
    event: z.array(z.string().regex(/^\d+$/, "event ids are digits")).default([]),
    market: z.array(z.string().regex(/^\d+$/, "market ids are digits")).default([]),
    token: z.array(z.string().regex(/^\d+$/, "token ids are digits")).default([]),
    pages: z.coerce.number().int().nonnegative().default(0),
    limit: z.coerce.number().int().min(1).max(500).default(500),
    closed: z.enum(["true", "false"]).optional(),
    endDateMin: z.string().optional(),
    endDateMax: z.string().optional(),
    history: z.boolean().default(false),
    fidelity: z.coerce.number().int().positive().default(60),
    startTs: z.coerce.number().int().nonnegative().optional(),
    endTs: z.coerce.number().int().nonnegative().optional(),
  })
  .refine((o) => o.event.length + o.market.length + o.token.length + o.pages > 0, {
    message: "give --event, --market, --token or --pages",
  })
  .refine((o) => (o.startTs === undefined) === (o.endTs === undefined), {
    message: "--start-ts and --end-ts go together",
  });

/** A Gamma market: `clobTokenIds` is a JSON-encoded string array (or absent before the CLOB). */
const GammaMarket = z.looseObject({ id: z.union([z.string(), z.number()]), clobTokenIds: z.string().optional() });
const GammaEvent = z.looseObject({ id: z.union([z.string(), z.number()]), markets: z.array(GammaMarket).default([]) });
const PriceHistory = z.object({ history: z.array(z.object({ t: z.number(), p: z.number() })) });

/** a query string as a directory name: the same query always lands in the same place, different ones never collide */
const slug = (q: string) => q.replace(/^&/, "").replace(/[^A-Za-z0-9=.-]+/g, "_");

function tokensOf(markets: readonly z.infer<typeof GammaMarket>[], url: string): string[] {
  const out: string[] = [];
  for (const m of markets) {
    if (!m.clobTokenIds) continue;
    let ids: unknown;
    try {
      ids = JSON.parse(m.clobTokenIds);
    } catch {
      throw new Error(`${url}: market ${m.id}: clobTokenIds is not a JSON array`);
    }
    if (!Array.isArray(ids) || !ids.every((x) => typeof x === "string" && /^\d+$/.test(x)))
      throw new Error(`${url}: market ${m.id}: clobTokenIds is not an array of token ids`);
    out.push(...(ids as string[]));
  }
  return out;
}

export const polymarketPull = definePullSource({
  name: "polymarket",
  describe: "Polymarket Gamma events/markets and CLOB prices-history",
  endpoints: {
    gamma: { default: "https://gamma-api.polymarket.com", env: "RELIVE_PULL_GAMMA_URL" },
    clob: { default: "https://clob.polymarket.com", env: "RELIVE_PULL_CLOB_URL" },
  },
  defaultRate: 5,
  options: [
    { flags: "--event <id>", description: "Gamma event id (repeatable)", repeatable: true },
    { flags: "--market <id>", description: "Gamma market id (repeatable)", repeatable: true },
    { flags: "--token <id>", description: "CLOB token id for prices-history (repeatable)", repeatable: true },
    { flags: "--pages <n>", description: "pages of GET /markets to walk (0: none)", default: "0" },
    { flags: "--limit <n>", description: "markets per page (≤ 500)", default: "500" },
    { flags: "--closed <bool>", description: "markets pages: only closed (true) or open (false) markets" },
    { flags: "--end-date-min <iso>", description: "markets pages: end date from" },
    { flags: "--end-date-max <iso>", description: "markets pages: end date to" },
    { flags: "--history", description: "also fetch the prices-history of every token of the fetched markets" },
    { flags: "--fidelity <minutes>", description: "prices-history resolution in minutes", default: "60" },
    { flags: "--start-ts <s>", description: "prices-history from (epoch seconds; default interval=max)" },
    { flags: "--end-ts <s>", description: "prices-history to (epoch seconds)" },
  ],
  schema: Options,
  async run(ctx, o) {
    const gamma = ctx.base("gamma");
    const tokens = new Set(o.token);
    ctx.progress.grow(o.event.length + o.market.length);
    for (const id of o.event) {
      const got = await ctx.item(
        `events/${id}`,
        `${gamma}/events?id=${id}`,
        `polymarket/events/${id}.json`,
        (body, url) => {
          const events = parseBody(body, url, z.array(GammaEvent), "a Gamma /events response");
          if (!events.some((e) => String(e.id) === id)) throw new Error(`${url}: event ${id} is not in the response`);
          return {
            write: body,
            meta: tokensOf(
              events.flatMap((e) => e.markets),
              url,
            ),
          };
        },
      );
      for (const t of (got?.meta ?? []) as string[]) tokens.add(t);
    }
    for (const id of o.market) {
      const got = await ctx.item(
        `markets/${id}`,
        `${gamma}/markets?id=${id}`,
        `polymarket/markets/${id}.json`,
        (body, url) => {
          const markets = parseBody(body, url, z.array(GammaMarket), "a Gamma /markets response");
          if (!markets.some((m) => String(m.id) === id)) throw new Error(`${url}: market ${id} is not in the response`);
          return { write: body, meta: tokensOf(markets, url) };
        },
      );
      for (const t of (got?.meta ?? []) as string[]) tokens.add(t);
    }
    const filters = [
      o.closed !== undefined ? `&closed=${o.closed}` : "",
      o.endDateMin ? `&end_date_min=${encodeURIComponent(o.endDateMin)}` : "",
      o.endDateMax ? `&end_date_max=${encodeURIComponent(o.endDateMax)}` : "",
    ].join("");
    for (let page = 0; page < o.pages; page++) {
      const offset = page * o.limit;
      ctx.progress.grow(1);
      const got = await ctx.item(
        `markets-pages/${o.limit}/${offset}${filters}`,
        `${gamma}/markets?limit=${o.limit}&offset=${offset}${filters}`,
        `polymarket/markets-pages/${slug(`limit=${o.limit}${filters}`)}/${offset}.json`,
        (body, url) => {
          const markets = parseBody(body, url, z.array(GammaMarket), "a Gamma /markets response");
          return { write: body, meta: { n: markets.length, tokens: o.history ? tokensOf(markets, url) : [] } };
        },
      );
      const meta = got?.meta as { n: number; tokens: string[] } | undefined;
      for (const t of meta?.tokens ?? []) tokens.add(t);
      if (!meta || meta.n < o.limit) break;
    }
    if (!o.history && o.token.length === 0) return;
    const wanted = o.history ? [...tokens] : o.token;
    const range = o.startTs !== undefined ? `&startTs=${o.startTs}&endTs=${o.endTs}` : "&interval=max";
    ctx.progress.grow(wanted.length);
    for (const t of wanted)
      await ctx.item(
        `prices-history/${t}${range}&fidelity=${o.fidelity}`,
        `${ctx.base("clob")}/prices-history?market=${t}${range}&fidelity=${o.fidelity}`,
        `polymarket/prices-history/${slug(`${range}&fidelity=${o.fidelity}`)}/${t}.json`,
        (body, url) => {
          parseBody(body, url, PriceHistory, "a CLOB prices-history response");
          return { write: body, meta: null };
        },
      );
  },
});
