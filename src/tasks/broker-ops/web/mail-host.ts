import { Hono } from "hono";
import { isoInstant, isoMinute } from "../../../common/time.js";
import type { HostEnv, WebHost } from "../../../tools/web-host.js";
import type { BookEvent } from "../book-events.js";
import { insertSorted, mergeSorted } from "../book-log.js";
import type { BookView } from "../book-view.js";
import { esc, htmlResponse, jsonResponse, page, table } from "./html.js";
import type { Outbox } from "./outbox.js";
import { instantParam, intParam } from "./query.js";

export const MAIL_HOST = "mail";
export const MAIL_PAGE_DEFAULT = 100;
export const MAIL_PAGE_MAX = 500;
const INBOX_PAGE = 50;

export interface Mail {
  id: string;
  t: number;
  from: string;
  to: string;
  subject: string;
  body: string;
}

const PM_FROM = "pm@northwind-capital.example";
const RISK_FROM = "risk-desk@broker.relive.test";

const money = (x: number) => x.toFixed(2);

/** The mail a book event sends to the desk (PM notes, fill confirmations, margin call notices); null for none. */
export function mailOfEvent(e: BookEvent, to: string): Mail | null {
  const base = { id: `pm-${e.id}`, t: e.t, to };
  switch (e.kind) {
    case "fill":
      return {
        ...base,
        from: PM_FROM,
        subject: `Fill: ${e.p.side.toUpperCase()} ${e.p.qty} ${e.p.symbol} @ ${e.p.price} (${e.p.order_id})`,
        body:
          `My day order ${e.p.order_id} filled at ${isoMinute(e.t)}: ${e.p.side} ${e.p.qty} ${e.p.symbol} at ${e.p.price}. ` +
          "Please handle it per the desk routine.",
      };
    case "margin_call":
      return {
        ...base,
        from: RISK_FROM,
        subject: `Margin call ${e.p.call_id}: ${money(e.p.required_amount)} USD due by ${isoMinute(e.p.deadline)}`,
        body:
          `Your margin ratio is ${e.p.ratio} (equity ${money(e.p.equity)} USD / gross market value ` +
          `${money(e.p.gross_market_value)} USD), below the maintenance ratio ${e.p.maintenance}. Required amount: ` +
          `${money(e.p.required_amount)} USD, deadline ${isoInstant(e.p.deadline)}. Call id ${e.p.call_id}.`,
      };
    case "note": {
      const { subject, ...rest } = e.p;
      const text = typeof rest.text === "string" ? rest.text : null;
      const fields = Object.entries(rest)
        .filter(([k]) => k !== "text")
        .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`)
        .join("; ");
      return { ...base, from: PM_FROM, subject, body: [text, fields].filter((x) => x).join("\n") };
    }
    case "position":
    case "order":
      return null;
    default: {
      const never: never = e;
      throw new Error(`unknown book event ${JSON.stringify(never)}`);
    }
  }
}

const cmp = (a: Mail, b: Mail) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const mailJson = (m: Mail) => ({ ...m, t: isoInstant(m.t) });

/**
 * The desk's read-only mailbox at `http://mail.relive.test`: PM notes and fill confirmations, the
 * risk desk's margin call notices (from the world's book, as of now) and the broker site's one-time
 * sign-in codes (from the run's outbox, from their sending instant). HTML inbox at `/`, one message
 * at `/messages/<id>`; JSON at `/api/messages` (oldest first, paged) and `/api/messages/<id>`.
 * Unknown and not-yet-sent ids get the same 404.
 */
export function mailHost(book: BookView, outbox: Outbox, mailbox: string): WebHost {
  const app = new Hono<{ Bindings: HostEnv }>();
  // the book's mails, kept incrementally from the book log's arrivals (rebuilt when the log starts over)
  let gen = -1;
  let seen = 0;
  let bookMails: Mail[] = [];
  const all = (now: number): Mail[] => {
    const g = book.log.generation();
    if (g !== gen) {
      gen = g;
      seen = 0;
      bookMails = [];
    }
    const fresh = book.log.arrivalsFrom(seen);
    seen += fresh.length;
    for (const { e } of fresh) {
      const m = mailOfEvent(e, mailbox);
      if (m) insertSorted(bookMails, m, cmp);
    }
    return mergeSorted(bookMails, outbox.sentBy(now).sort(cmp), cmp);
  };
  const find = (id: string, now: number) => all(now).find((m) => m.id === id) ?? null;
  const notFound = (id: string) => `unknown message id: ${JSON.stringify(id)}`;
  const site = `Mail · ${mailbox}`;
  const nav: [string, string][] = [["/", "Inbox"]];

  app.get("/", (c) => {
    const p = intParam("page", c.req.query("page"), 1, 100_000);
    if (!p.ok || p.value < 1)
      return htmlResponse(
        400,
        page({ site, title: "Bad request", now: c.env.now, nav, main: "<p>page must be an integer ≥ 1</p>" }),
      );
    const mails = all(c.env.now).reverse();
    const pages = Math.max(1, Math.ceil(mails.length / INBOX_PAGE));
    const shown = mails.slice((p.value - 1) * INBOX_PAGE, p.value * INBOX_PAGE);
    const rows = shown
      .map(
        (m) =>
          `<tr><td>${esc(isoMinute(m.t))}</td><td>${esc(m.from)}</td><td><a href="/messages/${esc(m.id)}">${esc(m.subject)}</a></td></tr>`,
      )
      .join("");
    const list = shown.length
      ? `<table><thead><tr><th>Received (UTC)</th><th>From</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`
      : "<p>No messages.</p>";
    const more = [
      p.value > 1 ? `<a href="/?page=${p.value - 1}">Newer</a>` : "",
      p.value < pages ? `<a href="/?page=${p.value + 1}">Older</a>` : "",
    ]
      .filter((x) => x)
      .join(" · ");
    const main = `<h1>Inbox</h1>\n<p>${mails.length} messages, newest first (page ${p.value} of ${pages}).</p>\n${list}\n${more ? `<p>${more}</p>` : ""}`;
    return htmlResponse(200, page({ site, title: "Inbox", now: c.env.now, nav, main }));
  });
  app.get("/messages/:id", (c) => {
    const id = c.req.param("id");
    const m = find(id, c.env.now);
    if (!m)
      return htmlResponse(
        404,
        page({ site, title: "Not found", now: c.env.now, nav, main: `<p>${esc(notFound(id))}</p>` }),
      );
    const main = [
      `<h1>${esc(m.subject)}</h1>`,
      table(["From", "To", "Received (UTC)", "Id"], [[m.from, m.to, isoInstant(m.t), m.id]], ""),
      `<pre>${esc(m.body)}</pre>`,
    ].join("\n");
    return htmlResponse(200, page({ site, title: m.subject, now: c.env.now, nav, main }));
  });
  app.get("/api/messages", (c) => {
    const since = instantParam("since", c.req.query("since"));
    if (!since.ok) return jsonResponse(400, { error: since.error });
    const offset = intParam("offset", c.req.query("offset"), 0, 1_000_000);
    if (!offset.ok) return jsonResponse(400, { error: offset.error });
    const limit = intParam("limit", c.req.query("limit"), MAIL_PAGE_DEFAULT, MAIL_PAGE_MAX);
    if (!limit.ok) return jsonResponse(400, { error: limit.error });
    const from = since.value;
    const mails = all(c.env.now).filter((m) => from === undefined || m.t >= from);
    const shown = mails.slice(offset.value, offset.value + limit.value);
    const end = offset.value + shown.length;
    return jsonResponse(200, {
      as_of: isoInstant(c.env.now),
      mailbox,
      total: mails.length,
      offset: offset.value,
      messages: shown.map(mailJson),
      next_offset: end < mails.length ? end : null,
    });
  });
  app.get("/api/messages/:id", (c) => {
    const id = c.req.param("id");
    const m = find(id, c.env.now);
    return m ? jsonResponse(200, mailJson(m)) : jsonResponse(404, { error: notFound(id) });
  });
  app.notFound((c) =>
    c.req.path.startsWith("/api/")
      ? jsonResponse(404, { error: "not found: GET /api/messages or /api/messages/<id>" })
      : htmlResponse(404, page({ site, title: "Not found", now: c.env.now, nav, main: "<p>Not found.</p>" })),
  );
  app.onError((e) => {
    throw e;
  });
  return {
    name: MAIL_HOST,
    title: `the desk's mailbox ${mailbox}: PM notes, margin call notices, one-time sign-in codes (read-only)`,
    writes: "none",
    fetch: (req, env) => app.fetch(req, env),
  };
}
