import type { Results } from "../run/results.js";
import { count, isoTime, metric, usd } from "./format.js";
import { type Crumb, type Html, html, page } from "./html.js";
import type { RunDetails, RunSummary } from "./run-summary.js";
import { flagBadges, primaryCell, statusBadge } from "./runs-view.js";

export type RunTab = "summary" | "timeline" | "transcript" | "ledger";

const TABS: readonly [RunTab, string, string][] = [
  ["summary", "Summary", ""],
  ["timeline", "Timeline", "/timeline"],
  ["transcript", "Transcript", "/transcript"],
  ["ledger", "Ledger", "/ledger"],
];

/** A run subpage: breadcrumbs, the run's title line and the tab bar, then the body. */
export function runPage(s: RunSummary, tab: RunTab, body: Html, apiHref: string): Html {
  const crumbs: Crumb[] = [
    { label: "runs", href: "/runs" },
    { label: s.id, href: `/runs/${s.id}` },
  ];
  if (tab !== "summary") crumbs.push({ label: tab });
  return page(
    `${s.id} ${tab}`,
    crumbs,
    html`<h1>${s.task ?? "?"} · ${s.episode ?? "?"} · <span class="mono">${s.model ?? "?"}</span> · ${s.trigger ?? "?"} · seed ${s.seed ?? "?"} ${statusBadge(s.status)}</h1>
<div class="muted mono">${s.rel} <span class="muted">(${s.root})</span></div>
<nav class="tabs">${TABS.map(([t, label, path]) => html`<a href="/runs/${s.id}${path}"${t === tab ? html` class="on"` : ""}>${label}</a>`)}<a href="${apiHref}" class="muted">JSON</a></nav>
${body}`,
  );
}

