import type { ChartSpec } from "./charts.js";
import { esc, fStat, interval, num, pct, pValue, sig, ss, usd, x100 } from "./format.js";
import type { AnovaData, CellData, ExperimentData, PooledSd, ReportData } from "./report-data.js";

export interface RenderedChart extends ChartSpec {
  svg: string;
}

export interface ExperimentCharts {
  charts: RenderedChart[];
  missing: string[];
}

const CSS = `
:root { color-scheme: light; }
body { font: 14px/1.45 Helvetica, Arial, sans-serif; color: #1f2328; margin: 0; background: #f6f8fa; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 64px; background: #fff; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 40px 0 6px; padding-top: 12px; border-top: 2px solid #d0d7de; }
h3 { font-size: 16px; margin: 26px 0 8px; }
p.meta, .meta { color: #57606a; font-size: 13px; margin: 2px 0; }
nav ul { margin: 6px 0 0; padding-left: 20px; }
table { border-collapse: collapse; margin: 6px 0 10px; font-size: 13px; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; vertical-align: top; }
th { background: #f3f5f7; text-align: left; font-weight: 600; }
tbody tr:nth-child(even) td { background: #fafbfc; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.grid { text-align: center; min-width: 120px; }
.score { font-size: 15px; font-weight: 600; font-variant-numeric: tabular-nums; }
.sub { color: #57606a; font-size: 12px; }
.warn { color: #9a6700; }
.note { color: #57606a; font-size: 12px; margin: 2px 0 8px; }
figure { margin: 14px 0 22px; }
figcaption { font-weight: 600; margin-bottom: 4px; }
figure svg { max-width: 100%; height: auto; display: block; }
code { font-size: 12px; background: #f3f5f7; padding: 1px 4px; border-radius: 3px; }
.scroll { overflow-x: auto; }
`;

const th = (s: string, cls = "") => `<th${cls ? ` class="${cls}"` : ""}>${s}</th>`;
const td = (s: string, cls = "") => `<td${cls ? ` class="${cls}"` : ""}>${s}</td>`;
const table = (head: string[], rows: string[][], numCols: ReadonlySet<number> = new Set()) =>
  `<div class="scroll"><table><thead><tr>${head.map((h, i) => th(h, numCols.has(i) ? "num" : "")).join("")}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c, i) => td(c, numCols.has(i) ? "num" : "")).join("")}</tr>`)
    .join("")}</tbody></table></div>`;
const range = (a: number, b: number) => new Set(Array.from({ length: b - a }, (_, i) => a + i));

/** pass^k at k = 1, 2, 4, 8 and n. */
const passK = (c: CellData) => {
  if (!c.pass_k || c.pass_k.length === 0) return "—";
  const n = c.pass_k.length;
  const ks = [...new Set([1, 2, 4, 8, n])].filter((k) => k <= n);
  return ks.map((k) => `k=${k}: ${c.pass_k![k - 1]!.value.toFixed(2)}`).join("<br>");
};

/** "78.3 ± 4.1" with mean spend, or the share of window survived when a seed exhausted its budget. */
function gridCell(c: CellData | undefined): string {
  if (!c) return "";
  const score = c.n === 0 ? "not scorable" : `${x100(c.mean)}${c.sd !== null ? ` ± ${x100(c.sd)}` : ""}`;
  const second =
    c.exhausted > 0
      ? `<span class="warn">survived ${pct(c.window_survived_mean)} of window (${c.exhausted}/${c.runs} exhausted)</span>`
      : `${usd(c.spend_mean_usd)} mean spend`;
  return `<div class="score">${esc(score)}</div><div class="sub">${second} · n=${c.n}${c.not_scorable ? ` (+${c.not_scorable} n/s)` : ""}</div>`;
}

function mainTable(e: ExperimentData): string {
  const models = [...new Set(e.cells.map((c) => c.model))];
  const series = [...new Set(e.cells.map((c) => c.series))];
  const rows = models.map((m) => [
    `<b>${esc(m)}</b>`,
    ...series.map((s) => gridCell(e.cells.find((c) => c.model === m && c.series === s))),
  ]);
  return `<div class="scroll"><table><thead><tr>${th("model")}${series.map((s) => th(esc(s))).join("")}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c, i) => td(c, i ? "grid" : "")).join("")}</tr>`)
    .join("")}</tbody></table></div>`;
}

