import type { TopLevelSpec } from "vega-lite";
import { DAY_MS } from "../common/time.js";
import type { TimelineRun } from "./aggregate.js";
import type { CellData, ExperimentData, ReportRun } from "./report-data.js";

export interface ChartSpec {
  id: string;
  title: string;
  spec: TopLevelSpec;
}

const widthFor = (items: number, per = 46) => Math.min(1000, Math.max(320, items * per));
const cellName = (c: { model: string; series: string }) => `${c.model} · ${c.series}`;
const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";

/** Score by model × trigger: mean ×100 with the 95% bootstrap CI as an error bar. */
function scoreChart(e: ExperimentData): TopLevelSpec | null {
  const values = e.cells
    .filter((c) => c.mean !== null)
    .map((c) => ({
      model: c.model,
      series: c.series,
      mean: c.mean! * 100,
      lo: c.ci95 ? c.ci95.lo * 100 : null,
      hi: c.ci95 ? c.ci95.hi * 100 : null,
      n: c.n,
    }));
  if (values.length === 0) return null;
  const models = new Set(values.map((v) => v.model)).size;
  const y = { type: "quantitative" as const, title: `${e.primary.name} ×100 (${e.primary.direction} is better)` };
  return {
    $schema: SCHEMA,
    width: widthFor(values.length, 60),
    height: 260,
    data: { values },
    encoding: {
      x: { field: "model", type: "nominal", title: "model", axis: { labelAngle: models > 3 ? -25 : 0 } },
      xOffset: { field: "series", type: "nominal" },
      color: { field: "series", type: "nominal", title: "trigger · axes" },
    },
    layer: [
      {
        transform: [{ filter: "isValid(datum.lo)" }],
        mark: { type: "rule", strokeWidth: 2 },
        encoding: { y: { field: "lo", ...y }, y2: { field: "hi" } },
      },
      { mark: { type: "point", filled: true, size: 70 }, encoding: { y: { field: "mean", ...y } } },
    ],
  } as TopLevelSpec;
}

/** Anytime curves: the cell mean of the primary at each simulated day end. */
function anytimeChart(e: ExperimentData): TopLevelSpec | null {
  const values = e.cells.flatMap((c) =>
    c.anytime.filter((a) => a.mean !== null).map((a) => ({ cell: cellName(c), day: a.day, value: a.mean! * 100 })),
  );
  if (values.length === 0) return null;
  const days = Math.round((Date.parse(e.sim_end) - Date.parse(e.sim_start)) / DAY_MS);
  return {
    $schema: SCHEMA,
    width: 560,
    height: 260,
    data: { values },
    mark: { type: "line", point: true },
    encoding: {
      x: {
        field: "day",
        type: "quantitative",
        title: "simulated day",
        scale: { domain: [1, Math.max(2, days)] },
        axis: { tickMinStep: 1, format: "d" },
      },
      y: { field: "value", type: "quantitative", title: `${e.primary.name} ×100 on [start, day end)` },
      color: { field: "cell", type: "nominal", title: "model · trigger · axes" },
    },
  } as TopLevelSpec;
}

/** Per-span optimizer curves: each optimizer cell's mean settled span score, span by span (control arms included). */
function optimizerChart(e: ExperimentData): TopLevelSpec | null {
  const values = e.cells.flatMap((c) =>
    (c.optimizer_spans ?? [])
      .filter((x) => x.mean !== null)
      .map((x) => ({ cell: cellName(c), span: x.span, value: x.mean! * 100 })),
  );
  if (values.length === 0) return null;
  return {
    $schema: SCHEMA,
    width: 560,
    height: 260,
    data: { values },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "span", type: "quantitative", title: "span", axis: { tickMinStep: 1, format: "d" } },
      y: { field: "value", type: "quantitative", title: `${e.primary.name} ×100 on the span (settled units)` },
      color: { field: "cell", type: "nominal", title: "model · trigger · axes" },
    },
  } as TopLevelSpec;
}

/** Wake timelines of sampled runs: one tick per wake, colored by reason. */
function wakeChart(e: ExperimentData, runs: readonly TimelineRun[]): TopLevelSpec | null {
  const values = runs.flatMap((r) =>
    r.scan.wakes.map((w) => ({ run: r.label, day: (w.t - r.sim_start) / DAY_MS, reason: w.reason })),
  );
  if (values.length === 0) return null;
  const days = (Date.parse(e.sim_end) - Date.parse(e.sim_start)) / DAY_MS;
  return {
    $schema: SCHEMA,
    width: 640,
    height: Math.max(60, runs.length * 20),
    data: { values },
    mark: { type: "tick", thickness: 1.5, opacity: 0.85 },
    encoding: {
      x: { field: "day", type: "quantitative", title: "simulated days since start", scale: { domain: [0, days] } },
      y: { field: "run", type: "nominal", title: null, sort: runs.map((r) => r.label) },
      color: { field: "reason", type: "nominal", title: "wake reason" },
    },
  } as TopLevelSpec;
}

