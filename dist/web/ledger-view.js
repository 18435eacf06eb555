import { count, episodeTime, isoTime, metric, qs, shortJson, usd } from "./format.js";
import { html } from "./html.js";
import { EVENT_TYPES } from "./query-schemas.js";
import { runPage } from "./run-view.js";
function eventSummary(e) {
  switch (e.type) {
    case "run_start":
      return `${e.task} ${e.episode} \xB7 ${e.agent} \xB7 ${e.trigger} \xB7 seed ${e.seed} \xB7 budget ${usd(e.budget_usd, 2)}`;
    case "wake":
      return `${e.reason}${e.trigger_id ? `: ${e.trigger_id}` : ""}`;
    case "wait":
      return `${e.tool} until ${e.until === null ? "the next trigger" : isoTime(e.until)}`;
    case "tool_call":
      return `${e.tool}(${shortJson(e.args)}) \u2192 ${e.status}${e.cost_usd > 0 ? ` ${usd(e.cost_usd, 5)}` : ""}${e.error ? ` \xB7 ${e.error}` : ""}`;
    case "commitment":
      return `${e.tool}(${shortJson(e.args)})`;
    case "outcome":
      return `${e.key}: ${e.status}, credit ${e.credit === null ? "none" : metric(e.credit)}`;
    case "daily_brief":
      return e.text;
    case "llm_call":
      return `${e.model} #${e.call_index} attempt ${e.attempt} ${e.status} \xB7 ${e.input_tokens} in (${e.cached_input_tokens} cached) / ${e.output_tokens} out${e.cost_usd > 0 ? ` \xB7 ${usd(e.cost_usd, 5)}` : ""}${e.error ? ` \xB7 ${e.error}` : ""}`;
    case "llm_rejected":
      return e.reason;
    case "note":
      return `${e.kind}: ${e.message}`;
    case "run_end":
      return e.reason;
    default: {
      const never = e;
      return shortJson(never);
    }
  }
}
function rowHtml(r, origin) {
  const ev = r.event;
  const actor = ev !== null && typeof ev.actor === "string" ? ev.actor : "";
  const summary = r.error === null ? eventSummary(r.event) : shortJson(r.event, 200);
  return html`<tr id="L${r.seq}" data-seq="${r.seq}" data-type="${r.type}" data-t="${r.t ?? ""}"><td class="num mono"><a href="?cursor=${r.seq}">${r.seq}</a></td>
<td class="mono">${isoTime(r.t)}<div class="muted">${episodeTime(r.t, origin)}</div></td><td><span class="badge">${r.type}</span></td><td>${actor}</td>
<td>${summary}${r.error !== null ? html`<div class="err">invalid: ${r.error}</div>` : ""}<details><summary class="muted">json</summary><pre>${JSON.stringify(r.event, null, 2)}</pre></details></td></tr>`;
}
function ledgerPage(s, p, q, limit) {
  const types = q.type ?? [];
  const keep = { limit: q.limit, type: types.length > 0 ? types.join(",") : void 0, actor: q.actor };
  const link = (label, params, rel) => params === null ? html`<span class="off">${label}</span>` : html`<a rel="${rel}" href="${qs({ ...keep, ...params }) || "?"}">${label}</a>`;
  const origin = s.sim_start !== null ? Date.parse(s.sim_start) : null;
  const first = p.rows[0]?.seq;
  const last = p.rows.at(-1)?.seq;
  const filtered = types.length > 0 || q.actor !== void 0;
  const pager = html`<div class="pager">
${link("\xAB first", p.prev === null && (q.cursor ?? 0) === 0 && q.at === void 0 && q.before === void 0 ? null : { cursor: 0 }, "first")}
${link("\u2039 prev", p.prev === null ? null : { before: p.prev }, "prev")}
${link("next \u203A", p.next === null ? null : { cursor: p.next }, "next")}
${link("last \xBB", { before: p.total }, "last")}
<span class="muted" id="range">${p.rows.length > 0 ? `lines ${count(first)}\u2013${count(last)} of ${count(p.total)}` : `no ${filtered ? "matching " : ""}events in lines ${count(p.scanned[0])}\u2013${count(Math.max(p.scanned[0], p.scanned[1] - 1))} of ${count(p.total)}`}${filtered ? ` \xB7 ${p.rows.length} matches, scanned lines ${count(p.scanned[0])}\u2013${count(p.scanned[1])}` : ""}</span></div>`;
  const body = html`<form class="bar" method="get">
<fieldset><legend class="muted">types</legend>${EVENT_TYPES.map((t) => html`<label><input type="checkbox" name="type" value="${t}"${types.includes(t) ? html` checked` : ""}>${t}</label>`)}</fieldset>
<label>actor<input name="actor" value="${q.actor ?? ""}" size="10"></label>
<label>jump to simulated time<input name="at" id="at" value="${q.at !== void 0 ? isoTime(q.at) : ""}" placeholder="2026-03-05T12:00Z" size="22"></label>
<label>per page<select name="limit">${[25, 50, 100, 250, 500, 1e3].map((n) => html`<option${n === limit ? html` selected` : ""}>${n}</option>`)}</select></label>
<button type="submit">Show</button> <a href="?">reset</a></form>
${p.at_line !== null ? html`<p class="muted" id="jumped">${q.at !== void 0 ? isoTime(q.at) : ""} is at line ${count(p.at_line)}${p.at_line === p.total ? " (after the last event)" : ""}.</p>` : ""}
${p.partial ? html`<p class="note" id="partial">Stopped after scanning ${count(p.scanned[1] - p.scanned[0])} lines with ${p.rows.length} of ${limit} matches: follow next/prev to scan further.</p>` : ""}
${pager}
<table id="ledger"><thead><tr><th class="num">line</th><th>simulated time</th><th>type</th><th>actor</th><th>event</th></tr></thead>
<tbody>${p.rows.map((r) => rowHtml(r, origin))}</tbody></table>
${pager}`;
  const api = `/api/runs/${s.id}/ledger${qs({ ...keep, cursor: q.cursor, before: q.before, at: q.at })}`;
  return runPage(s, "ledger", body, api);
}
export {
  eventSummary,
  ledgerPage
};
//# sourceMappingURL=ledger-view.js.map
