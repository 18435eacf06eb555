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

/** A plain page: title, a one-line header with the site name, links and the simulated time, then `main`. */
export function page(o: { site: string; title: string; now: number; nav: [string, string][]; main: string }): string {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${esc(o.title)} · ${esc(o.site)}</title></head><body>`,
    `<header><p><strong>${esc(o.site)}</strong> · ${o.nav.map(([href, label]) => `<a href="${esc(href)}">${esc(label)}</a>`).join(" · ")} · as of ${esc(isoMinute(o.now))}</p></header>`,
    `<main>${o.main}</main>`,
    "</body></html>",
  ].join("\n");
}

export const htmlResponse = (status: number, body: string) =>
  new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
