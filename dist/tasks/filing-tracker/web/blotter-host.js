import { Hono } from "hono";
import { isoInstant } from "../../../kernel/day.js";
import { esc, htmlResponse, page } from "./html.js";
const BLOTTER_HOST = "blotter";
function holdingsAsOf(view) {
  const names = new Map(view.filings.companies().map((c) => [c.cik, c]));
  const events = view.broker.events({ kind: "holding" }).flatMap((e) => {
    const p = e.payload;
    if (typeof p.cik !== "string" || typeof p.action !== "string") return [];
    const ticker = typeof p.ticker === "string" ? p.ticker : names.get(p.cik)?.ticker ?? "";
    return [{ id: e.id, t: isoInstant(e.t), action: p.action, ticker, cik: p.cik }];
  });
  const held = /* @__PURE__ */ new Map();
  for (const e of events) {
    if (e.action === "drop") held.delete(e.cik);
    else if (!held.has(e.cik))
      held.set(e.cik, { ticker: e.ticker, cik: e.cik, name: names.get(e.cik)?.name ?? "", since: e.t });
  }
  const holdings = [...held.values()].sort((a, b) => a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0);
  return { as_of: isoInstant(view.now()), holdings, events };
}
function blotterHost(view) {
  const app = new Hono();
  app.get(
    "/holdings.json",
    () => new Response(JSON.stringify(holdingsAsOf(view)), {
      status: 200,
      headers: { "content-type": "application/json" }
    })
  );
  app.get("/", (c) => {
    const h = holdingsAsOf(view);
    const rows = h.holdings.map(
      (x) => `<tr><td>${esc(x.ticker)}</td><td>${esc(x.cik)}</td><td>${esc(x.name)}</td><td>${esc(x.since)}</td></tr>`
    ).join("");
    const events = h.events.map(
      (e) => `<tr><td>${esc(e.t)}</td><td>${esc(e.action)}</td><td>${esc(e.ticker)}</td><td>${esc(e.cik)}</td></tr>`
    ).join("");
    const main = [
      "<h1>Current holdings</h1>",
      h.holdings.length ? `<table><thead><tr><th>Ticker</th><th>CIK</th><th>Company</th><th>Held since</th></tr></thead><tbody>${rows}</tbody></table>` : "<p>No holdings.</p>",
      "<h2>Blotter</h2>",
      `<table><thead><tr><th>Time (UTC)</th><th>Action</th><th>Ticker</th><th>CIK</th></tr></thead><tbody>${events}</tbody></table>`,
      '<p><a href="/holdings.json">holdings.json</a></p>'
    ].join("\n");
    return htmlResponse(
      200,
      page({ site: "Holdings blotter", title: "Holdings", now: c.env.now, nav: [["/", "Holdings"]], main })
    );
  });
  app.notFound(() => new Response("not found", { status: 404, headers: { "content-type": "text/plain" } }));
  app.onError((e) => {
    throw e;
  });
  return {
    name: BLOTTER_HOST,
    title: "holdings blotter: which companies you hold (read-only)",
    writes: "none",
    fetch: (req, env) => app.fetch(req, env)
  };
}
export {
  BLOTTER_HOST,
  blotterHost,
  holdingsAsOf
};
//# sourceMappingURL=blotter-host.js.map
