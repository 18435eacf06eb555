import { isoMinute } from "../../../common/time.js";

/** Escape text for HTML content and attribute values. */
export function esc(s: string | number | null | undefined): string {
  return String(s ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A plain page: title, a header line with the site name, links and the simulated time, then `main`. */
export function page(o: {
  site: string;
  title: string;
  now: number;
  nav: readonly [string, string][];
  main: string;
}): string {
  const links = o.nav.map(([href, label]) => `<a href="${esc(href)}">${esc(label)}</a>`).join(" · ");
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${esc(o.title)} · ${esc(o.site)}</title></head><body>`,
    `<header><p><strong>${esc(o.site)}</strong>${links ? ` · ${links}` : ""} · as of ${esc(isoMinute(o.now))}</p></header>`,
    `<main>${o.main}</main>`,
    "</body></html>",
  ].join("\n");
}

/** A table with a header row; cells are escaped. */
export function table(
  head: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
  empty: string,
): string {
  if (rows.length === 0) return `<p>${esc(empty)}</p>`;
  const th = head.map((h) => `<th>${esc(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("");
  return `<table><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`;
}

function respond(status: number, body: string, type: string, cookies: readonly string[]): Response {
  const headers = new Headers({ "content-type": type });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(body, { status, headers });
}

/** An HTML answer; `cookies` are whole Set-Cookie values. */
export const htmlResponse = (status: number, body: string, cookies: readonly string[] = []) =>
  respond(status, body, "text/html; charset=utf-8", cookies);

/** A JSON answer; `cookies` are whole Set-Cookie values. */
export const jsonResponse = (status: number, value: unknown, cookies: readonly string[] = []) =>
  respond(status, JSON.stringify(value), "application/json; charset=utf-8", cookies);
