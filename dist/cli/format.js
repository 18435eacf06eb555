import Table from "cli-table3";
import pc from "picocolors";
const fmt = (v, digits = 4) => v === null || v === void 0 ? "n/a" : Number(v.toFixed(digits)).toString();
function progressLine(p) {
  const date = new Date(p.t - 1).toISOString().slice(0, 10);
  return `${pc.dim(p.replaying ? "replay" : "day")} ${String(p.day).padStart(3)}/${p.days} ${date}  spent $${p.spent_usd.toFixed(4)}  commitments ${p.commitments}  outcomes ${p.outcomes}`;
}
function scoreTable(r, runDir) {
  const t = new Table({
    head: [pc.bold("metric"), pc.bold("value")],
    style: { head: [], compact: true }
  });
  const { primary, ...rest } = r.performance;
  t.push([pc.bold(`${primary.name} (primary, ${primary.direction} is better)`), pc.bold(fmt(primary.value))]);
  for (const [k, v] of Object.entries(rest).filter(([k2]) => k2 !== primary.name))
    t.push([k, typeof v === "object" && v !== null ? fmt(v.value) : fmt(v)]);
  t.push(["not scorable", String(r.not_scorable.length)]);
  t.push(["spent (USD)", `$${r.resources.spent_usd.toFixed(4)} of $${r.resources.budget_usd}`]);
  t.push([
    "wakes / tool calls / rejected",
    `${r.resources.wakes} / ${r.resources.tool_calls} / ${r.resources.rejected_calls}`
  ]);
  t.push(["anytime AUC (daily)", fmt(r.timing.auc)]);
  const head = `${pc.bold(r.task)} \xB7 ${r.episode} \xB7 ${r.agent} \xB7 trigger ${r.trigger} \xB7 seed ${r.seed}`;
  return `${head}
${t.toString()}
results: ${runDir}/results.json`;
}
export {
  progressLine,
  scoreTable
};
//# sourceMappingURL=format.js.map
