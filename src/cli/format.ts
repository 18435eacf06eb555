import Table from "cli-table3";
import pc from "picocolors";
import type { Results } from "../run/results.js";
import type { DayProgress } from "../run/runner.js";

const fmt = (v: number | null | undefined, digits = 4) =>
  v === null || v === undefined ? "n/a" : Number(v.toFixed(digits)).toString();

/** One progress line per simulated day (stderr). */
export function progressLine(p: DayProgress): string {
  // the line is printed as day `p.day` ends: show the date of the day just completed
  const date = new Date(p.t - 1).toISOString().slice(0, 10);
  return `${pc.dim(p.replaying ? "replay" : "day")} ${String(p.day).padStart(3)}/${p.days} ${date}  spent $${p.spent_usd.toFixed(4)}  commitments ${p.commitments}  outcomes ${p.outcomes}`;
}

/** The final score table. */
export function scoreTable(r: Results, runDir: string): string {
  const t = new Table({
    head: [pc.bold("metric"), pc.bold("value")],
    style: { head: [], compact: true },
  });
  const { primary, ...rest } = r.performance;
  t.push([pc.bold(`${primary.name} (primary, ${primary.direction} is better)`), pc.bold(fmt(primary.value))]);
  for (const [k, v] of Object.entries(rest).filter(([k]) => k !== primary.name))
    t.push([k, typeof v === "object" && v !== null ? fmt(v.value) : fmt(v)]);
  t.push(["not scorable", String(r.not_scorable.length)]);
  t.push(["spent (USD)", `$${r.resources.spent_usd.toFixed(4)} of $${r.resources.budget_usd}`]);
  t.push([
    "wakes / tool calls / rejected",
    `${r.resources.wakes} / ${r.resources.tool_calls} / ${r.resources.rejected_calls}`,
  ]);
  t.push(["anytime AUC (daily)", fmt(r.timing.auc)]);
  const head = `${pc.bold(r.task)} · ${r.episode} · ${r.agent} · trigger ${r.trigger} · seed ${r.seed}`;
  return `${head}\n${t.toString()}\nresults: ${runDir}/results.json`;
}