function cellTable(e: ExperimentData): string {
  const head = [
    "model",
    "trigger · axes",
    "runs",
    "seeds",
    "mean ×100",
    "SD ×100",
    "95% CI ×100",
    ...(e.binary ? ["pass^k"] : []),
    "mean spend",
    "LLM / fees",
    "score ×100 per $",
    "exhausted",
    "window survived",
    "AUC ×100",
  ];
  const rows = e.cells.map((c) => [
    esc(c.model),
    esc(c.series),
    `${c.runs}${c.not_scorable ? ` (${c.not_scorable} n/s)` : ""}`,
    esc(c.seeds.map((s, i) => (c.world_seeds[i] === null ? String(s) : `${s}·w${c.world_seeds[i]}`)).join(", ")),
    x100(c.mean),
    x100(c.sd),
    interval(c.ci95),
    ...(e.binary ? [passK(c)] : []),
    usd(c.spend_mean_usd),
    `${usd(c.llm_mean_usd)} / ${usd(c.fees_mean_usd)}`,
    c.score_per_usd === null ? "—" : sig(c.score_per_usd * 100, 4),
    String(c.exhausted),
    c.exhausted ? pct(c.window_survived_mean) : "—",
    x100(c.auc_mean),
  ]);
  const numeric = new Set([2, ...range(4, head.length)]);
  if (e.binary) numeric.delete(7);
  return table(head, rows, numeric);
}

function anovaTable(a: AnovaData): string {
  const stratum = Object.entries(a.stratum);
  const title = stratum.length
    ? `<p class="meta">with ${stratum.map(([k, v]) => `<code>${esc(k)}=${esc(v)}</code>`).join(", ")}</p>`
    : "";
  const rows = a.terms.map((t) => [
    esc(t.source),
    ss(t.ss),
    String(t.df),
    a.no_variance ? "no variance" : pct(t.share),
    a.no_variance && t.source !== "residual (seed)" ? "no variance" : fStat(t.f),
    pValue(t.p),
  ]);
  rows.push(["total", ss(a.total_ss), String(a.total_df), a.no_variance ? "no variance" : "100%", "", ""]);
  const notes = a.notes.map((n) => `<p class="note">${esc(n)}</p>`).join("");
  return `${title}${table(["source", "SS", "df", "share of total SS", "F", "p"], rows, range(1, 6))}<p class="meta">n = ${a.n}; models: ${esc(a.models.join(", "))}; triggers: ${esc(a.triggers.join(", "))}${a.balanced ? "; balanced" : ""}</p>${notes}`;
}

/** Per-span optimizer scores of each optimizer cell: mean ×100 per span, with candidates kept / run there. */
function optimizerTable(e: ExperimentData): string {
  const cells = e.cells.filter((c) => c.optimizer_spans);
  const spans = [...new Set(cells.flatMap((c) => c.optimizer_spans!.map((x) => x.span)))].sort((a, b) => a - b);
  const head = `<tr><th>cell</th>${spans.map((s) => `<th>span ${s}</th>`).join("")}</tr>`;
  const rows = cells.map((c) => {
    const tds = spans.map((s) => {
      const x = c.optimizer_spans!.find((y) => y.span === s);
      if (!x) return "<td>—</td>";
      const v = x.mean === null ? "—" : (x.mean * 100).toFixed(1);
      return `<td>${v}${x.candidates ? ` <span class="muted">(${x.kept}/${x.candidates} kept)</span>` : ""}</td>`;
    });
    return `<tr><td>${esc(`${c.model} · ${c.series}`)}</td>${tds.join("")}</tr>`;
  });
  return `<table>${head}${rows.join("")}</table>`;
}

