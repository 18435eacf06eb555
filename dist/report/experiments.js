import { configPaths, UNSET, varyingAxes } from "./config-axes.js";
import { ReportInputError } from "./report-error.js";
const VERSION_FIELDS = ["task_version", "scorer_version", "harness_version"];
function groupExperiments(runs, o = {}) {
  const byTask = /* @__PURE__ */ new Map();
  for (const run of runs) {
    const r = run.results;
    const k = JSON.stringify([r.task, r.episode, r.sim_start, r.sim_end]);
    byTask.set(k, [...byTask.get(k) ?? [], run]);
  }
  const conflicts = [];
  const experiments = [];
  for (const group of byTask.values()) {
    const first = group[0].results;
    const versions = Object.fromEntries(
      VERSION_FIELDS.map((f) => [f, [...new Set(group.map((g) => g.results[f]))].sort()])
    );
    const differing = VERSION_FIELDS.filter((f) => versions[f].length > 1);
    if (differing.length && !o.poolVersions) {
      const lines = differing.flatMap(
        (f) => versions[f].map((v) => {
          const of = group.filter((g) => g.results[f] === v);
          return `    ${f} ${v}: ${of.length} run(s), e.g. ${of[0].dir}`;
        })
      );
      conflicts.push(
        `  ${first.task} \xB7 ${first.episode} (${first.sim_start} \u2192 ${first.sim_end}):
${lines.join("\n")}`
      );
      continue;
    }
    const primaries = [
      ...new Set(
        group.map(
          (g) => `${g.results.performance.primary.name} (${g.results.performance.primary.direction} is better)`
        )
      )
    ];
    if (primaries.length > 1)
      throw new ReportInputError(
        `runs of ${first.task} \xB7 ${first.episode} report different primary metrics (${primaries.join(", ")}): they cannot be pooled`
      );
    const paths = group.map(configPaths);
    const axes = varyingAxes(paths);
    experiments.push({
      key: JSON.stringify([first.task, first.episode, first.sim_start, first.sim_end]),
      task: first.task,
      episode: first.episode,
      sim_start: first.sim_start,
      sim_end: first.sim_end,
      versions,
      primary: { name: first.performance.primary.name, direction: first.performance.primary.direction },
      axes,
      runs: group.map((run, i) => ({
        run,
        model: run.results.agent,
        trigger: run.results.trigger,
        seed: run.results.seed,
        axes: Object.fromEntries(axes.map((a) => [a.path, paths[i][a.path] ?? UNSET]))
      }))
    });
  }
  if (conflicts.length)
    throw new ReportInputError(
      `refusing to pool runs whose task, scorer or harness versions differ (they are different experiments):
${conflicts.join("\n")}
report them separately, rescore them with the current scorer (\`relive rescore RUNDIR\`), or pass --pool-versions to pool them anyway`
    );
  return experiments.sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}
export {
  groupExperiments
};
//# sourceMappingURL=experiments.js.map
