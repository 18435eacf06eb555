import { isoMinute } from "../../../kernel/day.js";
function esc(s) {
  return String(s ?? "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
function page(o) {
  const links = o.nav.map(([href, label]) => `<a href="${esc(href)}">${esc(label)}</a>`).join(" \xB7 ");
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${esc(o.title)} \xB7 ${esc(o.site)}</title></head><body>`,
    `<header><p><strong>${esc(o.site)}</strong>${links ? ` \xB7 ${links}` : ""} \xB7 as of ${esc(isoMinute(o.now))}</p></header>`,
    `<main>${o.main}</main>`,
    "</body></html>"
  ].join("\n");
}
function table(head, rows, empty) {
  if (rows.length === 0) return `<p>${esc(empty)}</p>`;
  const th = head.map((h) => `<th>${esc(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("");
  return `<table><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`;
}
function respond(status, body, type, cookies) {
  const headers = new Headers({ "content-type": type });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(body, { status, headers });
}
const htmlResponse = (status, body, cookies = []) => respond(status, body, "text/html; charset=utf-8", cookies);
const jsonResponse = (status, value, cookies = []) => respond(status, JSON.stringify(value), "application/json; charset=utf-8", cookies);
export {
  esc,
  htmlResponse,
  jsonResponse,
  page,
  table
};
//# sourceMappingURL=html.js.map