/** The paper's Table 1 shape: primary ×100 ± SD without and with each learning method, and its cost multiplier. */
function learningTable(e: ExperimentData): string {
  const rows = e.learning ?? [];
  const methods = [...new Set(rows.flatMap((r) => r.methods.map((m) => m.method)))].sort();
  const cell = (m: { mean: number | null; sd: number | null; n: number } | null | undefined) =>
    m ? `${x100(m.mean)} ± ${x100(m.sd)} (n ${m.n})` : "—";
  const body = rows.map((r) => {
    const other = Object.entries(r.stratum)
      .map(([k, v]) => `${k}=${v}`)
      .join(" · ");
    return [
      `<code>${esc(r.axis)}</code>`,
      esc(r.model),
      esc(r.trigger) + (other ? ` · ${esc(other)}` : ""),
      cell(r.without),
      ...methods.flatMap((name) => {
        const m = r.methods.find((x) => x.method === name);
        return [cell(m), m?.cost_multiplier == null ? "—" : `×${m.cost_multiplier.toPrecision(3)}`];
      }),
    ];
  });
  return table(
    ["axis", "model", "trigger", "without", ...methods.flatMap((m) => [`with ${esc(m)}`, `cost × (${esc(m)})`])],
    body,
    range(3, 4 + 2 * methods.length),
  );
}

function deltaTable(e: ExperimentData): string {
  const rows = e.deltas.map((d) => [
    `<code>${esc(d.axis)}</code>`,
    esc(d.baseline),
    esc(d.level),
    String(d.pairs),
    d.mean_delta === null ? "—" : `${d.mean_delta >= 0 ? "+" : ""}${x100(d.mean_delta)}`,
    interval(d.ci95),
    usd(d.baseline_spend_mean_usd),
    usd(d.level_spend_mean_usd),
    d.cost_multiplier === null ? "—" : `×${sig(d.cost_multiplier, 3)}`,
  ]);
  return table(
    [
      "axis",
      "baseline",
      "level",
      "pairs",
      "mean Δ ×100",
      "95% CI ×100",
      "baseline spend",
      "level spend",
      "cost multiplier",
    ],
    rows,
    range(3, 9),
  );
}

const signed = (v: number | null, f: (x: number) => string) => (v === null ? "—" : `${v >= 0 ? "+" : ""}${f(v)}`);
const fixed = (digits: number) => (v: number) => v.toFixed(digits);

/** FutureSim's main table: harness arm × model with the primary, top-1 accuracy, Brier skill, steps and the anytime curve. */
function futureSimMain(e: ExperimentData): string {
  const fs = e.futuresim!;
  const rows = fs.main.map((r) => [
    esc(r.arm),
    esc(r.model),
    String(r.runs),
    num(r.primary, 2),
    pct(r.accuracy),
    num(r.bss_day0, 3),
    num(r.bss_final, 3),
    num(r.steps, 1),
    esc(r.anytime.map((a) => (a.mean === null ? "—" : a.mean.toFixed(1))).join(" → ")),
  ]);
  return table(
    [
      "harness arm",
      "model",
      "runs",
      esc(e.primary.name),
      "top-1 accuracy",
      "BSS day 0",
      "BSS final",
      "steps",
      "anytime (per day)",
    ],
    rows,
    range(2, 8),
  );
}

/** FutureSim's ablation table: one row per switch, paired deltas against the full configuration. */
function futureSimAblations(e: ExperimentData): string {
  const fs = e.futuresim!;
  if (fs.ablations.length === 0) return '<p class="note">no switch varies between these runs</p>';
  const rows = fs.ablations.map((a) => [
    `<code>${esc(a.switch)}</code>`,
    esc(a.baseline),
    String(a.pairs),
    signed(a.delta_primary, fixed(2)),
    a.delta_primary_ci95 ? `[${a.delta_primary_ci95.lo.toFixed(2)}, ${a.delta_primary_ci95.hi.toFixed(2)}]` : "—",
    signed(a.delta_accuracy === null ? null : a.delta_accuracy * 100, fixed(1)),
    signed(a.delta_bss_day0, fixed(3)),
    signed(a.delta_bss_final, fixed(3)),
    signed(a.delta_steps, fixed(1)),
  ]);
  return table(
    [
      "switch",
      "full configuration",
      "pairs",
      `Δ ${esc(e.primary.name)}`,
      "95% CI",
      "Δ accuracy (pts)",
      "Δ BSS day 0",
      "Δ BSS final",
      "Δ steps",
    ],
    rows,
    range(2, 9),
  );
}

