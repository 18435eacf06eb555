import { fillJudgeCache, judgeKey } from "../tasks/open-forecast/judge-cache.js";
import { OpenForecastScorer } from "../tasks/open-forecast/scorer.js";
import { TruthStore } from "../world/truth-store.js";
import { WorldStore } from "../world/world-store.js";
import { ConfigError } from "./config.js";
import { loadFinishedRun } from "./rescore.js";
async function judgeRun(runDir, judge, o) {
  const { r, events } = await loadFinishedRun(runDir, o);
  const world = WorldStore.open(r.worldDir);
  const truth = TruthStore.open(r.worldDir);
  try {
    const scorer = r.task.createScorer({ sim_start: r.sim_start, sim_end: r.sim_end, world, truth, params: r.params });
    if (!(scorer instanceof OpenForecastScorer))
      throw new ConfigError(
        `${runDir} is a ${r.task.id} run: only open-forecast has free-text answers for a judge to rule on`
      );
    const cache = scorer.judgeCache;
    if (cache === null)
      throw new ConfigError(
        `${runDir} ran without an answer judge: its task_params.judge_cache is unset. Run the episode again with -p judge_cache=<file> (a JSON file the judge's verdicts are kept in), then judge that run`
      );
    for (const e of events) if (e.type !== "outcome") scorer.onEvent(e);
    const items = scorer.pendingJudgeItems();
    const pending = new Set(items.map((it) => judgeKey(it.question.id, it.truth, it.answer))).size;
    const judged = await fillJudgeCache(cache, judge, items);
    return { cache: cache.path, pending, judged };
  } finally {
    world.close();
    truth.close();
  }
}
export {
  judgeRun
};
//# sourceMappingURL=judge-run.js.map