/** Cost per run: every run's spend as a point over the cell mean as a bar. */
function costChart(e: ExperimentData, spendByDir: ReadonlyMap<string, number>): TopLevelSpec {
  const values = e.cells.flatMap((c) =>
    c.run_dirs.map((dir, i) => ({ cell: cellName(c), seed: c.seeds[i]!, spent: spendByDir.get(dir) ?? 0 })),
  );
  return {
    $schema: SCHEMA,
    width: widthFor(e.cells.length),
    height: 240,
    data: { values },
    encoding: {
      x: { field: "cell", type: "nominal", title: null, sort: e.cells.map(cellName), axis: { labelAngle: -30 } },
    },
    layer: [
      {
        mark: { type: "bar", color: "#9ecae1", width: { band: 0.6 } },
        encoding: { y: { aggregate: "mean", field: "spent", type: "quantitative", title: "spend per run (USD)" } },
      },
      {
        mark: { type: "circle", color: "#08519c", size: 40, opacity: 0.8 },
        encoding: { y: { field: "spent", type: "quantitative" } },
      },
    ],
  } as TopLevelSpec;
}

/** Score per dollar: cell mean primary ×100 per mean USD spent. */
function scorePerDollarChart(e: ExperimentData): TopLevelSpec | null {
  const values = e.cells
    .filter((c) => c.score_per_usd !== null)
    .map((c) => ({ cell: cellName(c), value: c.score_per_usd! * 100 }));
  if (values.length === 0) return null;
  return {
    $schema: SCHEMA,
    width: widthFor(values.length),
    height: 240,
    data: { values },
    mark: { type: "bar", color: "#31a354" },
    encoding: {
      x: { field: "cell", type: "nominal", title: null, sort: values.map((v) => v.cell), axis: { labelAngle: -30 } },
      y: { field: "value", type: "quantitative", title: `${e.primary.name} ×100 per USD` },
    },
  } as TopLevelSpec;
}

/**
 * The cells on the score-versus-spend Pareto frontier: no other cell scores at least as well for
 * at most the same mean spend and is strictly better in one of the two. Sorted by spend.
 */
export function paretoFrontier(cells: readonly CellData[], direction: "higher" | "lower"): CellData[] {
  const scored = cells.filter((c) => c.mean !== null);
  const better = (a: number, b: number) => (direction === "higher" ? a > b : a < b);
  const atLeast = (a: number, b: number) => a === b || better(a, b);
  return scored
    .filter(
      (c) =>
        !scored.some(
          (o) =>
            o !== c &&
            o.spend_mean_usd <= c.spend_mean_usd &&
            atLeast(o.mean!, c.mean!) &&
            (o.spend_mean_usd < c.spend_mean_usd || better(o.mean!, c.mean!)),
        ),
    )
    .sort((a, b) => a.spend_mean_usd - b.spend_mean_usd || a.mean! - b.mean!);
}

/** Score against spend per cell (model × trigger × axes), with the Pareto frontier drawn through the cells no other dominates. */
function frontierChart(e: ExperimentData): TopLevelSpec | null {
  const frontier = new Set(paretoFrontier(e.cells, e.primary.direction));
  const values = e.cells
    .filter((c) => c.mean !== null)
    .map((c) => ({
      model: c.model,
      series: c.series,
      spend: c.spend_mean_usd,
      mean: c.mean! * 100,
      frontier: frontier.has(c) ? "on the frontier" : "dominated",
    }));
  if (values.length === 0) return null;
  const line = [...frontier].map((c) => ({ spend: c.spend_mean_usd, mean: c.mean! * 100 }));
  const y = {
    field: "mean",
    type: "quantitative" as const,
    title: `${e.primary.name} ×100 (${e.primary.direction} is better)`,
  };
  const x = { field: "spend", type: "quantitative" as const, title: "mean spend per run (USD)" };
  return {
    $schema: SCHEMA,
    width: 520,
    height: 280,
    layer: [
      {
        data: { values: line },
        mark: { type: "line", color: "#57606a", strokeDash: [4, 3], interpolate: "step-after" },
        encoding: { x, y },
      },
      {
        data: { values },
        mark: { type: "point", filled: true, size: 90 },
        encoding: {
          x,
          y,
          color: { field: "series", type: "nominal", title: "trigger · axes" },
          shape: { field: "model", type: "nominal", title: "model" },
          opacity: {
            field: "frontier",
            type: "ordinal",
            sort: ["on the frontier", "dominated"],
            scale: { domain: ["on the frontier", "dominated"], range: [1, 0.45] },
            title: null,
          },
        },
      },
    ],
  } as TopLevelSpec;
}

