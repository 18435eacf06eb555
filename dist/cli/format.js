import Table from "cli-table3";
import pc from "picocolors";
import { BROKEN_FLAGS } from "../run/results.js";
const fmt = (v, digits = 4) => v === null || v === void 0 ? "n/a" : Number(v.toFixed(digits)).toString();
function progressLine(p) {
  const date = new Date(p.t - 1).toISOString().slice(0, 10);
  return `${pc.dim(p.replaying ? "replay" : "day")} ${String(p.day).padStart(3)}/${p.days} ${date}  spent $${p.spent_usd.toFixed(4)}  commitments ${p.commitments}  outcomes ${p.outcomes}`;
}
function resultWarnings(r) {
  const out = [];
  const broken = BROKEN_FLAGS.filter((f) => r.flags[f] === true);
  if (broken.length) out.push(`measurement broken: ${broken.join(", ")} (exit code 4)`);
  if (r.flags.provider_cost_mismatch)
    out.push(
      `provider-reported cost $${(r.resources.provider_cost_usd ?? 0).toFixed(4)} differs from the booked $${(r.resources.provider_cost_booked_usd ?? 0).toFixed(4)} by more than 5%: check the price table row`
    );
  return out;
}
function scoreTable(r, runDir) {
  const t = new Table({
    head: [pc.bold("metric"), pc.bold("value")],
    style: { head: [], border: [], compact: true }
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
  const pc_ = r.resources.provider_cost_usd;
  if (pc_ !== void 0 && pc_ !== null)
    t.push([
      "provider-reported cost (USD)",
      `$${pc_.toFixed(4)} vs booked $${(r.resources.provider_cost_booked_usd ?? 0).toFixed(4)}${r.resources.provider_cost_diff !== null && r.resources.provider_cost_diff !== void 0 ? ` (${(r.resources.provider_cost_diff * 100).toFixed(1)}%)` : ""}`
    ]);
  t.push(["anytime AUC (daily)", fmt(r.timing.auc)]);
  for (const [k, v] of Object.entries(r.flags)) {
    const broken = BROKEN_FLAGS.includes(k) && v === true;
    t.push([`flag ${k}`, broken ? pc.red(pc.bold("YES (measurement broken)")) : v ? pc.yellow("yes") : "no"]);
  }
  const head = `${pc.bold(r.task)} \xB7 ${r.episode} \xB7 ${r.agent} \xB7 trigger ${r.trigger} \xB7 seed ${r.seed}`;
  return `${head}
${t.toString()}
results: ${runDir}/results.json`;
}
export {
  progressLine,
  resultWarnings,
  scoreTable
};
//# sourceMappingURL=format.js.map
