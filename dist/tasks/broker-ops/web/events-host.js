import { Hono } from "hono";
import { isoInstant } from "../../../kernel/day.js";
import { BOOK_KINDS } from "../book-events.js";
import { jsonResponse } from "./html.js";
import { instantParam, intParam } from "./query.js";
import { accountJson, eventJson, marginCallJson, orderJson } from "./render.js";
const EVENTS_HOST = "events";
const EVENTS_PAGE_DEFAULT = 200;
const EVENTS_PAGE_MAX = 1e3;
const EVENTS_ENDPOINTS = [
  {
    path: "/api/events?since=&kind=&offset=&limit=",
    doc: `book events with t \u2265 since (ISO or epoch ms; default: all), oldest first; kind is one of ${BOOK_KINDS.join(", ")}; paged by offset and limit (default ${EVENTS_PAGE_DEFAULT}, at most ${EVENTS_PAGE_MAX})`
  },
  {
    path: "/api/account",
    doc: "positions, cash, marks (last completed 5-minute close), equity, gross market value, margin ratio, maintenance"
  },
  {
    path: "/api/orders?since=",
    doc: "the PM's day orders placed since `since` (default: the last 24 h) with status open / filled / expired"
  },
  {
    path: "/api/margin-calls",
    doc: "every margin call so far: required amount, deadline, treasury wire when received"
  }
];
function eventsHost(book) {
  const app = new Hono();
  const bad = (error) => jsonResponse(400, { error });
  app.get(
    "/",
    (c) => jsonResponse(200, {
      service: "PM book events and account API (read-only)",
      as_of: isoInstant(c.env.now),
      endpoints: EVENTS_ENDPOINTS
    })
  );
  app.get("/api/events", (c) => {
    const since = instantParam("since", c.req.query("since"));
    if (!since.ok) return bad(since.error);
    const kind = c.req.query("kind");
    if (kind !== void 0 && kind !== "" && !BOOK_KINDS.includes(kind))
      return bad(`kind must be one of ${BOOK_KINDS.join(", ")}`);
    const offset = intParam("offset", c.req.query("offset"), 0, 1e6);
    if (!offset.ok) return bad(offset.error);
    const limit = intParam("limit", c.req.query("limit"), EVENTS_PAGE_DEFAULT, EVENTS_PAGE_MAX);
    if (!limit.ok) return bad(limit.error);
    const all = book.events({
      ...since.value !== void 0 ? { since: since.value } : {},
      ...kind ? { kind } : {}
    });
    const page = all.slice(offset.value, offset.value + limit.value);
    const end = offset.value + page.length;
    return jsonResponse(200, {
      as_of: isoInstant(c.env.now),
      total: all.length,
      offset: offset.value,
      events: page.map(eventJson),
      next_offset: end < all.length ? end : null
    });
  });
  app.get("/api/account", () => jsonResponse(200, accountJson(book.account())));
  app.get("/api/orders", (c) => {
    const since = instantParam("since", c.req.query("since"));
    if (!since.ok) return bad(since.error);
    return jsonResponse(200, {
      as_of: isoInstant(c.env.now),
      orders: book.orders(since.value).map(orderJson)
    });
  });
  app.get(
    "/api/margin-calls",
    (c) => jsonResponse(200, { as_of: isoInstant(c.env.now), margin_calls: book.marginCalls().map(marginCallJson) })
  );
  app.notFound(() => jsonResponse(404, { error: "not found: see GET / for the endpoints" }));
  app.onError((e) => {
    throw e;
  });
  return {
    name: EVENTS_HOST,
    title: "PM book events and account API (read-only JSON)",
    writes: "none",
    fetch: (req, env) => app.fetch(req, env)
  };
}
export {
  EVENTS_ENDPOINTS,
  EVENTS_HOST,
  EVENTS_PAGE_DEFAULT,
  EVENTS_PAGE_MAX,
  eventsHost
};
//# sourceMappingURL=events-host.js.map
