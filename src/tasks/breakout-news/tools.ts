import { z } from "zod";
import { isoInstant, MINUTE_MS } from "../../common/time.js";
import { defineTool, ok, reject, type ToolDef } from "../../tools/tool.js";
import type { AsOfView } from "../../world/as-of-view.js";
import type { MarketRow } from "../../world/types.js";
import { parseTimeArg } from "../reddit-tools.js";
import type { ClaimBook } from "./claim-book.js";
import { inScope, isMonitored, isScoped } from "./markets.js";
import type { BreakoutNewsParams } from "./params.js";
import { priceSeries } from "./price-series.js";

export const GET_MARKETS_TOOL = "get_markets";
export const GET_PRICES_TOOL = "get_prices";
export const NOTIFY_TOOL = "notify";

const TimeArg = z
  .union([z.number(), z.string()])
  .describe('an instant: epoch milliseconds or ISO-8601 ("2026-03-01T12:00:00Z"; a date alone or no zone is UTC)');

export const GetMarketsArgs = z.object({}).strict();

export const GetPricesArgs = z
  .object({
    market_id: z.string().min(1).max(200).describe("market id (from get_markets)"),
    start: TimeArg.describe("first instant: the answer gives the level at start"),
    end: TimeArg.describe("last instant (clamped to visible_until)"),
    grid_minutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .optional()
      .describe("optional: the forward-filled level every grid_minutes from start instead of every change"),
  })
  .strict();

/**
 * The notify payload. A direction other than up/down fails this schema (free rejection by argument
 * validation, naming the valid values).
 */
export const NotifyArgs = z
  .object({
    market_id: z.string().min(1).max(200).describe("market id (from get_markets)"),
    news_id: z.string().min(1).max(200).describe("id of the published article that motivates the claim"),
    direction: z.enum(["up", "down"]).describe("direction of the breakout of the first outcome's price"),
  })
  .strict();
export type NotifyArgs = z.infer<typeof NotifyArgs>;

export interface BreakoutToolOptions {
  view: AsOfView;
  params: BreakoutNewsParams;
  claims: ClaimBook;
}

const visibleUntilOf = (now: number, p: BreakoutNewsParams) => now - p.price_delay_minutes * MINUTE_MS;

/**
 * `get_markets`, `get_prices` (free) and `notify` (free commitment). Markets are read through the
 * as-of view: a market that is unknown or not yet visible gives the view's one error text. The
 * actor's scope (`actor_markets`) limits what `get_markets` lists and what `notify` accepts.
 */
export function breakoutTools(o: BreakoutToolOptions): ToolDef[] {
  const { view, params: p, claims } = o;
  const W = claims.windowMs;
  const wText = `${p.window_hours} h`;

  const claimOut = (market: string, now: number) => {
    const c = claims.pending(market, now);
    return c
      ? {
          news_id: c.news_id,
          direction: c.direction,
          claimed_at: isoInstant(c.t),
          window_ends: isoInstant(c.t + W),
        }
      : null;
  };

  const getMarkets = defineTool({
    name: GET_MARKETS_TOOL,
    description:
      "Free: the markets you monitor (id, question, description, outcomes, open and scheduled end), the latest " +
      "visible price of each outcome, and your pending claim on each market (null when none).",
    args: GetMarketsArgs,
    kind: "data",
    run(_a, ctx) {
      const now = ctx.now();
      const until = visibleUntilOf(now, p);
      const markets = view.markets.list().filter((m) => inScope(ctx.actor, m.id, p));
      return ok({
        now: isoInstant(now),
        visible_until: isoInstant(until),
        markets: markets.map((m) => ({
          id: m.id,
          question: m.question,
          description: m.description,
          outcomes: m.outcomes,
          open: isoInstant(m.open),
          scheduled_end: isoInstant(m.scheduled_end),
          latest: Object.fromEntries(view.markets.lastPrice(m.id, until).map((x) => [x.outcome, x.p])),
          pending_claim: claimOut(m.id, now),
        })),
      });
    },
  });

  const getPrices = defineTool({
    name: GET_PRICES_TOOL,
    description:
      "Free: a monitored market's price series: per outcome the level at `start` and every change in (start, end], " +
      "or with `grid_minutes` the level on a regular grid. Prices are sparse (a point only when the price changes; " +
      `forward-fill between points); a price at t becomes visible at t + ${p.price_delay_minutes} min, so ` +
      "`end` is clamped to `visible_until` (= now minus that delay). Times: epoch ms or ISO-8601. " +
      `At most ${p.max_price_points} points per call.`,
    args: GetPricesArgs,
    kind: "data",
    run(a, ctx) {
      const s = parseTimeArg("start", a.start);
      if (!s.ok) return reject(s.error);
      const e = parseTimeArg("end", a.end);
      if (!e.ok) return reject(e.error);
      const m = view.markets.get(a.market_id);
      if (!isMonitored(m.id, p)) return reject(notMonitored(m.id));
      const r = priceSeries(view, {
        market: m.id,
        outcomes: m.outcomes,
        start: s.t,
        end: e.t,
        gridMinutes: a.grid_minutes ?? null,
        visibleUntil: visibleUntilOf(ctx.now(), p),
        maxPoints: p.max_price_points,
      });
      return r.ok ? ok(r.value) : reject(r.error);
    },
  });

  const notify = defineTool({
    name: NOTIFY_TOOL,
    description:
      `Free commitment: claim that a breakout of the market's first-outcome price in \`direction\` (up or down) starts ` +
      `within the next ${wText}, citing the published article \`news_id\` that motivates it. One pending claim per ` +
      `market: a claim stays pending for ${wText} after you make it, whatever happens. Rejected (free): a direction ` +
      "other than up/down, a market you do not monitor, an unknown or unpublished article, a claim already pending.",
    args: NotifyArgs,
    kind: "commit",
    run(a, ctx) {
      const now = ctx.now();
      const m: MarketRow = view.markets.get(a.market_id);
      if (!inScope(ctx.actor, m.id, p))
        return reject(
          isMonitored(m.id, p) && isScoped(ctx.actor, p)
            ? `notify rejected: market ${m.id} is not one of yours (see get_markets)`
            : notMonitored(m.id),
        );
      const article = view.news.get(a.news_id);
      const pending = claims.pending(m.id, now);
      if (pending)
        return reject(
          `notify rejected: a claim on ${m.id} is already pending (${pending.direction}, made ${isoInstant(pending.t)}, ` +
            `pending until ${isoInstant(pending.t + W)})`,
        );
      claims.add({ market: m.id, news_id: article.id, direction: a.direction, t: now, actor: ctx.actor });
      return ok({
        accepted: true,
        market_id: m.id,
        news_id: article.id,
        direction: a.direction,
        claimed_at: isoInstant(now),
        window_ends: isoInstant(now + W),
      });
    },
  });

  return [getMarkets, getPrices, notify];
}

const notMonitored = (id: string) => `market ${id} is not monitored in this task (see get_markets)`;
