import { Hono } from "hono";
import { isoInstant, isoMinute } from "../../../kernel/day.js";
import { esc, htmlResponse, jsonResponse, page, table } from "./html.js";
import { instantParam, intParam } from "./query.js";
const MAIL_HOST = "mail";
const MAIL_PAGE_DEFAULT = 100;
const MAIL_PAGE_MAX = 500;
const INBOX_PAGE = 50;
const PM_FROM = "pm@northwind-capital.example";
const RISK_FROM = "risk-desk@broker.relive.test";
const money = (x) => x.toFixed(2);
function mailOfEvent(e, to) {
  const base = { id: `pm-${e.id}`, t: e.t, to };
  switch (e.kind) {
    case "fill":
      return {
        ...base,
        from: PM_FROM,
        subject: `Fill: ${e.p.side.toUpperCase()} ${e.p.qty} ${e.p.symbol} @ ${e.p.price} (${e.p.order_id})`,
        body: `My day order ${e.p.order_id} filled at ${isoMinute(e.t)}: ${e.p.side} ${e.p.qty} ${e.p.symbol} at ${e.p.price}. Please handle it per the desk routine.`
      };
    case "margin_call":
      return {
        ...base,
        from: RISK_FROM,
        subject: `Margin call ${e.p.call_id}: ${money(e.p.required_amount)} USD due by ${isoMinute(e.p.deadline)}`,
        body: `Your margin ratio is ${e.p.ratio} (equity ${money(e.p.equity)} USD / gross market value ${money(e.p.gross_market_value)} USD), below the maintenance ratio ${e.p.maintenance}. Required amount: ${money(e.p.required_amount)} USD, deadline ${isoInstant(e.p.deadline)}. Call id ${e.p.call_id}.`
      };
    case "note": {
      const { subject, ...rest } = e.p;
      const text = typeof rest.text === "string" ? rest.text : null;
      const fields = Object.entries(rest).filter(([k]) => k !== "text").map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`).join("; ");
      return { ...base, from: PM_FROM, subject, body: [text, fields].filter((x) => x).join("\n") };
    }
    case "position":
    case "order":
      return null;
    default: {
      const never = e;
      throw new Error(`unknown book event ${JSON.stringify(never)}`);
    }
  }
}
const cmp = (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const mailJson = (m) => ({ ...m, t: isoInstant(m.t) });
function mailHost(book, outbox, mailbox) {
  const app = new Hono();
  const all = (now) => {
    const out = [];
    for (const e of book.events()) {
      const m = mailOfEvent(e, mailbox);
      if (m) out.push(m);
    }
    for (const m of outbox.sentBy(now)) out.push(m);
    return out.sort(cmp);
  };
  const find = (id, now) => all(now).find((m) => m.id === id) ?? null;
  const notFound = (id) => `unknown message id: ${JSON.stringify(id)}`;
  const site = `Mail \xB7 ${mailbox}`;
  const nav = [["/", "Inbox"]];
  app.get("/", (c) => {
    const p = intParam("page", c.req.query("page"), 1, 1e5);
    if (!p.ok || p.value < 1)
      return htmlResponse(
        400,
        page({ site, title: "Bad request", now: c.env.now, nav, main: "<p>page must be an integer \u2265 1</p>" })
      );
    const mails = all(c.env.now).reverse();
    const pages = Math.max(1, Math.ceil(mails.length / INBOX_PAGE));
    const shown = mails.slice((p.value - 1) * INBOX_PAGE, p.value * INBOX_PAGE);
    const rows = shown.map(
      (m) => `<tr><td>${esc(isoMinute(m.t))}</td><td>${esc(m.from)}</td><td><a href="/messages/${esc(m.id)}">${esc(m.subject)}</a></td></tr>`
    ).join("");
    const list = shown.length ? `<table><thead><tr><th>Received (UTC)</th><th>From</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>` : "<p>No messages.</p>";
    const more = [
      p.value > 1 ? `<a href="/?page=${p.value - 1}">Newer</a>` : "",
      p.value < pages ? `<a href="/?page=${p.value + 1}">Older</a>` : ""
    ].filter((x) => x).join(" \xB7 ");
    const main = `<h1>Inbox</h1>
<p>${mails.length} messages, newest first (page ${p.value} of ${pages}).</p>
${list}
${more ? `<p>${more}</p>` : ""}`;
    return htmlResponse(200, page({ site, title: "Inbox", now: c.env.now, nav, main }));
  });
  app.get("/messages/:id", (c) => {
    const id = c.req.param("id");
    const m = find(id, c.env.now);
    if (!m)
      return htmlResponse(
        404,
        page({ site, title: "Not found", now: c.env.now, nav, main: `<p>${esc(notFound(id))}</p>` })
      );
    const main = [
      `<h1>${esc(m.subject)}</h1>`,
      table(["From", "To", "Received (UTC)", "Id"], [[m.from, m.to, isoInstant(m.t), m.id]], ""),
      `<pre>${esc(m.body)}</pre>`
    ].join("\n");
    return htmlResponse(200, page({ site, title: m.subject, now: c.env.now, nav, main }));
  });
  app.get("/api/messages", (c) => {
    const since = instantParam("since", c.req.query("since"));
    if (!since.ok) return jsonResponse(400, { error: since.error });
    const offset = intParam("offset", c.req.query("offset"), 0, 1e6);
    if (!offset.ok) return jsonResponse(400, { error: offset.error });
    const limit = intParam("limit", c.req.query("limit"), MAIL_PAGE_DEFAULT, MAIL_PAGE_MAX);
    if (!limit.ok) return jsonResponse(400, { error: limit.error });
    const from = since.value;
    const mails = all(c.env.now).filter((m) => from === void 0 || m.t >= from);
    const shown = mails.slice(offset.value, offset.value + limit.value);
    const end = offset.value + shown.length;
    return jsonResponse(200, {
      as_of: isoInstant(c.env.now),
      mailbox,
      total: mails.length,
      offset: offset.value,
      messages: shown.map(mailJson),
      next_offset: end < mails.length ? end : null
    });
  });
  app.get("/api/messages/:id", (c) => {
    const id = c.req.param("id");
    const m = find(id, c.env.now);
    return m ? jsonResponse(200, mailJson(m)) : jsonResponse(404, { error: notFound(id) });
  });
  app.notFound(
    (c) => c.req.path.startsWith("/api/") ? jsonResponse(404, { error: "not found: GET /api/messages or /api/messages/<id>" }) : htmlResponse(404, page({ site, title: "Not found", now: c.env.now, nav, main: "<p>Not found.</p>" }))
  );
  app.onError((e) => {
    throw e;
  });
  return {
    name: MAIL_HOST,
    title: `the desk's mailbox ${mailbox}: PM notes, margin call notices, one-time sign-in codes (read-only)`,
    writes: "none",
    fetch: (req, env) => app.fetch(req, env)
  };
}
export {
  MAIL_HOST,
  MAIL_PAGE_DEFAULT,
  MAIL_PAGE_MAX,
  mailHost,
  mailOfEvent
};
//# sourceMappingURL=mail-host.js.map
