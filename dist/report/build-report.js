import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { aggregate } from "./aggregate.js";
import { experimentCharts } from "./charts.js";
import { renderHtml } from "./html.js";
import { loadRuns } from "./load-runs.js";
import { renderSvg } from "./render-svg.js";
import { ReportDataSchema } from "./report-data.js";
async function buildReport(o) {
  const loaded = loadRuns(o.inputs);
  const { data, timelines } = await aggregate(loaded, o);
  const spendByDir = new Map(data.runs.map((r) => [r.dir, r.spent_usd]));
  const rendered = [];
  for (const [i, e] of data.experiments.entries()) {
    const { charts, missing } = experimentCharts(e, i, timelines.get(e.key) ?? [], spendByDir);
    const out = { charts: [], missing };
    for (const c of charts) out.charts.push({ ...c, svg: await renderSvg(c.spec, `${c.id}-`) });
    rendered.push(out);
  }
  return {
    data: ReportDataSchema.parse(data),
    html: renderHtml(data, rendered, o.title),
    charts: data.experiments.map((e, i) => ({
      experiment: e.key,
      ids: rendered[i].charts.map((c) => c.id),
      missing: rendered[i].missing
    }))
  };
}
async function writeReport(o) {
  const built = await buildReport(o);
  const targets = [[resolve(o.out), built.html]];
  if (o.json) targets.push([resolve(o.json), `${JSON.stringify(built.data, null, 2)}
`]);
  const tmps = [];
  try {
    for (const [path, text] of targets) {
      mkdirSync(dirname(path), { recursive: true });
      const tmp = `${path}.tmp-${process.pid}`;
      tmps.push(tmp);
      writeFileSync(tmp, text);
    }
    for (const [i, [path]] of targets.entries()) renameSync(tmps[i], path);
  } catch (err) {
    for (const t of tmps) rmSync(t, { force: true });
    throw err;
  }
  return { ...built, out: resolve(o.out), json: o.json ? resolve(o.json) : null };
}
export {
  buildReport,
  writeReport
};
//# sourceMappingURL=build-report.js.map
