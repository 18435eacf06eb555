import { Hono } from "hono";
import { isoInstant } from "../../../common/time.js";
import type { HostEnv, WebHost } from "../../../tools/web-host.js";
import { BOOK_KINDS, type BookKind } from "../book-events.js";
import type { BookView } from "../book-view.js";
import { jsonResponse } from "./html.js";
import { instantParam, intParam } from "./query.js";
import { accountJson, eventJson, marginCallJson, orderJson } from "./render.js";

export const EVENTS_HOST = "events";
export const EVENTS_PAGE_DEFAULT = 200;
export const EVENTS_PAGE_MAX = 1000;

/** The endpoints, as `GET /` lists them (also quoted by the instruction). */
export const EVENTS_ENDPOINTS: readonly { path: string; doc: string }[] = [
  {
    path: "/api/events?since=&kind=&offset=&limit=",
    doc:
      `book events with t ≥ since (ISO or epoch ms; default: all), oldest first; kind is one of ${BOOK_KINDS.join(", ")}; ` +
      `paged by offset and limit (default ${EVENTS_PAGE_DEFAULT}, at most ${EVENTS_PAGE_MAX})`,
  },
  {
    path: "/api/account",
    doc: "positions, cash, marks (last completed 5-minute close), equity, gross market value, margin ratio, maintenance",
  },
  {
    path: "/api/orders?since=",
    doc: "the PM's day orders placed since `since` (default: the last 24 h) with status open / filled / expired",
  },
  {
    path: "/api/margin-calls",
    doc: "every margin call so far: required amount, deadline, treasury wire when received",
  },
];

/**
 * The read-only events/account API at `http://events.relive.test`: the PM book (orders, fills,
 * margin calls, positions, notes) and the account as of now, JSON only. Everything is read through
 * the as-of view; errors depend only on the request.
 */
export function eventsHost(book: BookView): WebHost {
  const app = new Hono<{ Bindings: HostEnv }>();
  const bad = (error: string) => jsonResponse(400, { error });
  app.get("/", (c) =>
    jsonResponse(200, {
      service: "PM book events and account API (read-only)",
      as_of: isoInstant(c.env.now),
      endpoints: EVENTS_ENDPOINTS,
    }),
  );
  app.get("/api/events", (c) => {
    const since = instantParam("since", c.req.query("since"));
    if (!since.ok) return bad(since.error);
    const kind = c.req.query("kind");
    if (kind !== undefined && kind !== "" && !(BOOK_KINDS as readonly string[]).includes(kind))
      return bad(`kind must be one of ${BOOK_KINDS.join(", ")}`);
    const offset = intParam("offset", c.req.query("offset"), 0, 1_000_000);
    if (!offset.ok) return bad(offset.error);
    const limit = intParam("limit", c.req.query("limit"), EVENTS_PAGE_DEFAULT, EVENTS_PAGE_MAX);
    if (!limit.ok) return bad(limit.error);
    const all = book.events({
      ...(since.value !== undefined ? { since: since.value } : {}),
      ...(kind ? { kind: kind as BookKind } : {}),
    });
    const page = all.slice(offset.value, offset.value + limit.value);
    const end = offset.value + page.length;
    return jsonResponse(200, {
      as_of: isoInstant(c.env.now),
      total: all.length,
      offset: offset.value,
      events: page.map(eventJson),
      next_offset: end < all.length ? end : null,
    });
  });
  app.get("/api/account", () => jsonResponse(200, accountJson(book.account())));
  app.get("/api/orders", (c) => {
    const since = instantParam("since", c.req.query("since"));
    if (!since.ok) return bad(since.error);
    return jsonResponse(200, {
      as_of: isoInstant(c.env.now),
      orders: book.orders(since.value).map(orderJson),
    });
  });
  app.get("/api/margin-calls", (c) =>
    jsonResponse(200, { as_of: isoInstant(c.env.now), margin_calls: book.marginCalls().map(marginCallJson) }),
  );
  app.notFound(() => jsonResponse(404, { error: "not found: see GET / for the endpoints" }));
  app.onError((e) => {
    throw e;
  });
  return {
    name: EVENTS_HOST,
    title: "PM book events and account API (read-only JSON)",
    writes: "none",
    fetch: (req, env) => app.fetch(req, env),
  };
}