/** A per-run quantity's distribution by trigger: a box (min–max whiskers) over the runs, with the runs as points. */
function byTriggerChart(
  runs: readonly ReportRun[],
  field: "wakes" | "reaction_h_p50",
  title: string,
): TopLevelSpec | null {
  const values = runs
    .filter((r) => r[field] !== null)
    .map((r) => ({ trigger: r.trigger, model: r.model, value: r[field] as number }));
  if (values.length === 0) return null;
  const order = ["sleep", "watcher", "cron"].filter((t) => values.some((v) => v.trigger === t));
  const sort = [...order, ...[...new Set(values.map((v) => v.trigger))].filter((t) => !order.includes(t)).sort()];
  const x = { field: "trigger", type: "nominal" as const, title: "trigger", sort };
  const y = { field: "value", type: "quantitative" as const, title };
  return {
    $schema: SCHEMA,
    width: Math.max(240, sort.length * 110),
    height: 240,
    data: { values },
    layer: [
      { mark: { type: "boxplot", extent: "min-max", opacity: 0.35 }, encoding: { x, y } },
      {
        mark: { type: "point", filled: true, size: 30, opacity: 0.8 },
        encoding: { x, y, xOffset: { field: "model", type: "nominal" }, color: { field: "model", type: "nominal" } },
      },
    ],
  } as TopLevelSpec;
}

/**
 * The charts of one experiment, in report order. A chart with nothing to show is left out
 * (and the report says why): no scorable cell, no anytime point, no readable ledger, or no
 * cell that spent money.
 */
export function experimentCharts(
  e: ExperimentData,
  idx: number,
  timeline: readonly TimelineRun[],
  runs: readonly ReportRun[],
): { charts: ChartSpec[]; missing: string[] } {
  const dirs = new Set(e.cells.flatMap((c) => c.run_dirs));
  const mine = runs.filter((r) => dirs.has(r.dir));
  const spendByDir = new Map(mine.map((r) => [r.dir, r.spent_usd]));
  const charts: ChartSpec[] = [];
  const missing: string[] = [];
  const add = (id: string, title: string, spec: TopLevelSpec | null, why: string) => {
    if (spec) charts.push({ id: `e${idx}-${id}`, title, spec });
    else missing.push(`${title}: ${why}`);
  };
  add(
    "score",
    "Score by model × trigger (mean ×100, 95% bootstrap CI)",
    scoreChart(e),
    "no cell has a scorable primary",
  );
  add(
    "frontier",
    "Score against spend per cell, with the Pareto frontier (dashed; faded cells are dominated)",
    frontierChart(e),
    "no cell has a scorable primary",
  );
  add("anytime", "Anytime curves (mean per cell)", anytimeChart(e), "no anytime point is scorable");
  if (e.cells.some((c) => c.optimizer_spans !== undefined))
    add(
      "optimizer",
      "Per-span optimizer curves (mean settled span score per cell; control arms beside their optimizer)",
      optimizerChart(e),
      "no span is scorable",
    );
  const sampled = timeline.length;
  const thinned = timeline.some((t) => t.scan.stride > 1);
  add(
    "wakes",
    `Wake timelines (${sampled} run${sampled === 1 ? "" : "s"} sampled${thinned ? "; long runs thinned to an even subset of their wakes" : ""})`,
    wakeChart(e, timeline),
    "no ledger with wakes found",
  );
  add(
    "wake-count",
    "Wakes per run by trigger (box: min–max and quartiles; points: runs)",
    byTriggerChart(mine, "wakes", "wakes per run"),
    "no run",
  );
  add(
    "reaction",
    "Median reaction time per run by trigger (hours from the event to the commitment)",
    byTriggerChart(mine, "reaction_h_p50", "median reaction time (h)"),
    "the task dates no events a commitment reacts to",
  );
  add("cost", "Cost per run (bar: cell mean; points: runs)", costChart(e, spendByDir), "");
  add(
    "per-dollar",
    "Score per dollar (cell mean ×100 / mean spend)",
    scorePerDollarChart(e),
    e.primary.direction === "higher" ? "no cell spent money" : "the primary is lower-is-better",
  );
  return { charts, missing };
}
