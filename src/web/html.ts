import { html as honoHtml, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

export type Html = HtmlEscapedString;

/**
 * hono's `html` tag (every interpolated string is escaped; nested `html` results are inserted as
 * they are). Views here only ever interpolate synchronous values, so the result is synchronous.
 */
export const html = honoHtml as (strings: TemplateStringsArray, ...values: unknown[]) => Html;
export { raw };

const STYLE = `
:root{--fg:#1d232a;--muted:#66707a;--line:#dde1e5;--bg:#fff;--soft:#f4f6f8;--acc:#1f6feb;--ok:#1a7f37;--warn:#9a6700;--bad:#cf222e}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header{display:flex;gap:16px;align-items:baseline;padding:10px 20px;border-bottom:1px solid var(--line);background:var(--soft)}
header .brand{font-weight:700;color:var(--fg);text-decoration:none}main{padding:16px 20px;max-width:1400px}
a{color:var(--acc)}h1{font-size:20px;margin:4px 0 12px}h2{font-size:16px;margin:20px 0 8px}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600;white-space:nowrap}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tr:hover td{background:#fafbfc}.muted{color:var(--muted)}.mono,pre,code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px}
pre{white-space:pre-wrap;word-break:break-word;margin:4px 0;background:var(--soft);padding:6px 8px;border-radius:4px;max-height:420px;overflow:auto}
.badge{display:inline-block;padding:0 6px;border-radius:10px;font-size:12px;background:var(--soft);border:1px solid var(--line);white-space:nowrap}
.s-finished{color:var(--ok);border-color:var(--ok)}.s-failed{color:var(--bad);border-color:var(--bad)}.s-running{color:var(--acc);border-color:var(--acc)}.s-paused,.s-incomplete{color:var(--warn);border-color:var(--warn)}.s-empty{color:var(--muted)}
.flag{color:var(--bad);border-color:var(--bad)}.err{color:var(--bad)}
nav.tabs{display:flex;gap:4px;margin:8px 0 12px;border-bottom:1px solid var(--line)}nav.tabs a{padding:6px 12px;text-decoration:none;border:1px solid transparent;border-bottom:none;border-radius:4px 4px 0 0}
nav.tabs a.on{border-color:var(--line);background:var(--bg);color:var(--fg);font-weight:600;margin-bottom:-1px}
form.bar{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:end;padding:8px 10px;background:var(--soft);border:1px solid var(--line);border-radius:6px;margin:8px 0}
form.bar label{display:flex;flex-direction:column;font-size:12px;color:var(--muted);gap:2px}form.bar fieldset{border:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:2px 10px;max-width:560px}
form.bar fieldset label{flex-direction:row;gap:3px;color:var(--fg)}input,select,button{font:inherit;padding:3px 6px}
.pager{display:flex;gap:12px;align-items:center;margin:8px 0}.pager .off{color:var(--muted)}
.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px}.kv dt{color:var(--muted)}.kv dd{margin:0}
.cards{display:flex;flex-wrap:wrap;gap:12px}.card{border:1px solid var(--line);border-radius:6px;padding:8px 12px;min-width:220px}
.big{font-size:28px;font-weight:700}.note{padding:8px 12px;border-left:3px solid var(--warn);background:#fff8e6;margin:8px 0}
.msg{border:1px solid var(--line);border-radius:6px;padding:6px 10px;margin:6px 0}.msg.user{background:#f6f8ff}.msg.tool{background:#f7f7f7}
svg text{font:11px system-ui,sans-serif;fill:#444}svg .lane{font-weight:600}
`;

export interface Crumb {
  label: string;
  href?: string;
}

/** A full page: header with breadcrumbs, then the body. Inline CSS only; no scripts, no external resources. */
export function page(title: string, crumbs: readonly Crumb[], body: Html): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · relive</title><style>${raw(STYLE)}</style></head>
<body><header><a class="brand" href="/runs">relive</a>${crumbs.map(
    (c) =>
      html`<span class="muted">/</span> ${c.href ? html`<a href="${c.href}">${c.label}</a>` : html`<span>${c.label}</span>`}`,
  )}</header>
<main>${body}</main></body></html>`;
}

/** The page for a failed request (400, 404, 500). */
export function errorPage(status: number, message: string): Html {
  const title = status === 400 ? "Bad request" : status === 404 ? "Not found" : "Error";
  return page(
    title,
    [{ label: title }],
    html`<h1>${status} ${title}</h1><p class="err">${message}</p><p><a href="/runs">All runs</a></p>`,
  );
}
