import { count, isoTime, metric, qs, usd } from "./format.js";
import { html, page } from "./html.js";
import { RUN_SORT_KEYS } from "./query-schemas.js";
import { RUN_STATUSES } from "./run-summary.js";
const cmp = (a, b) => {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
};
const sortKey = (r, key) => {
  switch (key) {
    case "task":
      return r.task;
    case "model":
      return r.model;
    case "trigger":
      return r.trigger;
    case "seed":
      return r.seed;
    case "status":
      return r.status;
    case "primary":
      return r.primary?.value ?? null;
    case "spend":
      return r.spent_usd;
    case "events":
      return r.events;
    case "id":
      return r.id;
    default: {
      const never = key;
      throw new Error(`unknown sort key ${String(never)}`);
    }
  }
};
function filterRuns(all, q) {
  const text = q.q?.toLowerCase();
  const rows = all.filter(
    (r) => (q.task === void 0 || r.task === q.task) && (q.model === void 0 || r.model === q.model) && (q.trigger === void 0 || r.trigger === q.trigger) && (q.status === void 0 || r.status === q.status) && (text === void 0 || [r.id, r.rel, r.task, r.episode, r.model, r.trigger, r.run_id, r.primary?.name, ...r.flags].some(
      (v) => v?.toLowerCase().includes(text)
    ))
  );
  const key = q.sort ?? "task";
  const dir = q.order === "desc" ? -1 : 1;
  const ties = ["task", "model", "trigger", "seed", "id"];
  return rows.sort((a, b) => {
    const v = cmp(sortKey(a, key), sortKey(b, key));
    if (v !== 0) return dir * v;
    for (const k of ties) {
      const t = cmp(sortKey(a, k), sortKey(b, k));
      if (t !== 0) return t;
    }
    return 0;
  });
}
const distinct = (all, pick) => [...new Set(all.map(pick).filter((v) => v !== null))].sort();
function select(name, values, current, anyLabel = "any") {
  return html`<label>${name}<select name="${name}"><option value="">${anyLabel}</option>${values.map(
    (v) => html`<option value="${v}"${v === current ? html` selected` : ""}>${v}</option>`
  )}</select></label>`;
}
const statusBadge = (s) => html`<span class="badge s-${s}">${s}</span>`;
const flagBadges = (flags) => flags.map((f) => html`<span class="badge flag">${f}</span> `);
function primaryCell(r) {
  if (r.primary === null) return html`<span class="muted">—</span>`;
  return html`<span title="${r.primary.direction} is better">${r.primary.name} <b>${metric(r.primary.value)}</b> ${r.primary.direction === "higher" ? "\u2191" : "\u2193"}</span>`;
}
function runsPage(rows, all, q) {
  const sortLink = (key, label, num = false) => {
    const on = (q.sort ?? "task") === key;
    const order = on && q.order !== "desc" ? "desc" : "asc";
    return html`<th${num ? html` class="num"` : ""}><a href="/runs${qs({ ...q, sort: key, order })}">${label}</a>${on ? q.order === "desc" ? " \u25BE" : " \u25B4" : ""}</th>`;
  };
  const body = html`<h1>Runs</h1>
<form class="bar" method="get" action="/runs">
${select(
    "task",
    distinct(all, (r) => r.task),
    q.task
  )}
${select(
    "model",
    distinct(all, (r) => r.model),
    q.model
  )}
${select("trigger", ["sleep", "watcher", "cron"], q.trigger)}
${select("status", RUN_STATUSES, q.status)}
<label>text<input type="search" name="q" value="${q.q ?? ""}" placeholder="id, episode, flag…"></label>
<label>sort<select name="sort">${RUN_SORT_KEYS.map((k) => html`<option${k === (q.sort ?? "task") ? html` selected` : ""}>${k}</option>`)}</select></label>
<label>order<select name="order"><option${q.order !== "desc" ? html` selected` : ""}>asc</option><option${q.order === "desc" ? html` selected` : ""}>desc</option></select></label>
<button type="submit">Filter</button> <a href="/runs">clear</a>
</form>
<p class="muted" id="run-count">${rows.length} of ${all.length} runs · <a href="/api/runs${qs({ ...q })}">JSON</a></p>
<table id="runs"><thead><tr>${sortLink("id", "run")}${sortLink("task", "task")}<th>episode</th>${sortLink("model", "model")}${sortLink("trigger", "trigger")}${sortLink("seed", "seed", true)}${sortLink("status", "status")}${sortLink("primary", "primary")}${sortLink("spend", "spend", true)}${sortLink("events", "events", true)}<th>flags</th><th>simulated window</th></tr></thead>
<tbody>${rows.map(
    (r) => html`<tr data-run="${r.id}"><td><a href="/runs/${r.id}">${r.id}</a><div class="muted mono">${r.rel}</div></td>
<td>${r.task ?? "\u2014"}</td><td>${r.episode ?? "\u2014"}</td><td class="mono">${r.model ?? "\u2014"}</td><td>${r.trigger ?? "\u2014"}</td><td class="num">${r.seed ?? "\u2014"}</td>
<td>${statusBadge(r.status)}${r.status !== "finished" && r.day !== null ? html`<div class="muted">day ${r.day} of ${r.days}</div>` : ""}</td>
<td>${primaryCell(r)}</td><td class="num">${usd(r.spent_usd)}${r.budget_usd !== null ? html`<div class="muted">of ${usd(r.budget_usd, 2)}</div>` : ""}</td>
<td class="num">${count(r.events)}</td><td>${flagBadges(r.flags)}${r.problems.length > 0 ? html`<span class="badge flag" title="${r.problems.join("\n")}">problems</span>` : ""}</td>
<td class="muted">${r.sim_start?.slice(0, 10) ?? "\u2014"} → ${r.sim_end?.slice(0, 10) ?? "\u2014"}${r.status !== "finished" && r.last_t !== null ? html`<div>at ${isoTime(Date.parse(r.last_t))}</div>` : ""}</td></tr>`
  )}</tbody></table>
${all.length === 0 ? html`<p class="note">No run directories found under the given RUNS paths.</p>` : ""}`;
  return page("Runs", [{ label: "runs" }], body);
}
export {
  filterRuns,
  flagBadges,
  primaryCell,
  runsPage,
  statusBadge
};
//# sourceMappingURL=runs-view.js.map
