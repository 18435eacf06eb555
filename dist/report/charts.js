const DAY_MS = 864e5;
const widthFor = (items, per = 46) => Math.min(1e3, Math.max(320, items * per));
const cellName = (c) => `${c.model} \xB7 ${c.series}`;
const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
function scoreChart(e) {
  const values = e.cells.filter((c) => c.mean !== null).map((c) => ({
    model: c.model,
    series: c.series,
    mean: c.mean * 100,
    lo: c.ci95 ? c.ci95.lo * 100 : null,
    hi: c.ci95 ? c.ci95.hi * 100 : null,
    n: c.n
  }));
  if (values.length === 0) return null;
  const models = new Set(values.map((v) => v.model)).size;
  const y = { type: "quantitative", title: `${e.primary.name} \xD7100 (${e.primary.direction} is better)` };
  return {
    $schema: SCHEMA,
    width: widthFor(values.length, 60),
    height: 260,
    data: { values },
    encoding: {
      x: { field: "model", type: "nominal", title: "model", axis: { labelAngle: models > 3 ? -25 : 0 } },
      xOffset: { field: "series", type: "nominal" },
      color: { field: "series", type: "nominal", title: "trigger \xB7 axes" }
    },
    layer: [
      {
        transform: [{ filter: "isValid(datum.lo)" }],
        mark: { type: "rule", strokeWidth: 2 },
        encoding: { y: { field: "lo", ...y }, y2: { field: "hi" } }
      },
      { mark: { type: "point", filled: true, size: 70 }, encoding: { y: { field: "mean", ...y } } }
    ]
  };
}
function anytimeChart(e) {
  const values = e.cells.flatMap(
    (c) => c.anytime.filter((a) => a.mean !== null).map((a) => ({ cell: cellName(c), day: a.day, value: a.mean * 100 }))
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
        axis: { tickMinStep: 1, format: "d" }
      },
      y: { field: "value", type: "quantitative", title: `${e.primary.name} \xD7100 on [start, day end)` },
      color: { field: "cell", type: "nominal", title: "model \xB7 trigger \xB7 axes" }
    }
  };
}
function wakeChart(e, runs) {
  const values = runs.flatMap(
    (r) => r.scan.wakes.map((w) => ({ run: r.label, day: (w.t - r.sim_start) / DAY_MS, reason: w.reason }))
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
      color: { field: "reason", type: "nominal", title: "wake reason" }
    }
  };
}
function costChart(e, spendByDir) {
  const values = e.cells.flatMap(
    (c) => c.run_dirs.map((dir, i) => ({ cell: cellName(c), seed: c.seeds[i], spent: spendByDir.get(dir) ?? 0 }))
  );
  return {
    $schema: SCHEMA,
    width: widthFor(e.cells.length),
    height: 240,
    data: { values },
    encoding: {
      x: { field: "cell", type: "nominal", title: null, sort: e.cells.map(cellName), axis: { labelAngle: -30 } }
    },
    layer: [
      {
        mark: { type: "bar", color: "#9ecae1", width: { band: 0.6 } },
        encoding: { y: { aggregate: "mean", field: "spent", type: "quantitative", title: "spend per run (USD)" } }
      },
      {
        mark: { type: "circle", color: "#08519c", size: 40, opacity: 0.8 },
        encoding: { y: { field: "spent", type: "quantitative" } }
      }
    ]
  };
}
function scorePerDollarChart(e) {
  const values = e.cells.filter((c) => c.score_per_usd !== null).map((c) => ({ cell: cellName(c), value: c.score_per_usd * 100 }));
  if (values.length === 0) return null;
  return {
    $schema: SCHEMA,
    width: widthFor(values.length),
    height: 240,
    data: { values },
    mark: { type: "bar", color: "#31a354" },
    encoding: {
      x: { field: "cell", type: "nominal", title: null, sort: values.map((v) => v.cell), axis: { labelAngle: -30 } },
      y: { field: "value", type: "quantitative", title: `${e.primary.name} \xD7100 per USD` }
    }
  };
}
function experimentCharts(e, idx, timeline, spendByDir) {
  const charts = [];
  const missing = [];
  const add = (id, title, spec, why) => {
    if (spec) charts.push({ id: `e${idx}-${id}`, title, spec });
    else missing.push(`${title}: ${why}`);
  };
  add(
    "score",
    "Score by model \xD7 trigger (mean \xD7100, 95% bootstrap CI)",
    scoreChart(e),
    "no cell has a scorable primary"
  );
  add("anytime", "Anytime curves (mean per cell)", anytimeChart(e), "no anytime point is scorable");
  const sampled = timeline.length;
  const thinned = timeline.some((t) => t.scan.stride > 1);
  add(
    "wakes",
    `Wake timelines (${sampled} run${sampled === 1 ? "" : "s"} sampled${thinned ? "; long runs thinned to an even subset of their wakes" : ""})`,
    wakeChart(e, timeline),
    "no ledger with wakes found"
  );
  add("cost", "Cost per run (bar: cell mean; points: runs)", costChart(e, spendByDir), "");
  add(
    "per-dollar",
    "Score per dollar (cell mean \xD7100 / mean spend)",
    scorePerDollarChart(e),
    e.primary.direction === "higher" ? "no cell spent money" : "the primary is lower-is-better"
  );
  return { charts, missing };
}
export {
  experimentCharts
};
//# sourceMappingURL=charts.js.map