/** The headline: per task · episode, each trigger against the baseline trigger, paired on model, replicate and axes. */
function headlineSection(d: ReportData): string {
  const rows = d.experiments.flatMap((e, i) =>
    e.trigger_deltas.map((t) => [
      `<a href="#exp-${i}">${esc(e.task)} · ${esc(e.episode)}</a>`,
      `${esc(t.level)} vs ${esc(t.baseline)}`,
      String(t.pairs),
      signed(t.mean_delta, x100),
      interval(t.ci95),
      t.cost_multiplier === null ? "—" : `×${sig(t.cost_multiplier, 3)}`,
      esc(`${e.primary.direction} is better`),
    ]),
  );
  if (rows.length === 0)
    return '<p class="note">no experiment has runs under two triggers with the same model, replicate and axes: no trigger delta to show</p>';
  return table(
    ["task · episode", "trigger", "pairs", "mean Δ ×100", "95% CI ×100", "cost multiplier", "primary"],
    rows,
    range(2, 6),
  );
}

/** Results sliced by the tasks' capability axes (tasks.md). */
function capabilitySection(d: ReportData): string {
  if (d.capability_slices.length === 0)
    return '<p class="note">no run recorded its task\'s capability axes (results written before they were recorded)</p>';
  const triggers = [...new Set(d.capability_slices.flatMap((s) => s.by_trigger.map((t) => t.trigger)))];
  const rows = d.capability_slices.map((s) => [
    `<code>${esc(s.axis)}</code> = ${esc(s.value)}`,
    esc(s.tasks.join(", ")),
    ...triggers.map((tr) => {
      const t = s.by_trigger.find((x) => x.trigger === tr);
      if (!t || t.experiments === 0) return "—";
      return `${x100(t.mean_primary)}${t.mean_delta !== null ? ` <span class="sub">(Δ ${signed(t.mean_delta, x100)})</span>` : ""}`;
    }),
    s.excluded.length ? esc(s.excluded.join(", ")) : "",
  ]);
  return `${table(["capability", "tasks", ...triggers.map(esc), "left out (lower is better)"], rows, range(2, 2 + triggers.length))}
<p class="meta">Each cell: the mean over the slice's experiments of that trigger's mean primary ×100 (higher-is-better primaries only), and in brackets the mean headline Δ against the baseline trigger.</p>`;
}

const sdTable = (rows: readonly PooledSd[]) =>
  table(
    ["trigger", "pooled seed SD ×100", "df", "cells"],
    rows.map((r) => [esc(r.trigger), x100(r.sd), String(r.df), String(r.cells)]),
    range(1, 4),
  );

function diagnosticsTable(e: ExperimentData): string {
  const head = [
    "model",
    "trigger · axes",
    "days without wake",
    "wake interval drift",
    "no-op wake share",
    "late-deviation runs",
    "missed",
    "wakes",
    "tool calls",
    "rejected / retries",
    "first commitment (h)",
    "hours to target",
    "degenerate / early",
    "median reaction (h)",
    "wake reasons (total)",
  ];
  const rows = e.cells.map((c) => {
    const d = c.diagnostics;
    return [
      esc(c.model),
      esc(c.series),
      num(d.days_without_wake_mean),
      d.wake_interval_drift_mean === null ? "—" : `×${num(d.wake_interval_drift_mean)}`,
      pct(d.noop_wake_share_mean),
      `${d.late_deviation_runs}/${c.runs}`,
      num(d.missed_mean),
      num(d.wakes_mean, 1),
      num(d.tool_calls_mean, 1),
      `${num(d.rejected_calls_mean, 1)} / ${num(d.protocol_retries_mean, 1)}`,
      num(d.first_commitment_hours_mean, 1),
      num(d.hours_to_target_mean, 1),
      `${d.failed_degenerate} / ${d.finished_early}`,
      d.reactions === 0 ? "—" : `${num(d.reaction_h_p50_mean, 2)} (${d.reactions})`,
      esc(
        Object.entries(d.wake_reasons)
          .map(([k, v]) => `${k} ${v}`)
          .join(", "),
      ),
    ];
  });
  return table(head, rows, new Set(range(2, 14)));
}

