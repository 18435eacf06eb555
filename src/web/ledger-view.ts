import type { LedgerEvent } from "../ledger/events.js";
import { count, episodeTime, isoTime, metric, qs, shortJson, usd } from "./format.js";
import { type Html, html } from "./html.js";
import type { LedgerPage, LedgerRow } from "./ledger-pager.js";
import { EVENT_TYPES, type LedgerQuery } from "./query-schemas.js";
import type { RunSummary } from "./run-summary.js";
import { runPage } from "./run-view.js";

/** A one-line description of a valid event. */
export function eventSummary(e: LedgerEvent): string {
  switch (e.type) {
    case "run_start":
      return `${e.task} ${e.episode} · ${e.agent} · ${e.trigger} · seed ${e.seed} · budget ${usd(e.budget_usd, 2)}`;
    case "wake":
      return `${e.reason}${e.trigger_id ? `: ${e.trigger_id}` : ""}`;
    case "wait":
      return `${e.tool} until ${e.until === null ? "the next trigger" : isoTime(e.until)}`;
    case "tool_call":
      return `${e.tool}(${shortJson(e.args)}) → ${e.status}${e.cost_usd > 0 ? ` ${usd(e.cost_usd, 5)}` : ""}${e.error ? ` · ${e.error}` : ""}`;
    case "commitment":
      return `${e.tool}(${shortJson(e.args)})`;
    case "outcome":
      return `${e.key}: ${e.status}, credit ${e.credit === null ? "none" : metric(e.credit)}`;
    case "daily_brief":
      return e.text;
    case "llm_call":
      return `${e.model} #${e.call_index} attempt ${e.attempt} ${e.status} · ${e.input_tokens} in (${e.cached_input_tokens} cached) / ${e.output_tokens} out${e.cost_usd > 0 ? ` · ${usd(e.cost_usd, 5)}` : ""}${e.error ? ` · ${e.error}` : ""}`;
    case "llm_rejected":
      return e.reason;
    case "note":
      return `${e.kind}: ${e.message}`;
    case "prune":
      return `after day ${e.day}: ${e.branches.map((b) => `b${b.branch} ${b.score === null ? "none" : metric(b.score)} ${usd(b.spent_usd, 5)}${b.kept ? " kept" : " stopped"}`).join(" · ")}`;
    case "run_end":
      return e.reason;
    default: {
      const never: never = e;
      return shortJson(never);
    }
  }
}

function rowHtml(r: LedgerRow, origin: number | null): Html {
  const ev = r.event as Record<string, unknown> | null;
  const actor = ev !== null && typeof ev.actor === "string" ? ev.actor : "";
  const summary = r.error === null ? eventSummary(r.event as LedgerEvent) : shortJson(r.event, 200);
  return html`<tr id="L${r.seq}" data-seq="${r.seq}" data-type="${r.type}" data-t="${r.t ?? ""}"><td class="num mono"><a href="?cursor=${r.seq}">${r.seq}</a></td>
<td class="mono">${isoTime(r.t)}<div class="muted">${episodeTime(r.t, origin)}</div></td><td><span class="badge">${r.type}</span></td><td>${actor}</td>
<td>${summary}${r.error !== null ? html`<div class="err">invalid: ${r.error}</div>` : ""}<details><summary class="muted">json</summary><pre>${JSON.stringify(r.event, null, 2)}</pre></details></td></tr>`;
}

/** The ledger tab: filters, jump to a time, first/prev/next/last paging, one row per event. */
export function ledgerPage(s: RunSummary, p: LedgerPage, q: LedgerQuery, limit: number): Html {
  const types = q.type ?? [];
  const keep = { limit: q.limit, type: types.length > 0 ? types.join(",") : undefined, actor: q.actor };
  const link = (label: string, params: Record<string, number | string | undefined> | null, rel: string) =>
    params === null
      ? html`<span class="off">${label}</span>`
      : html`<a rel="${rel}" href="${qs({ ...keep, ...params }) || "?"}">${label}</a>`;
  const origin = s.sim_start !== null ? Date.parse(s.sim_start) : null;
  const first = p.rows[0]?.seq;
  const last = p.rows.at(-1)?.seq;
  const filtered = types.length > 0 || q.actor !== undefined;
  const pager = html`<div class="pager">
${link("« first", p.prev === null && (q.cursor ?? 0) === 0 && q.at === undefined && q.before === undefined ? null : { cursor: 0 }, "first")}
${link("‹ prev", p.prev === null ? null : { before: p.prev }, "prev")}
${link("next ›", p.next === null ? null : { cursor: p.next }, "next")}
${link("last »", { before: p.total }, "last")}
<span class="muted" id="range">${
    p.rows.length > 0
      ? `lines ${count(first)}–${count(last)} of ${count(p.total)}`
      : `no ${filtered ? "matching " : ""}events in lines ${count(p.scanned[0])}–${count(Math.max(p.scanned[0], p.scanned[1] - 1))} of ${count(p.total)}`
  }${filtered ? ` · ${p.rows.length} matches, scanned lines ${count(p.scanned[0])}–${count(p.scanned[1])}` : ""}</span></div>`;
  const body = html`<form class="bar" method="get">
<fieldset><legend class="muted">types</legend>${EVENT_TYPES.map((t) => html`<label><input type="checkbox" name="type" value="${t}"${types.includes(t) ? html` checked` : ""}>${t}</label>`)}</fieldset>
<label>actor<input name="actor" value="${q.actor ?? ""}" size="10"></label>
<label>jump to simulated time<input name="at" id="at" value="${q.at !== undefined ? isoTime(q.at) : ""}" placeholder="2026-03-05T12:00Z" size="22"></label>
<label>per page<select name="limit">${[25, 50, 100, 250, 500, 1000].map((n) => html`<option${n === limit ? html` selected` : ""}>${n}</option>`)}</select></label>
<button type="submit">Show</button> <a href="?">reset</a></form>
${p.at_line !== null ? html`<p class="muted" id="jumped">${q.at !== undefined ? isoTime(q.at) : ""} is at line ${count(p.at_line)}${p.at_line === p.total ? " (after the last event)" : ""}.</p>` : ""}
${p.partial ? html`<p class="note" id="partial">Stopped after scanning ${count(p.scanned[1] - p.scanned[0])} lines with ${p.rows.length} of ${limit} matches: follow next/prev to scan further.</p>` : ""}
${pager}
<table id="ledger"><thead><tr><th class="num">line</th><th>simulated time</th><th>type</th><th>actor</th><th>event</th></tr></thead>
<tbody>${p.rows.map((r) => rowHtml(r, origin))}</tbody></table>
${pager}`;
  const api = `/api/runs/${s.id}/ledger${qs({ ...keep, cursor: q.cursor, before: q.before, at: q.at })}`;
  return runPage(s, "ledger", body, api);
}
