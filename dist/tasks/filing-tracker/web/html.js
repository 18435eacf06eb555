import { isoMinute } from "../../../kernel/day.js";
function esc(s) {
  return String(s ?? "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
function page(o) {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${esc(o.title)} \xB7 ${esc(o.site)}</title></head><body>`,
    `<header><p><strong>${esc(o.site)}</strong> \xB7 ${o.nav.map(([href, label]) => `<a href="${esc(href)}">${esc(label)}</a>`).join(" \xB7 ")} \xB7 as of ${esc(isoMinute(o.now))}</p></header>`,
    `<main>${o.main}</main>`,
    "</body></html>"
  ].join("\n");
}
const htmlResponse = (status, body) => new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
export {
  esc,
  htmlResponse,
  page
};
//# sourceMappingURL=html.js.map