const figure = (c: RenderedChart) =>
  `<figure id="${esc(c.id)}" class="chart"><figcaption>${esc(c.title)}</figcaption>${c.svg}</figure>`;

function experimentSection(e: ExperimentData, i: number, charts: ExperimentCharts): string {
  const chart = (suffix: string) => charts.charts.find((c) => c.id.endsWith(`-${suffix}`));
  const fig = (suffix: string) => {
    const c = chart(suffix);
    return c ? figure(c) : "";
  };
  const versions = (["task_version", "scorer_version", "harness_version"] as const)
    .map(
      (k) =>
        `${k} ${e.versions[k].map((v) => `<code>${esc(v)}</code>`).join(" + ")}${e.versions[k].length > 1 ? ' <span class="warn">(pooled)</span>' : ""}`,
    )
    .join(" · ");
  const axes = e.axes.length
    ? `<p class="meta">ablation axes: ${e.axes.map((a) => `<code>${esc(a.path)}</code> ∈ {${a.values.map(esc).join(", ")}} (baseline ${esc(a.baseline)})`).join("; ")}</p>`
    : "";
  return `<section id="exp-${i}">
<h2>${esc(e.task)} · ${esc(e.episode)}</h2>
<p class="meta">window ${esc(e.sim_start)} → ${esc(e.sim_end)} · ${e.runs} runs · primary <code>${esc(e.primary.name)}</code> (${e.primary.direction} is better${e.binary ? ", binary" : ""})</p>
<p class="meta">${versions}</p>${axes}
<h3>${esc(e.primary.name)} ×100 ± 1 SD by model × trigger, with mean spend or share of window survived</h3>
${mainTable(e)}
${fig("score")}
${fig("frontier")}
<h3>Cells</h3>
${cellTable(e)}
<h3>Variance decomposition (two-way ANOVA, Type II SS)</h3>
${e.anova.length ? e.anova.map(anovaTable).join("") : '<p class="note">no decomposition: fewer than two scorable runs in every stratum</p>'}
<h3>Paired deltas per ablation axis</h3>
${e.deltas.length ? deltaTable(e) : '<p class="note">no config field other than model, trigger and seed varies between these runs</p>'}
${e.learning?.length ? `<h3>Learning: ${esc(e.primary.name)} ×100 ± 1 SD with and without the method, by model × trigger (Table 1 shape)</h3>\n${learningTable(e)}\n` : ""}${
  e.futuresim
    ? `<h3>FutureSim results: harness arm × model</h3>
${futureSimMain(e)}
<h3>FutureSim ablations: one row per switch, paired Δ against the full configuration</h3>
${futureSimAblations(e)}`
    : ""
}
<h3>Pooled within-cell seed SD by trigger</h3>
${sdTable(e.pooled_seed_sd)}
<h3>Failure-mode diagnostics (means per run)</h3>
${diagnosticsTable(e)}
${fig("anytime")}
${e.cells.some((c) => c.optimizer_spans) ? `<h3>Harness optimizer: settled score ×100 per span (candidates kept / run)</h3>\n${optimizerTable(e)}\n` : ""}${fig("optimizer")}
${fig("wakes")}
${fig("wake-count")}
${fig("reaction")}
${fig("cost")}
${fig("per-dollar")}
${charts.missing.map((m) => `<p class="note">chart left out — ${esc(m)}</p>`).join("")}
</section>`;
}

