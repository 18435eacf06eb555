import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type AggregateOptions, aggregate } from "./aggregate.js";
import { experimentCharts } from "./charts.js";
import { type ExperimentCharts, renderHtml } from "./html.js";
import { loadRuns } from "./load-runs.js";
import { renderSvg } from "./render-svg.js";
import { type ReportData, ReportDataSchema } from "./report-data.js";

export interface ReportOptions extends AggregateOptions {
  /** run directories or folders holding them */
  inputs: readonly string[];
  /** HTML title (default "relive report") */
  title?: string;
}

export interface BuiltReport {
  data: ReportData;
  html: string;
  /** rendered charts per experiment, in report order (ids and titles) */
  charts: { experiment: string; ids: string[]; missing: string[] }[];
}

/** Loads, aggregates and renders a report in memory. */
export async function buildReport(o: ReportOptions): Promise<BuiltReport> {
  const loaded = loadRuns(o.inputs);
  const { data, timelines } = await aggregate(loaded, o);
  const rendered: ExperimentCharts[] = [];
  for (const [i, e] of data.experiments.entries()) {
    const { charts, missing } = experimentCharts(e, i, timelines.get(e.key) ?? [], data.runs);
    const out: ExperimentCharts = { charts: [], missing };
    for (const c of charts) out.charts.push({ ...c, svg: await renderSvg(c.spec, `${c.id}-`) });
    rendered.push(out);
  }
  return {
    data: ReportDataSchema.parse(data),
    html: renderHtml(data, rendered, o.title),
    charts: data.experiments.map((e, i) => ({
      experiment: e.key,
      ids: rendered[i]!.charts.map((c) => c.id),
      missing: rendered[i]!.missing,
    })),
  };
}

/**
 * `relive report`: builds the report and writes the HTML file (and the JSON aggregates when
 * `json` is given). Both are written to temporary files first and renamed into place only when
 * everything succeeded, so a failed report never leaves a partial file behind.
 */
export async function writeReport(
  o: ReportOptions & { out: string; json?: string },
): Promise<BuiltReport & { out: string; json: string | null }> {
  const built = await buildReport(o);
  const targets: [string, string][] = [[resolve(o.out), built.html]];
  if (o.json) targets.push([resolve(o.json), `${JSON.stringify(built.data, null, 2)}\n`]);
  const tmps: string[] = [];
  try {
    for (const [path, text] of targets) {
      mkdirSync(dirname(path), { recursive: true });
      const tmp = `${path}.tmp-${process.pid}`;
      tmps.push(tmp);
      writeFileSync(tmp, text);
    }
    for (const [i, [path]] of targets.entries()) renameSync(tmps[i]!, path);
  } catch (err) {
    for (const t of tmps) rmSync(t, { force: true });
    throw err;
  }
  return { ...built, out: resolve(o.out), json: o.json ? resolve(o.json) : null };
}
