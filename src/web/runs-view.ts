import { count, isoTime, metric, qs, usd } from "./format.js";
import { type Html, html, page } from "./html.js";
import { RUN_SORT_KEYS, type RunsQuery } from "./query-schemas.js";
import { RUN_STATUSES, type RunSummary } from "./run-summary.js";

const cmp = (a: string | number | null, b: string | number | null): number => {
  if (a === b) return 0;
  if (a === null) return 1; // nulls last
  if (b === null) return -1;
  return typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
};

const sortKey = (r: RunSummary, key: (typeof RUN_SORT_KEYS)[number]): string | number | null => {
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
      const never: never = key;
      throw new Error(`unknown sort key ${String(never)}`);
    }
  }
};

/** The runs matching the filters, sorted (ties broken by task, model, trigger, seed, id). */
export function filterRuns(all: readonly RunSummary[], q: RunsQuery): RunSummary[] {
  const text = q.q?.toLowerCase();
  const rows = all.filter(
    (r) =>
      (q.task === undefined || r.task === q.task) &&
      (q.model === undefined || r.model === q.model) &&
      (q.trigger === undefined || r.trigger === q.trigger) &&
      (q.status === undefined || r.status === q.status) &&
      (text === undefined ||
        [r.id, r.rel, r.task, r.episode, r.model, r.trigger, r.run_id, r.primary?.name, ...r.flags].some((v) =>
          v?.toLowerCase().includes(text),
        )),
  );
  const key = q.sort ?? "task";
  const dir = q.order === "desc" ? -1 : 1;
  const ties = ["task", "model", "trigger", "seed", "id"] as const;
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

const distinct = (all: readonly RunSummary[], pick: (r: RunSummary) => string | null) =>
  [...new Set(all.map(pick).filter((v): v is string => v !== null))].sort();

function select(name: string, values: readonly string[], current: string | undefined, anyLabel = "any"): Html {
  return html`<label>${name}<select name="${name}"><option value="">${anyLabel}</option>${values.map(
    (v) => html`<option value="${v}"${v === current ? html` selected` : ""}>${v}</option>`,
  )}</select></label>`;
}

export const statusBadge = (s: string) => html`<span class="badge s-${s}">${s}</span>`;
export const flagBadges = (flags: readonly string[]) => flags.map((f) => html`<span class="badge flag">${f}</span> `);

export function primaryCell(r: RunSummary): Html {
  if (r.primary === null) return html`<span class="muted">—</span>`;
  return html`<span title="${r.primary.direction} is better">${r.primary.name} <b>${metric(r.primary.value)}</b> ${r.primary.direction === "higher" ? "↑" : "↓"}</span>`;
}

/** The runs list: filters, sorting, one row per run. */
export function runsPage(rows: readonly RunSummary[], all: readonly RunSummary[], q: RunsQuery): Html {
  const sortLink = (key: (typeof RUN_SORT_KEYS)[number], label: string, num = false) => {
    const on = (q.sort ?? "task") === key;
    const order = on && q.order !== "desc" ? "desc" : "asc";
    return html`<th${num ? html` class="num"` : ""}><a href="/runs${qs({ ...q, sort: key, order })}">${label}</a>${on ? (q.order === "desc" ? " ▾" : " ▴") : ""}</th>`;
  };
  const body = html`<h1>Runs</h1>
<form class="bar" method="get" action="/runs">
${select(
  "task",
  distinct(all, (r) => r.task),
  q.task,
)}
${select(
  "model",
  distinct(all, (r) => r.model),
  q.model,
)}
${select("trigger", ["sleep", "watcher", "cron", "policy"], q.trigger)}
${select("status", RUN_STATUSES, q.status)}
<label>text<input type="search" name="q" value="${q.q ?? ""}" placeholder="id, episode, flag…"></label>
<label>sort<select name="sort">${RUN_SORT_KEYS.map((k) => html`<option${k === (q.sort ?? "task") ? html` selected` : ""}>${k}</option>`)}</select></label>
<label>order<select name="order"><option${q.order !== "desc" ? html` selected` : ""}>asc</option><option${q.order === "desc" ? html` selected` : ""}>desc</option></select></label>
<button type="submit">Filter</button> <a href="/runs">clear</a>
</form>
<p class="muted" id="run-count">${rows.length} of ${all.length} runs · <a href="/api/runs${qs({ ...q })}">JSON</a></p>
<table id="runs"><thead><tr>${sortLink("id", "run")}${sortLink("task", "task")}<th>episode</th>${sortLink("model", "model")}${sortLink("trigger", "trigger")}${sortLink("seed", "seed", true)}${sortLink("status", "status")}${sortLink("primary", "primary")}${sortLink("spend", "spend", true)}${sortLink("events", "events", true)}<th>flags</th><th>simulated window</th></tr></thead>
<tbody>${rows.map(
    (
      r,
    ) => html`<tr data-run="${r.id}"><td><a href="/runs/${r.id}">${r.id}</a><div class="muted mono">${r.rel}</div></td>
<td>${r.task ?? "—"}</td><td>${r.episode ?? "—"}</td><td class="mono">${r.model ?? "—"}</td><td>${r.trigger ?? "—"}</td><td class="num">${r.seed ?? "—"}</td>
<td>${statusBadge(r.status)}${r.status !== "finished" && r.day !== null ? html`<div class="muted">day ${r.day} of ${r.days}</div>` : ""}</td>
<td>${primaryCell(r)}</td><td class="num">${usd(r.spent_usd)}${r.budget_usd !== null ? html`<div class="muted">of ${usd(r.budget_usd, 2)}</div>` : ""}</td>
<td class="num">${count(r.events)}</td><td>${flagBadges(r.flags)}${r.problems.length > 0 ? html`<span class="badge flag" title="${r.problems.join("\n")}">problems</span>` : ""}</td>
<td class="muted">${r.sim_start?.slice(0, 10) ?? "—"} → ${r.sim_end?.slice(0, 10) ?? "—"}${r.status !== "finished" && r.last_t !== null ? html`<div>at ${isoTime(Date.parse(r.last_t))}</div>` : ""}</td></tr>`,
  )}</tbody></table>
${all.length === 0 ? html`<p class="note">No run directories found under the given RUNS paths.</p>` : ""}`;
  return page("Runs", [{ label: "runs" }], body);
}