function kv(rows: readonly [string, unknown][]): Html {
  return html`<dl class="kv">${rows.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

/** A small line chart of the anytime curve (primary per simulated day). */
function anytimeSvg(r: Results): Html {
  const pts = r.timing.anytime;
  if (pts.length === 0) return html``;
  const W = 360;
  const H = 80;
  const vals = pts.map((p) => p.primary).filter((v): v is number => v !== null);
  const lo = Math.min(0, ...vals);
  const hi = Math.max(1, ...vals);
  const x = (i: number) => Math.round((pts.length === 1 ? W / 2 : (i / (pts.length - 1)) * (W - 10) + 5) * 10) / 10;
  const y = (v: number) => Math.round((H - 5 - ((v - lo) / (hi - lo || 1)) * (H - 10)) * 10) / 10;
  const poly = pts
    .map((p, i) => (p.primary === null ? null : `${x(i)},${y(p.primary)}`))
    .filter((v) => v !== null)
    .join(" ");
  return html`<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="anytime curve" style="border:1px solid #dde1e5;border-radius:4px">
<polyline points="${poly}" fill="none" stroke="#1f6feb" stroke-width="1.6"/>${pts.map((p, i) =>
    p.primary === null
      ? ""
      : html`<circle cx="${x(i)}" cy="${y(p.primary)}" r="2" fill="#1f6feb"><title>day ${p.day} (${p.t}): ${metric(p.primary)}</title></circle>`,
  )}
<text x="4" y="12">${metric(hi)}</text><text x="4" y="${H - 4}">${metric(lo)}</text></svg>`;
}

function resultsBody(s: RunSummary, r: Results): Html {
  const perf = Object.entries(r.performance).filter(([k]) => k !== "primary");
  const outcomeStatus = new Map<string, number>();
  for (const o of r.outcomes) outcomeStatus.set(o.status, (outcomeStatus.get(o.status) ?? 0) + 1);
  const res = r.resources;
  return html`<div class="cards">
<div class="card"><div class="muted">primary</div><div class="big" id="primary">${metric(r.performance.primary.value)}</div>${primaryCell(s)}</div>
<div class="card"><div class="muted">spend</div><div class="big">${usd(res.spent_usd)}</div><div class="muted">of ${usd(res.budget_usd, 2)} · LLM ${usd(res.llm_usd)} · fees ${usd(res.fees_usd)}</div></div>
<div class="card"><div class="muted">activity</div><div>${count(res.wakes)} wakes · ${count(res.tool_calls)} tool calls (${count(res.rejected_calls)} rejected)</div><div>${count(res.llm_calls)} LLM calls · ${count(res.llm_failed_attempts)} failed attempts · ${count(res.protocol_retries)} protocol retries</div><div class="muted">${count(s.events)} ledger events</div></div>
<div class="card"><div class="muted">flags</div>${s.flags.length > 0 ? flagBadges(s.flags) : html`<span class="muted">none</span>`}</div>
</div>
<h2>Performance</h2>
<table><tbody>${perf.map(([k, v]) => html`<tr><th>${k}</th><td class="num">${typeof v === "object" && v !== null ? `${v.name} ${metric(v.value)} (${v.direction})` : metric(v)}</td></tr>`)}</tbody></table>
<h2>Timing</h2>
${kv([
  ["anytime AUC", metric(r.timing.auc)],
  [
    "first valid commitment",
    r.timing.first_commitment_hours === null ? "—" : `${metric(r.timing.first_commitment_hours)} h`,
  ],
  [`hours to target ${metric(r.timing.target)}`, metric(r.timing.hours_to_target)],
  ["sampling", r.timing.anytime_interval],
])}
${anytimeSvg(r)}
<h2>Resources</h2>
${kv([
  [
    "spend by type",
    Object.entries(res.spend_by_type)
      .map(([k, v]) => `${k} ${usd(v)}`)
      .join(" · ") || "—",
  ],
  [
    "tokens",
    `${count(res.tokens.input)} in (${count(res.tokens.cached_input)} cached) · ${count(res.tokens.output)} out`,
  ],
  ["overshoot", usd(res.overshoot_usd)],
])}
<h2>Diagnostics</h2>
${kv([
  ["days without a wake", count(r.diagnostics.days_without_wake)],
  [
    "weekly median wake interval (h)",
    r.diagnostics.weekly_median_wake_interval_h.map((v) => metric(v)).join(", ") || "—",
  ],
  ["wake interval drift", metric(r.diagnostics.wake_interval_drift)],
  ["no-op wake share", metric(r.diagnostics.noop_wake_share)],
  ["late deviation weeks", r.diagnostics.late_deviation_weeks.join(", ") || "none"],
  ["missed", count(r.diagnostics.missed)],
  [
    "wake reasons",
    Object.entries(r.diagnostics.wake_reasons)
      .map(([k, v]) => `${k} ${v}`)
      .join(" · ") || "—",
  ],
])}
<h2>Outcomes</h2>
<p>${count(r.outcomes.length)} settled: ${[...outcomeStatus].map(([k, v]) => `${k} ${v}`).join(" · ") || "none"} · <a href="/runs/${s.id}/ledger?type=outcome">page through them in the ledger</a></p>
${
  r.not_scorable.length > 0
    ? html`<h2>Not scorable</h2><table><tbody>${r.not_scorable.slice(0, 200).map((n) => html`<tr><td class="mono">${n.key}</td><td>${n.reason}</td></tr>`)}</tbody></table>${r.not_scorable.length > 200 ? html`<p class="muted">… and ${r.not_scorable.length - 200} more</p>` : ""}`
    : ""
}`;
}

function progressBody(d: RunDetails): Html {
  const s = d.summary;
  const brief = d.tail?.brief ?? null;
  const what =
    s.status === "running"
      ? "This run is in progress (its ledger changed in the last minute)."
      : s.status === "paused"
        ? "This run is paused (checkpoint or partial results, no results.json yet)."
        : s.status === "empty"
          ? "This run directory has no ledger yet."
          : s.status === "failed"
            ? html`This run stopped before it could score: the model provider failed (the last ledger line says why). Fix the endpoint or key, then continue it with <code>relive resume ${s.root}/${s.rel}</code>.`
            : html`This run has no results.json and its ledger has not changed for a while: it was interrupted. Continue it with <code>relive resume ${s.root}/${s.rel}</code>.`;
  return html`<p class="note" id="progress">${what}</p>
<div class="cards">
<div class="card"><div class="muted">ledger so far</div><div class="big">${count(s.events)}</div><div class="muted">events, last at ${s.last_t ?? "—"}</div></div>
<div class="card"><div class="muted">simulated progress</div><div class="big">${s.day !== null ? `day ${s.day} of ${s.days}` : "—"}</div><div class="muted">${s.sim_start ?? "?"} → ${s.sim_end ?? "?"}</div></div>
<div class="card"><div class="muted">spend at the latest daily brief</div><div class="big">${usd(s.spent_usd)}</div><div class="muted">${brief !== null && typeof brief.text === "string" ? brief.text : "no daily brief in the ledger's tail"}</div></div>
<div class="card"><div class="muted">flags</div>${s.flags.length > 0 ? flagBadges(s.flags) : html`<span class="muted">none</span>`}</div>
</div>
${
  d.results_raw !== null
    ? html`<h2>Partial results</h2><pre>${JSON.stringify(d.results_raw, null, 2).slice(0, 20000)}</pre>`
    : ""
}`;
}

/** A results.json that does not match the current schema (another harness version): what it still says, and the file. */
function offSchemaBody(d: RunDetails): Html {
  const s = d.summary;
  return html`<div class="cards">
<div class="card"><div class="muted">primary</div><div class="big" id="primary">${metric(s.primary?.value)}</div>${primaryCell(s)}</div>
<div class="card"><div class="muted">spend</div><div class="big">${usd(s.spent_usd)}</div><div class="muted">of ${usd(s.budget_usd, 2)}</div></div>
<div class="card"><div class="muted">ledger</div><div class="big">${count(s.events)}</div><div class="muted">events</div></div>
<div class="card"><div class="muted">flags</div>${s.flags.length > 0 ? flagBadges(s.flags) : html`<span class="muted">none</span>`}</div>
</div>
<h2>results.json (as written)</h2><pre>${JSON.stringify(d.results_raw, null, 2).slice(0, 50000)}</pre>`;
}

/** The run summary tab: results when finished, ledger progress otherwise; problems and config. */
export function runSummaryPage(d: RunDetails): Html {
  const s = d.summary;
  const main =
    d.results !== null
      ? resultsBody(s, d.results)
      : s.status === "finished" && d.results_raw !== null
        ? offSchemaBody(d)
        : progressBody(d);
  const body = html`${s.problems.length > 0 ? html`<div class="note err">${s.problems.map((p) => html`<div>${p}</div>`)}</div>` : ""}
${main}
<h2>Run</h2>
${kv([
  ["run id", s.run_id ?? "—"],
  ["simulated window", `${s.sim_start ?? "?"} → ${s.sim_end ?? "?"}`],
  ["budget", usd(s.budget_usd, 2)],
  ["last ledger time", s.last_t !== null ? isoTime(Date.parse(s.last_t)) : "—"],
])}
<details><summary>config.json</summary><pre>${d.config === null ? "(none)" : JSON.stringify(d.config, null, 2)}</pre></details>`;
  return runPage(s, "summary", body, `/api/runs/${s.id}`);
}
