import { count, isoTime, qs } from "./format.js";
import { html } from "./html.js";
import { runPage } from "./run-view.js";
function messageHtml(r) {
  const m = r.message;
  if (m === null)
    return html`<div class="msg" id="M${r.line}"><span class="badge">line ${r.line}</span> <span class="err">${r.error}</span><pre>${JSON.stringify(r.raw, null, 2)}</pre></div>`;
  const when = typeof m.t === "number" ? isoTime(m.t) : m.at ?? "";
  return html`<div class="msg ${m.role}" id="M${r.line}"><span class="badge">${m.role}</span>${m.name ? html` <b>${m.name}</b>` : ""} <span class="muted mono">${when} · line ${r.line}${m.tool_call_id ? ` \xB7 ${m.tool_call_id}` : ""}</span>
${m.content ? html`<pre>${m.content}</pre>` : ""}
${(m.tool_calls ?? []).map((c) => html`<div>→ <b>${c.name}</b>${c.id ? html` <span class="muted mono">${c.id}</span>` : ""}<pre>${typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments)}</pre></div>`)}</div>`;
}
function transcriptPage(s, files, file, p, limit) {
  const fileLinks = files.map(
    (f, i) => html`<a href="${qs({ file: i })}"${i === file ? html` class="badge"` : ""}>${f}</a> `
  );
  const link = (label, cursor) => cursor === null ? html`<span class="off">${label}</span>` : html`<a href="${qs({ file, cursor, limit })}">${label}</a>`;
  const body = files.length === 0 ? html`<p class="note" id="no-transcript">No transcript files in this run (looked for <code>transcripts/*.jsonl</code>, and in older runs <code>workspace/transcripts/*.jsonl</code> and <code>workspace/**/transcript*.jsonl</code>). Scripted agents keep none.</p>` : p === null ? html`<p class="err">No transcript file #${file}: this run has ${files.length}.</p>` : html`<p>files: ${fileLinks}</p>
<div class="pager">${link("\xAB first", p.prev === null ? null : 0)} ${link("\u2039 prev", p.prev)} ${link("next \u203A", p.next)} ${link("last \xBB", p.total > 0 ? Math.max(0, p.total - limit) : null)}
<span class="muted">messages ${p.rows.length > 0 ? `${count(p.rows[0].line)}\u2013${count(p.rows.at(-1).line)}` : "none"} of ${count(p.total)}</span></div>
<div id="transcript">${p.rows.map(messageHtml)}</div>`;
  return runPage(s, "transcript", body, `/api/runs/${s.id}/transcript${qs({ file, cursor: p?.rows[0]?.line, limit })}`);
}
export {
  transcriptPage
};
//# sourceMappingURL=transcript-view.js.map
