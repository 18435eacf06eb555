import { Hono } from "hono";
import { isoInstant } from "../../../common/time.js";
import type { HostEnv, WebHost } from "../../../tools/web-host.js";
import type { AsOfView } from "../../../world/as-of-view.js";
import { companiesAsOf } from "./company-as-of.js";
import { esc, htmlResponse, page } from "./html.js";

export const BLOTTER_HOST = "blotter";

export interface Holding {
  ticker: string;
  cik: string;
  name: string;
  /** when the current holding began (ISO) */
  since: string;
}

/**
 * The holdings blotter as of now: the blotter's `holding` events visible now (hold / add / drop),
 * replayed into the current holdings.
 */
export function holdingsAsOf(view: AsOfView) {
  const names = new Map(companiesAsOf(view.filings.companies()).map((c) => [c.cik, c] as const));
  const events = view.broker.events({ kind: "holding" }).flatMap((e) => {
    const p = e.payload as { cik?: unknown; ticker?: unknown; action?: unknown };
    if (typeof p.cik !== "string" || typeof p.action !== "string") return [];
    const ticker = typeof p.ticker === "string" ? p.ticker : (names.get(p.cik)?.ticker ?? "");
    return [{ id: e.id, t: isoInstant(e.t), action: p.action, ticker, cik: p.cik }];
  });
  const held = new Map<string, Holding>();
  for (const e of events) {
    if (e.action === "drop") held.delete(e.cik);
    else if (!held.has(e.cik))
      held.set(e.cik, { ticker: e.ticker, cik: e.cik, name: names.get(e.cik)?.name ?? "", since: e.t });
  }
  const holdings = [...held.values()].sort((a, b) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0));
  return { as_of: isoInstant(view.now()), holdings, events };
}

/**
 * The read-only holdings blotter at `http://blotter.relive.test`: `GET /holdings.json` (JSON:
 * as_of, current holdings, the visible blotter events) and `GET /` (the same as an HTML page).
 */
export function blotterHost(view: AsOfView): WebHost {
  const app = new Hono<{ Bindings: HostEnv }>();
  app.get(
    "/holdings.json",
    () =>
      new Response(JSON.stringify(holdingsAsOf(view)), {
        status: 200,
        headers: { "content-type": "application/json" },
      }),
  );
  app.get("/", (c) => {
    const h = holdingsAsOf(view);
    const rows = h.holdings
      .map(
        (x) =>
          `<tr><td>${esc(x.ticker)}</td><td>${esc(x.cik)}</td><td>${esc(x.name)}</td><td>${esc(x.since)}</td></tr>`,
      )
      .join("");
    const events = h.events
      .map(
        (e) => `<tr><td>${esc(e.t)}</td><td>${esc(e.action)}</td><td>${esc(e.ticker)}</td><td>${esc(e.cik)}</td></tr>`,
      )
      .join("");
    const main = [
      "<h1>Current holdings</h1>",
      h.holdings.length
        ? `<table><thead><tr><th>Ticker</th><th>CIK</th><th>Company</th><th>Held since</th></tr></thead><tbody>${rows}</tbody></table>`
        : "<p>No holdings.</p>",
      "<h2>Blotter</h2>",
      `<table><thead><tr><th>Time (UTC)</th><th>Action</th><th>Ticker</th><th>CIK</th></tr></thead><tbody>${events}</tbody></table>`,
      '<p><a href="/holdings.json">holdings.json</a></p>',
    ].join("\n");
    return htmlResponse(
      200,
      page({ site: "Holdings blotter", title: "Holdings", now: c.env.now, nav: [["/", "Holdings"]], main }),
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
    fetch: (req, env) => app.fetch(req, env),
  };
}
