import type { Context } from "hono";
import { Hono } from "hono";
import { generateCookie, getCookie } from "hono/cookie";
import { isoInstant, isoMinute } from "../../../common/time.js";
import type { HostEnv, WebHost } from "../../../tools/web-host.js";
import type { BookView } from "../book-view.js";
import {
  bodyFields,
  FUNDING_API_PATH,
  FUNDING_FORM_PATH,
  FundingInput,
  fieldErrors,
  STOP_API_PATH,
  STOP_FORM_PATH,
  StopInput,
} from "../instructions.js";
import type { DeskRecords, FundingRecord, StopRecord } from "./desk-records.js";
import { esc, htmlResponse, jsonResponse, page, table } from "./html.js";
import { mailOfEvent } from "./mail-host.js";
import { intParam } from "./query.js";
import { accountJson, marginCallJson, orderJson } from "./render.js";
import type { Session, SignInDesk } from "./sign-in.js";

export const BROKER_HOST = "broker";
export const SID_COOKIE = "sid";
export const PENDING_COOKIE = "pending";
/** form and JSON fields whose values never appear in request logs */
export const BROKER_REDACT: readonly string[] = ["password", "code"];
export const LOGIN_PATH = "/login";
export const CODE_PATH = "/login/code";
export const SESSION_API_PATH = "/api/session";
export const CODE_API_PATH = "/api/session/code";
export const SIGN_OUT_API_PATH = "/api/session/end";
const NOTICES_PAGE = 50;

export interface BrokerSite {
  desk: SignInDesk;
  records: DeskRecords;
  book: BookView;
  username: string;
  mailbox: string;
  /** the book's asset codes (the stop form's choices) */
  assets: readonly string[];
}

type C = Context<{ Bindings: HostEnv }>;

const cookie = (name: string, value: string) =>
  generateCookie(name, value, { path: "/", httpOnly: true, sameSite: "Lax" });
const clearCookie = (name: string) => generateCookie(name, "", { path: "/", maxAge: 0 });

const NAV: [string, string][] = [
  ["/", "Account"],
  ["/positions", "Positions"],
  ["/orders", "Orders"],
  ["/notices", "Notices"],
  ["/risk", "Risk desk"],
];
const SITE = "Broker";

const signOutForm = '<form method="post" action="/logout"><p><button type="submit">Sign out</button></p></form>';

const loginForm = (error: string | null, username = "") =>
  [
    "<h1>Sign in</h1>",
    error ? `<p role="alert">${esc(error)}</p>` : "",
    `<form method="post" action="${LOGIN_PATH}">`,
    `<p><label>Username <input name="username" autocomplete="username" value="${esc(username)}"></label></p>`,
    '<p><label>Password <input type="password" name="password" autocomplete="current-password"></label></p>',
    '<p><button type="submit">Sign in</button></p>',
    "</form>",
    "<p>Signing in takes your password and then a one-time code mailed to the desk's mailbox.</p>",
  ].join("\n");

const codeForm = (note: string, error: string | null) =>
  [
    "<h1>Enter your one-time code</h1>",
    error ? `<p role="alert">${esc(error)}</p>` : "",
    `<p>${esc(note)}</p>`,
    `<form method="post" action="${CODE_PATH}">`,
    '<p><label>Code <input name="code" inputmode="numeric" autocomplete="one-time-code"></label></p>',
    '<p><button type="submit">Verify</button></p>',
    "</form>",
  ].join("\n");

const fmt = (x: number | null) => (x === null ? "n/a" : String(x));

/**
 * The writable, login-gated broker site at `http://broker.relive.test` (tasks.md §8): the account
 * and positions, the PM's orders and the desk's protective stops, notices, and the risk desk
 * (margin calls, funding instructions). Sign-in = password, then a one-time code mailed to the
 * desk; sessions live on simulated time (SignInDesk). HTML pages for the browser and a JSON API
 * (`/api/...`) for the site's API tools; who may write is `writes` (WebHostSet refuses everyone else
 * before this handler runs). Signed-out page requests are sent to `/login` (303), signed-out API
 * requests and form posts get 401.
 */