function rankSection(d: ReportData): string {
  const r = d.rank_consistency;
  if (r.note && r.ranks.length === 0) return `<p class="note">Kendall's W not available: ${esc(r.note)}</p>`;
  const head = ["task · episode", ...r.models.map(esc)];
  const rows = r.judges.map((j, i) => [
    `${esc(j.task)} · ${esc(j.episode)}`,
    ...r.models.map((_, m) => `${num(r.ranks[i]![m]!, 1)} <span class="sub">(${x100(r.means[i]![m]!)})</span>`),
  ]);
  rows.push(["<b>mean rank</b>", ...r.mean_ranks.map((v) => `<b>${num(v, 2)}</b>`)]);
  const excluded = r.excluded_models.length
    ? `<p class="note">left out (not in every experiment): ${esc(r.excluded_models.join(", "))}</p>`
    : "";
  return `${table(head, rows, range(1, head.length))}<p class="meta">Kendall's W = ${num(r.w, 3)} · χ² = ${num(r.chi2, 3)} (df ${r.df}) · p = ${pValue(r.p)}${r.note ? ` · ${esc(r.note)}` : ""}</p>${excluded}`;
}

/** The report as one self-contained HTML document (inline CSS and SVG, no scripts, no external URLs). */
export function renderHtml(d: ReportData, charts: readonly ExperimentCharts[], title = "relive report"): string {
  const toc = d.experiments
    .map(
      (e, i) =>
        `<li><a href="#exp-${i}">${esc(e.task)} · ${esc(e.episode)}</a> (${e.runs} runs, ${e.cells.length} cells)</li>`,
    )
    .join("");
  const skipped = d.skipped.length
    ? `<h3>Skipped run directories</h3>${table(
        ["directory", "reason"],
        d.skipped.map((s) => [`<code>${esc(s.dir)}</code>`, esc(s.reason)]),
      )}`
    : "";
  const m = d.methods;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>${esc(title)}</h1>
<p class="meta">${d.runs_total} runs in ${d.experiments.length} experiment(s)${d.skipped.length ? ` · ${d.skipped.length} unfinished run(s) skipped` : ""}${d.pooled_versions ? ' · <span class="warn">runs of different task/scorer/harness versions pooled (--pool-versions)</span>' : ""}. Scores are shown ×100; ± is one standard deviation over replicates (seeds and world seeds).</p>
<nav><ul><li><a href="#headline">Headline: trigger deltas</a></li>${toc}<li><a href="#across">Across tasks</a></li><li><a href="#methods">Methods</a></li></ul></nav>
<section id="headline">
<h2>Headline: does the trigger matter?</h2>
${headlineSection(d)}
</section>
${d.experiments.map((e, i) => experimentSection(e, i, charts[i]!)).join("\n")}
<section id="across">
<h2>Across tasks</h2>
<h3>Rank consistency of models (Kendall's W)</h3>
${rankSection(d)}
<h3>By capability (time sensitivity, reasoning, recurrence)</h3>
${capabilitySection(d)}
<h3>Pooled within-cell seed SD by trigger (all experiments)</h3>
${sdTable(d.pooled_seed_sd_all)}
${skipped}
</section>
<section id="methods">
<h2>Methods</h2>
<ul>
<li>95% CI: ${esc(m.bootstrap.method)} bootstrap of the mean, ${m.bootstrap.resamples.toLocaleString("en-US")} resamples, seed ${m.bootstrap.seed}, ${esc(m.bootstrap.generator)}; no interval below two seeds.</li>
<li>Variance decomposition: ${esc(m.anova)}.</li>
<li>pass^k: ${esc(m.pass_k)}.</li>
<li>Rank consistency: ${esc(m.kendall_w)}.</li>
<li>Window survived: ${esc(m.window_survived)}.</li>
<li>Paired deltas: pairs are runs identical in model, trigger, replicate (seed and world seed) and every other varying axis; Δ = level − baseline; cost multiplier = mean level spend / mean baseline spend over the pairs. Headline trigger deltas pair runs identical in model, replicate and every axis; the baseline trigger is sleep when present, else the trigger with most runs.</li>
<li>Replicates: world seeds are replicates like seeds (never axes); a cell's n counts every seed × world seed.</li>
<li>Pooled seed SD: √(Σ (nᵢ − 1) sᵢ² / Σ (nᵢ − 1)) over cells with at least two scorable seeds.</li>
</ul>
</section>
</main>
</body>
</html>
`;
}
