import { Hono } from "hono";
import { isoInstant } from "../../../common/time.js";
import type { HostEnv, WebHost, WriteAccess } from "../../../tools/web-host.js";
import {
  FISCAL_PERIODS,
  type FilingRecord,
  parseRecord,
  parseRecordForm,
  RECORD_FORMS,
  recordJson,
  recordKey,
} from "../filing-record.js";
import { esc, htmlResponse, page } from "./html.js";

export const PORTAL_HOST = "portal";
/** the form's target and the API's collection */
export const PORTAL_FORM_PATH = "/filings";
export const PORTAL_API_PATH = "/api/filings";

interface Saved {
  record: FilingRecord;
  saved_at: number;
  saves: number;
}

/** The portal's rows for one run (rebuilt by re-running the episode on resume). */
export class PortalStore {
  private readonly rows = new Map<string, Saved>();

  save(record: FilingRecord, t: number): Saved {
    const key = recordKey(record);
    const s = { record, saved_at: t, saves: (this.rows.get(key)?.saves ?? 0) + 1 };
    this.rows.set(key, s);
    return s;
  }

  /** rows ordered by (ticker, accession) */
  list(): Saved[] {
    return [...this.rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
  }
}

const savedJson = (s: Saved) => ({ ...recordJson(s.record), saved_at: isoInstant(s.saved_at), saves: s.saves });

const NAV: [string, string][] = [
  ["/", "Records"],
  ["/filings/new", "New record"],
];

const fmt = (v: number | null) => (v === null ? "" : String(v));

function formHtml(values: Record<string, string>, errors: string[]): string {
  const v = (k: string) => esc(values[k] ?? "");
  const select = (name: string, label: string, options: readonly string[]) =>
    `<p><label>${label} <select name="${name}">${options
      .map(
        (o) =>
          `<option value="${esc(o)}"${values[name] === o ? " selected" : ""}>${o === "" ? "(none)" : esc(o)}</option>`,
      )
      .join("")}</select></label></p>`;
  const input = (name: string, label: string, hint: string) =>
    `<p><label>${label} <input name="${name}" value="${v(name)}" placeholder="${esc(hint)}"></label></p>`;
  return [
    errors.length ? `<ul>${errors.map((e) => `<li>${esc(e)}</li>`).join("")}</ul>` : "",
    `<form method="post" action="${PORTAL_FORM_PATH}">`,
    input("ticker", "Ticker", "TSLA"),
    input("accession", "Accession number", "0000950170-22-019867"),
    select("form", "Form", RECORD_FORMS),
    input("accepted_at", "Accepted at (UTC)", "2022-10-24T10:08Z"),
    input("fy", "Fiscal year", "2022"),
    select("fp", "Fiscal period", ["", ...FISCAL_PERIODS]),
    input("revenue", "Revenue (USD)", "21454000000"),
    input("eps_diluted", "Diluted EPS (USD)", "0.95"),
    '<p><button type="submit">Save record</button></p>',
    "</form>",
  ].join("\n");
}

function tableHtml(rows: Saved[]): string {
  if (rows.length === 0) return "<p>No records yet.</p>";
  const head =
    "<tr><th>Ticker</th><th>Accession</th><th>Form</th><th>Accepted (UTC)</th><th>FY</th><th>FP</th><th>Revenue</th><th>Diluted EPS</th><th>Saved at</th></tr>";
  const body = rows
    .map(({ record: r, saved_at }) =>
      [
        r.ticker,
        r.accession,
        r.form,
        isoInstant(r.accepted_at),
        fmt(r.fy),
        r.fp ?? "",
        fmt(r.revenue),
        fmt(r.eps_diluted),
        isoInstant(saved_at),
      ]
        .map((x) => `<td>${esc(x)}</td>`)
        .join(""),
    )
    .map((cells) => `<tr>${cells}</tr>`)
    .join("");
  return `<table><thead>${head}</thead><tbody>${body}</tbody></table>`;
}

/**
 * The writable filings portal at `http://portal.relive.test`. Browser pages: `GET /` (the saved
 * records), `GET /filings/new` (the form), `POST /filings` (form body; 200 "Saved" page, or 400
 * with the errors and the form again). API: `GET /api/filings`, `POST /api/filings` (JSON record;
 * 201 or 400). Who may write is `writes` (the task's portal_mode); WebHostSet refuses everyone else
 * before this handler runs. A row is keyed by (ticker, accession); saving again replaces it.
 */
export function portalHost(store: PortalStore, writes: Exclude<WriteAccess, "none">): WebHost {
  const app = new Hono<{ Bindings: HostEnv }>();
  const site = "Filings portal";
  app.get("/", (c) =>
    htmlResponse(
      200,
      page({
        site,
        title: "Records",
        now: c.env.now,
        nav: NAV,
        main: `<h1>Saved records</h1>\n${tableHtml(store.list())}`,
      }),
    ),
  );
  app.get("/filings/new", (c) =>
    htmlResponse(
      200,
      page({
        site,
        title: "New record",
        now: c.env.now,
        nav: NAV,
        main: `<h1>New filing record</h1>\n${formHtml({}, [])}`,
      }),
    ),
  );
  app.post(PORTAL_FORM_PATH, async (c) => {
    const form = new URLSearchParams(await c.req.text());
    const parsed = parseRecordForm(form);
    if (!parsed.ok) {
      const values = Object.fromEntries([...form.entries()]);
      return htmlResponse(
        400,
        page({
          site,
          title: "Not saved",
          now: c.env.now,
          nav: NAV,
          main: `<h1>Not saved</h1>\n${formHtml(values, parsed.errors)}`,
        }),
      );
    }
    const s = store.save(parsed.record, c.env.now);
    const j = savedJson(s);
    const main = [
      "<h1>Saved</h1>",
      `<p>Saved record ${esc(j.ticker)} ${esc(j.accession)} at ${esc(j.saved_at)}.</p>`,
      tableHtml([s]),
      '<p><a href="/filings/new">New record</a> · <a href="/">All records</a></p>',
    ].join("\n");
    return htmlResponse(200, page({ site, title: "Saved", now: c.env.now, nav: NAV, main }));
  });
  app.get(PORTAL_API_PATH, (c) => c.json({ as_of: isoInstant(c.env.now), records: store.list().map(savedJson) }));
  app.post(PORTAL_API_PATH, async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return c.json({ error: "body is not JSON" }, 400);
    }
    const parsed = parseRecord(body);
    if (!parsed.ok) return c.json({ error: parsed.errors.join("; ") }, 400);
    return c.json({ saved: savedJson(store.save(parsed.record, c.env.now)) }, 201);
  });
  app.notFound(() => htmlResponse(404, "<!doctype html><title>Not found</title><h1>Not found</h1>"));
  app.onError((e) => {
    throw e;
  });
  return {
    name: PORTAL_HOST,
    title: "filings portal: your records (writable)",
    writes,
    fetch: (req, env) => app.fetch(req, env),
  };
}
