import { count, isoTime, metric, qs, usd } from "./format.js";
import { html } from "./html.js";
import { runPage } from "./run-view.js";
import { binned, MAX_MARKS, timelineLegend, timelineSvg } from "./timeline-svg.js";
function timelinePage(s, tl) {
  const ledger = `/runs/${s.id}/ledger`;
  const href = (p) => `${ledger}${qs({ cursor: p.cursor, at: p.at === void 0 ? void 0 : isoTime(p.at), type: p.type })}`;
  const downsampled = binned(tl);
  const body = html`<div id="timeline">${timelineSvg(tl, href)}</div>
${timelineLegend(tl)}
${downsampled ? html`<p class="note">Lanes with more than ${count(MAX_MARKS)} marks (outcomes: ${count(tl.items_cap)}) show counts per ${tl.bin_ms / 6e4}-minute bin. Click a bar to open the ledger there.</p>` : ""}
<h2>Counts</h2>
<table><thead><tr><th>event type</th><th class="num">events</th></tr></thead><tbody>
${Object.entries(tl.counts).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => html`<tr><td><a href="${ledger}?type=${k}">${k}</a></td><td class="num">${count(v)}</td></tr>`)}
<tr><th>all</th><th class="num">${count(tl.events)}</th></tr></tbody></table>
<p>outcomes: ${count(tl.outcomes.count)}, credit sum ${metric(tl.outcomes.credit_sum)} · spend ${usd(tl.spend.total_usd)} (LLM ${usd(tl.spend.llm_usd)})
${tl.unreadable_lines > 0 ? html` · <span class="err">${count(tl.unreadable_lines)} unreadable lines</span>` : ""}</p>
${tl.briefs.length > 0 ? html`<h2>Daily briefs</h2><table><thead><tr><th>day</th><th>at</th><th class="num">spent</th></tr></thead><tbody>${tl.briefs.map((b) => html`<tr><td><a href="${ledger}?cursor=${b.seq}">day ${b.day}</a></td><td class="mono">${isoTime(b.t)}</td><td class="num">${usd(b.spent_usd)}</td></tr>`)}</tbody></table>` : ""}`;
  return runPage(s, "timeline", body, `/api/runs/${s.id}/timeline`);
}
export {
  timelinePage
};
//# sourceMappingURL=timeline-view.js.map
