import { z } from "zod";
import { FORECASTBENCH_DIR } from "../forecastbench.js";
import { questionSetFileName, resolutionSetFileName } from "../forecastbench-sets.js";
import { parseBody } from "./pull-context.js";
import { definePullSource } from "./pull-source.js";

/**
 * ForecastBench: the raw files of the datasets repository
 * (forecastingresearch/forecastbench-datasets): `datasets/question_sets/<due>-<kind>.json` and
 * `datasets/resolution_sets/<due>_resolution_set.json`, written as `forecastbench/<same names>`,
 * the names `listForecastBenchSets` finds (then `relive data build forecastbench-<due>`).
 */

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD");
const Options = z.object({
  due: z.array(isoDate).min(1, "give at least one --due YYYY-MM-DD"),
  kind: z.enum(["llm", "human"]).default("llm"),
});
const QuestionSet = z.looseObject({ forecast_due_date: isoDate, questions: z.array(z.unknown()) });
const ResolutionSet = z.looseObject({ forecast_due_date: isoDate, resolutions: z.array(z.unknown()) });

export const forecastBenchPull = definePullSource({
  name: "forecastbench",
  describe: "ForecastBench question sets and resolution sets (raw files of the datasets repository)",
  endpoints: {
    datasets: {
      default: "https://raw.githubusercontent.com/forecastingresearch/forecastbench-datasets/main",
      env: "RELIVE_PULL_FORECASTBENCH_URL",
    },
  },
  defaultRate: 2,
  options: [
    { flags: "--due <date>", description: "forecast due date YYYY-MM-DD (repeatable)", repeatable: true },
    { flags: "--kind <kind>", description: "question set: llm or human", default: "llm" },
  ],
  schema: Options,
  async run(ctx, o) {
    ctx.progress.grow(o.due.length * 2);
    for (const due of o.due) {
      const check = (doc: { forecast_due_date: string }, url: string) => {
        if (doc.forecast_due_date !== due)
          throw new Error(`${url}: forecast_due_date is ${doc.forecast_due_date}, expected ${due}`);
      };
      const q = questionSetFileName(due, o.kind);
      await ctx.item(
        `question_sets/${q}`,
        `${ctx.base("datasets")}/datasets/question_sets/${q}`,
        `${FORECASTBENCH_DIR}/${q}`,
        (body, url) => {
          check(parseBody(body, url, QuestionSet, "a ForecastBench question set"), url);
          return { write: body, meta: null };
        },
      );
      const r = resolutionSetFileName(due);
      await ctx.item(
        `resolution_sets/${r}`,
        `${ctx.base("datasets")}/datasets/resolution_sets/${r}`,
        `${FORECASTBENCH_DIR}/${r}`,
        (body, url) => {
          check(parseBody(body, url, ResolutionSet, "a ForecastBench resolution set"), url);
          return { write: body, meta: null };
        },
      );
    }
  },
});