export function brokerHost(site: BrokerSite, writes: "browser" | "tool"): WebHost {
  const { desk, records, book } = site;
  const app = new Hono<{ Bindings: HostEnv }>();
  const session = (c: C): Session | null => desk.touch(getCookie(c, SID_COOKIE), c.env.now);
  const fields = async (c: C) => bodyFields(await c.req.text(), c.req.header("content-type") ?? "");
  const html = (c: C, status: number, title: string, main: string, o: { nav?: boolean; cookies?: string[] } = {}) =>
    htmlResponse(
      status,
      page({ site: SITE, title, now: c.env.now, nav: o.nav === false ? [] : NAV, main }),
      o.cookies ?? [],
    );
  const signedOutHtml = (c: C) =>
    html(
      c,
      401,
      "Not signed in",
      `<h1>Not signed in</h1>\n<p>You are not signed in or your session has expired. <a href="${LOGIN_PATH}">Sign in</a> again.</p>`,
      { nav: false },
    );
  const signedOutJson = () => jsonResponse(401, { error: "not signed in (or the session expired): sign in again" });
  const sessionLine = (s: Session) =>
    `<p>Signed in as ${esc(site.username)}. Your session ends at ${esc(isoMinute(desk.expiresAt(s)))} unless you make a ` +
    `request before (sessions end after ${desk.rules.session_idle_ms / 60_000} idle minutes and always at 00:00 UTC).</p>`;

  // ---- pages -------------------------------------------------------------------------------
  const accountTable = () => {
    const a = book.account();
    const rows = Object.keys(a.positions).map((k) => [
      k,
      a.positions[k] ?? 0,
      fmt(a.marks[k]?.price ?? null),
      a.marks[k] ? isoMinute(a.marks[k].as_of) : "n/a",
      fmt(a.market_value[k] ?? null),
    ]);
    return [
      table(["Asset", "Position", "Mark", "Mark as of (UTC)", "Market value (USD)"], rows, "No positions."),
      table(
        ["Cash (USD)", "Equity (USD)", "Gross market value (USD)", "Margin ratio", "Maintenance"],
        [[a.cash, fmt(a.equity), fmt(a.gross_market_value), fmt(a.margin_ratio), a.maintenance]],
        "",
      ),
    ].join("\n");
  };
  const stopsTable = (stops: readonly StopRecord[]) =>
    table(
      ["Id", "Submitted (UTC)", "Asset", "Side", "Qty", "Trigger price", "Mark at submission"],
      [...stops]
        .reverse()
        .map((s) => [s.id, isoMinute(s.submitted_at), s.symbol, s.side, s.qty, s.trigger_price, fmt(s.mark)]),
      "No stop orders yet.",
    );
  const fundingTable = (fs: readonly FundingRecord[]) =>
    table(
      ["Id", "Submitted (UTC)", "Margin call", "Amount (USD)"],
      [...fs].reverse().map((f) => [f.id, isoMinute(f.submitted_at), f.call_id, f.amount]),
      "No funding instructions yet.",
    );
  const stopForm = (values: Record<string, unknown>, errors: string[]) => {
    const v = (k: string) => esc(typeof values[k] === "string" ? (values[k] as string) : "");
    const marks = site.assets.map((a) => `${a} ${fmt(book.mark(a)?.price ?? null)}`).join(", ");
    const opt = (name: string, options: readonly string[]) =>
      options
        .map((o) => `<option value="${esc(o)}"${values[name] === o ? " selected" : ""}>${esc(o)}</option>`)
        .join("");
    return [
      errors.length ? `<ul role="alert">${errors.map((e) => `<li>${esc(e)}</li>`).join("")}</ul>` : "",
      `<p>Marks now: ${esc(marks)}.</p>`,
      `<form method="post" action="${STOP_FORM_PATH}">`,
      `<p><label>Asset <select name="symbol">${opt("symbol", site.assets)}</select></label></p>`,
      `<p><label>Side <select name="side">${opt("side", ["sell", "buy"])}</select></label></p>`,
      `<p><label>Quantity <input name="qty" value="${v("qty")}"></label></p>`,
      `<p><label>Trigger price (USD) <input name="trigger_price" value="${v("trigger_price")}"></label></p>`,
      '<p><button type="submit">Place stop order</button></p>',
      "</form>",
    ].join("\n");
  };
  const fundingForm = (values: Record<string, unknown>, errors: string[]) => {
    const calls = book.marginCalls().reverse();
    const options = calls
      .map(
        (m) =>
          `<option value="${esc(m.call_id)}"${values.call_id === m.call_id ? " selected" : ""}>${esc(
            `${m.call_id}: ${m.required_amount.toFixed(2)} USD due ${isoMinute(m.deadline)}`,
          )}</option>`,
      )
      .join("");
    const amount = typeof values.amount === "string" ? values.amount : "";
    return [
      errors.length ? `<ul role="alert">${errors.map((e) => `<li>${esc(e)}</li>`).join("")}</ul>` : "",
      calls.length === 0 ? "<p>There is no margin call to fund.</p>" : "",
      `<form method="post" action="${FUNDING_FORM_PATH}">`,
      `<p><label>Margin call <select name="call_id">${options}</select></label></p>`,
      `<p><label>Amount (USD) <input name="amount" value="${esc(amount)}"></label></p>`,
      '<p><button type="submit">Send funding instruction</button></p>',
      "</form>",
    ].join("\n");
  };

  /** a page that needs a session: 303 to the sign-in page without one */
  const gated = (path: string, render: (c: C, s: Session) => Response) =>
    app.get(path, (c) => {
      const s = session(c);
      return s ? render(c, s) : new Response(null, { status: 303, headers: { location: LOGIN_PATH } });
    });

  app.get(LOGIN_PATH, (c) => html(c, 200, "Sign in", loginForm(null), { nav: false }));
  app.post(LOGIN_PATH, async (c) => {
    const f = (await fields(c)) ?? {};
    const username = typeof f.username === "string" ? f.username : "";
    const r = desk.signIn(username, typeof f.password === "string" ? f.password : "", c.env.now);
    if (!r.ok) return html(c, r.status, "Sign in", loginForm(r.error, username), { nav: false });
    const note = `We mailed a one-time code to ${site.mailbox} at ${isoMinute(c.env.now)}. It is valid until ${isoMinute(r.code_expires)}.`;
    return html(c, 200, "One-time code", codeForm(note, null), {
      nav: false,
      cookies: [cookie(PENDING_COOKIE, r.pending)],
    });
  });
  app.post(CODE_PATH, async (c) => {
    const f = (await fields(c)) ?? {};
    const r = desk.verify(getCookie(c, PENDING_COOKIE), typeof f.code === "string" ? f.code : "", c.env.now);
    if (!r.ok) {
      const main =
        r.status === 401 && !r.error.startsWith("The code has expired")
          ? codeForm("Enter the code from the latest sign-in mail.", r.error)
          : loginForm(r.error);
      return html(c, r.status, "Sign in", main, { nav: false });
    }
    const main = `<h1>Account</h1>\n<p>You are signed in.</p>\n${sessionLine(r.session)}\n${accountTable()}\n${signOutForm}`;
    return html(c, 200, "Account", main, {
      cookies: [cookie(SID_COOKIE, r.session.id), clearCookie(PENDING_COOKIE)],
    });
  });
  app.post("/logout", (c) => {
    desk.signOut(getCookie(c, SID_COOKIE));
    return html(c, 200, "Signed out", `<h1>Signed out</h1>\n<p><a href="${LOGIN_PATH}">Sign in</a></p>`, {
      nav: false,
      cookies: [clearCookie(SID_COOKIE)],
    });
  });

  gated("/", (c, s) =>
    html(c, 200, "Account", `<h1>Account</h1>\n${sessionLine(s)}\n${accountTable()}\n${signOutForm}`),
  );
  gated("/positions", (c) => html(c, 200, "Positions", `<h1>Positions</h1>\n${accountTable()}`));
  gated("/orders", (c) => {
    const orders = book
      .orders()
      .reverse()
      .map((o) => [
        o.order_id,
        isoMinute(o.placed_at),
        o.symbol,
        o.side,
        o.qty,
        o.limit_price,
        o.status,
        o.filled_at === null ? "" : isoMinute(o.filled_at),
        fmt(o.fill_price),
      ]);
    const main = [
      "<h1>Orders</h1>",
      "<h2>PM day orders (last 24 hours)</h2>",
      table(
        ["Order", "Placed (UTC)", "Asset", "Side", "Qty", "Limit", "Status", "Filled at (UTC)", "Fill price"],
        orders,
        "No PM orders in the last 24 hours.",
      ),
      "<h2>Your stop orders</h2>",
      '<p><a href="/orders/new-stop">Place a protective stop</a></p>',
      stopsTable(records.stops),
    ].join("\n");
    return html(c, 200, "Orders", main);
  });
  gated("/orders/new-stop", (c) => html(c, 200, "New stop order", `<h1>Place a stop order</h1>\n${stopForm({}, [])}`));
  gated("/notices", (c) => {
    const p = intParam("page", c.req.query("page"), 1, 100_000);
    const n = p.ok && p.value >= 1 ? p.value : 1;
    const notes = book
      .events()
      .flatMap((e) => {
        const m = mailOfEvent(e, site.mailbox);
        return m ? [[isoMinute(m.t), m.from, m.subject]] : [];
      })
      .reverse();
    const pages = Math.max(1, Math.ceil(notes.length / NOTICES_PAGE));
    const more = [
      n > 1 ? `<a href="/notices?page=${n - 1}">Newer</a>` : "",
      n < pages ? `<a href="/notices?page=${n + 1}">Older</a>` : "",
    ]
      .filter((x) => x)
      .join(" · ");
    const main = [
      "<h1>Notices</h1>",
      `<p>${notes.length} notices, newest first (page ${n} of ${pages}).</p>`,
      table(["Time (UTC)", "From", "Notice"], notes.slice((n - 1) * NOTICES_PAGE, n * NOTICES_PAGE), "No notices."),
      more ? `<p>${more}</p>` : "",
    ].join("\n");
    return html(c, 200, "Notices", main);
  });
  gated("/risk", (c) => {
    const a = book.account();
    const calls = book
      .marginCalls()
      .reverse()
      .map((m) => [
        m.call_id,
        isoMinute(m.issued_at),
        m.ratio,
        m.maintenance,
        m.required_amount.toFixed(2),
        isoMinute(m.deadline),
        m.wired_at === null ? "" : isoMinute(m.wired_at),
        records.funding
          .filter((f) => f.call_id === m.call_id)
          .map((f) => `${f.id} ${f.amount}`)
          .join(", "),
      ]);
    const main = [
      "<h1>Risk desk</h1>",
      `<p>Margin ratio ${fmt(a.margin_ratio)} (equity ${fmt(a.equity)} USD / gross market value ${fmt(a.gross_market_value)} USD); maintenance ${a.maintenance}.</p>`,
      "<h2>Margin calls</h2>",
      table(
        [
          "Call",
          "Issued (UTC)",
          "Ratio",
          "Maintenance",
          "Required (USD)",
          "Deadline (UTC)",
          "Treasury wire (UTC)",
          "Your funding instructions",
        ],
        calls,
        "No margin calls.",
      ),
      '<p><a href="/risk/funding/new">Send a funding instruction</a></p>',
      "<h2>Your funding instructions</h2>",
      fundingTable(records.funding),
    ].join("\n");
    return html(c, 200, "Risk desk", main);
  });
  gated("/risk/funding/new", (c) =>
    html(c, 200, "Funding instruction", `<h1>Send a funding instruction</h1>\n${fundingForm({}, [])}`),
  );

  // ---- instructions (form posts and API) ----------------------------------------------------
  type Made<T> = { ok: true; record: T } | { ok: false; errors: string[]; values: Record<string, unknown> };
  const makeStop = (f: Record<string, unknown> | null, now: number): Made<StopRecord> => {
    const values = f ?? {};
    const parsed = StopInput.safeParse(values);
    if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error), values };
    if (!site.assets.includes(parsed.data.symbol))
      return { ok: false, errors: [`symbol must be one of ${site.assets.join(", ")}`], values };
    return { ok: true, record: records.addStop(parsed.data, now, book.mark(parsed.data.symbol)?.price ?? null) };
  };
  const makeFunding = (f: Record<string, unknown> | null, now: number): Made<FundingRecord> => {
    const values = f ?? {};
    const parsed = FundingInput.safeParse(values);
    if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error), values };
    if (!book.marginCalls().some((m) => m.call_id === parsed.data.call_id))
      return { ok: false, errors: [`unknown margin call id: ${JSON.stringify(parsed.data.call_id)}`], values };
    return { ok: true, record: records.addFunding(parsed.data, now) };
  };
  const stopJson = (s: StopRecord) => ({ ...s, submitted_at: isoInstant(s.submitted_at) });
  const fundingJson = (f: FundingRecord) => ({ ...f, submitted_at: isoInstant(f.submitted_at) });

  app.post(STOP_FORM_PATH, async (c) => {
    if (!session(c)) return signedOutHtml(c);
    const r = makeStop(await fields(c), c.env.now);
    if (!r.ok)
      return html(c, 400, "Stop order not placed", `<h1>Stop order not placed</h1>\n${stopForm(r.values, r.errors)}`);
    const s = r.record;
    const main = [
      "<h1>Stop order placed</h1>",
      `<p>Stop order ${esc(s.id)} placed at ${esc(isoMinute(s.submitted_at))}: ${esc(s.side)} ${esc(s.qty)} ${esc(s.symbol)}, trigger ${esc(s.trigger_price)} (mark ${esc(fmt(s.mark))}).</p>`,
      stopsTable([s]),
      '<p><a href="/orders">Orders</a> · <a href="/orders/new-stop">Place another stop</a></p>',
    ].join("\n");
    return html(c, 201, "Stop order placed", main);
  });
  app.post(FUNDING_FORM_PATH, async (c) => {
    if (!session(c)) return signedOutHtml(c);
    const r = makeFunding(await fields(c), c.env.now);
    if (!r.ok)
      return html(
        c,
        400,
        "Funding instruction not sent",
        `<h1>Funding instruction not sent</h1>\n${fundingForm(r.values, r.errors)}`,
      );
    const f = r.record;
    const main = [
      "<h1>Funding instruction sent</h1>",
      `<p>Funding instruction ${esc(f.id)} sent at ${esc(isoMinute(f.submitted_at))}: ${esc(f.amount)} USD for margin call ${esc(f.call_id)}.</p>`,
      fundingTable([f]),
      '<p><a href="/risk">Risk desk</a></p>',
    ].join("\n");
    return html(c, 201, "Funding instruction sent", main);
  });

  // ---- JSON API -----------------------------------------------------------------------------
  app.post(SESSION_API_PATH, async (c) => {
    const f = await fields(c);
    if (!f || typeof f.username !== "string" || typeof f.password !== "string")
      return jsonResponse(400, { error: "body must be JSON {username, password}" });
    const r = desk.signIn(f.username, f.password, c.env.now);
    if (!r.ok) return jsonResponse(r.status, { error: r.error });
    return jsonResponse(
      200,
      { status: "code_sent", mailbox: site.mailbox, mail_id: r.mail_id, code_expires_at: isoInstant(r.code_expires) },
      [cookie(PENDING_COOKIE, r.pending)],
    );
  });
  app.post(CODE_API_PATH, async (c) => {
    const f = await fields(c);
    if (!f || typeof f.code !== "string") return jsonResponse(400, { error: "body must be JSON {code}" });
    const r = desk.verify(getCookie(c, PENDING_COOKIE), f.code, c.env.now);
    if (!r.ok) return jsonResponse(r.status, { error: r.error });
    return jsonResponse(
      200,
      {
        signed_in: true,
        username: site.username,
        expires_at: isoInstant(desk.expiresAt(r.session)),
        ends_at: isoInstant(r.session.endsAt),
      },
      [cookie(SID_COOKIE, r.session.id), clearCookie(PENDING_COOKIE)],
    );
  });
  app.post(SIGN_OUT_API_PATH, (c) => {
    desk.signOut(getCookie(c, SID_COOKIE));
    return jsonResponse(200, { signed_out: true }, [clearCookie(SID_COOKIE)]);
  });
  const gatedJson = (path: string, render: (c: C, s: Session) => unknown) =>
    app.get(path, (c) => {
      const s = session(c);
      return s ? jsonResponse(200, render(c, s)) : signedOutJson();
    });
  app.get(SESSION_API_PATH, (c) => {
    const s = session(c);
    return jsonResponse(
      200,
      s
        ? {
            signed_in: true,
            username: site.username,
            expires_at: isoInstant(desk.expiresAt(s)),
            ends_at: isoInstant(s.endsAt),
          }
        : { signed_in: false },
    );
  });
  gatedJson("/api/account", () => accountJson(book.account()));
  gatedJson("/api/orders", (c) => ({
    as_of: isoInstant(c.env.now),
    pm_orders: book.orders().map(orderJson),
    stops: records.stops.map(stopJson),
  }));
  gatedJson("/api/margin-calls", (c) => ({
    as_of: isoInstant(c.env.now),
    margin_calls: book.marginCalls().map(marginCallJson),
    funding: records.funding.map(fundingJson),
  }));
  app.post(STOP_API_PATH, async (c) => {
    if (!session(c)) return signedOutJson();
    const r = makeStop(await fields(c), c.env.now);
    return r.ok ? jsonResponse(201, { stop: stopJson(r.record) }) : jsonResponse(400, { error: r.errors.join("; ") });
  });
  app.post(FUNDING_API_PATH, async (c) => {
    if (!session(c)) return signedOutJson();
    const r = makeFunding(await fields(c), c.env.now);
    return r.ok
      ? jsonResponse(201, { funding: fundingJson(r.record) })
      : jsonResponse(400, { error: r.errors.join("; ") });
  });

  app.notFound((c) =>
    c.req.path.startsWith("/api/")
      ? jsonResponse(404, { error: "not found" })
      : htmlResponse(
          404,
          page({ site: SITE, title: "Not found", now: c.env.now, nav: NAV, main: "<h1>Not found</h1>" }),
        ),
  );
  app.onError((e) => {
    throw e;
  });
  return {
    name: BROKER_HOST,
    title: "the broker site: account, positions, orders, notices, risk desk (sign-in required; writable)",
    writes,
    redact: BROKER_REDACT,
    fetch: (req, env) => app.fetch(req, env),
  };
}
