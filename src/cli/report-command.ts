import { resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import pc from "picocolors";
import { ConfigError } from "../run/config-error.js";
import { positiveInt } from "./arg-parsers.js";

const baseline = (v: string, prev: Record<string, string> | undefined) => {
  const i = v.indexOf("=");
  if (i <= 0 || i === v.length - 1)
    throw new InvalidArgumentError(`expected <axis>=<value>, e.g. agent.deadline_guard=false (got "${v}")`);
  return { ...(prev ?? {}), [v.slice(0, i)]: v.slice(i + 1) };
};

const HELP = `
RUNS are run directories (each with results.json and config.json) or folders holding them at any
depth; unfinished runs (no results.json) are listed and skipped, invalid files are named and refused.

Runs are grouped into experiments by task, episode (and its window) and task / scorer / harness
version. Runs of one task whose versions differ are refused unless --pool-versions is given.
Cells are model × trigger × every other config field that varies between runs (ablation axes,
e.g. feedback, agent.deadline_guard, agent.context_tokens, agent.effort, budget_usd).

Per cell: n, mean, SD, 95% percentile bootstrap CI (10,000 resamples, fixed seed), pass^k when
the primary is binary, mean spend, score per dollar, share of window survived by seeds that
exhausted their budget, anytime curve and failure-mode diagnostics. Per task × episode: two-way
ANOVA (model, trigger; replicate = seed; Type II SS) with shares, F and p; paired deltas with CIs
and cost multipliers along every ablation axis; pooled within-cell seed SD by trigger. Across
tasks: Kendall's W of the model ranking. Charts are rendered to inline SVG.

The HTML file is self-contained (no scripts, no external URLs). Both files are written only when
the whole report succeeded.

Examples:
  relive report runs/ --out report.html
  relive report runs/daily-digest runs/price-check --out r.html --json r.json
  relive report runs/ --baseline agent.deadline_guard=false --baseline feedback=none
`;

/** `relive report RUNS... --out report.html [--json out.json] [--pool-versions]` */
export function registerReportCommand(program: Command): void {
  program
    .command("report")
    .description("aggregate finished runs into one self-contained HTML report (and optionally JSON)")
    .argument("<runs...>", "run directories or folders holding them")
    .option("-o, --out <file>", "HTML report to write", "report.html")
    .option(
      "--json <file>",
      "also write every aggregate as JSON (schema: ReportDataSchema in src/report/report-data.ts)",
    )
    .option("--pool-versions", "pool runs whose task, scorer or harness versions differ (refused by default)")
    .option(
      "--baseline <axis=value>",
      "baseline level of an ablation axis for paired deltas (repeatable; default: the level with most runs)",
      baseline,
    )
    .option("--title <text>", "report title", "relive report")
    .option("--timeline-runs <n>", "runs sampled per experiment for the wake timeline", positiveInt, 16)
    .option(
      "--timeline-wakes <n>",
      "wakes kept per run in the wake timeline (more are thinned evenly)",
      positiveInt,
      1000,
    )
    .addHelpText("after", HELP)
    .action(async (runs: string[], o) => {
      const [{ writeReport }, { ReportInputError }] = await Promise.all([
        import("../report/build-report.js"),
        import("../report/report-error.js"),
      ]);
      try {
        const res = await writeReport({
          inputs: runs.map((r) => resolve(r)),
          out: o.out,
          ...(o.json ? { json: o.json } : {}),
          poolVersions: Boolean(o.poolVersions),
          baselines: o.baseline ?? {},
          title: o.title,
          timelineRuns: o.timelineRuns,
          timelineWakes: Math.max(2, o.timelineWakes),
        });
        const d = res.data;
        for (const s of d.skipped) process.stderr.write(`${pc.yellow("skipped")} ${s.dir}: ${s.reason}\n`);
        const charts = res.charts.reduce((s, c) => s + c.ids.length, 0);
        process.stdout.write(
          `wrote ${res.out} (${d.runs_total} runs, ${d.experiments.length} experiment(s), ${d.experiments.reduce((s, e) => s + e.cells.length, 0)} cells, ${charts} charts)\n`,
        );
        if (res.json) process.stdout.write(`wrote ${res.json}\n`);
      } catch (err) {
        if (err instanceof ReportInputError) throw new ConfigError(err.message);
        throw err;
      }
    });
}
