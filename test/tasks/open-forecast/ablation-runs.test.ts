/**
 * Issue 16 §2/§4 end to end: on the short synthetic episode, an "LLM" behind the loopback OpenAI
 * test server plays one fixed policy in the full configuration and with one switch each
 * (`news: frozen`, `search: one-shot`, `ceiling`, `anchor_from`, `agent.effort`). The report built
 * from those runs has the FutureSim main table (harness arm × model) and the ablation table with
 * one row per switch (paired against the full configuration); `ceiling` and `anchor_from` change
 * the day-0 forecasts as specified.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DAY_MS, isoDay } from "../../../src/common/time.js";
import { buildReport } from "../../../src/report/build-report.js";
import { parseRunConfig, type RunConfigInput } from "../../../src/run/config.js";
import { resolveRun } from "../../../src/run/resolve-run.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { runWithServer } from "../../agent/support/llm-run.js";
import { policyResponder } from "../../agent/support/policy-responder.js";
import { freshRunsDir, options, run } from "../../run/helpers.js";
import { newsCountPolicy } from "./news-count-policy.js";

const WINDOW = { sim_start: "2026-03-01T00:00:00Z", sim_end: "2026-03-04T00:00:00Z" };
const BASE = { task: "open-forecast", ...WINDOW } as const;

type Detail = { question: string; first_day: string; day0_score: number; active_days: number };
const details = (r: { results: { outcomes: { detail: Record<string, unknown> }[] } }) =>
  new Map(r.results.outcomes.map((o) => [(o.detail as Detail).question, o.detail as Detail]));

describe("open-forecast ablations through an LLM test server", () => {
  it("the report has the FutureSim main table and one ablation row per switch; ceiling and anchor_from move day 0", async () => {
    const runsDir = freshRunsDir();
    const anchorsDir = freshRunsDir();
    // the anchor: the scripted heuristic's day-0 forecasts (a different runs folder: not part of the report)
    const anchor = await run({ ...BASE, agent: { model: "scripted:base-rate-news" } }, options(anchorsDir));
    const arms: [string, RunConfigInput][] = [
      ["full", { ...BASE }],
      ["news=frozen", { ...BASE, task_params: { news: "frozen" } }],
      ["search=one-shot", { ...BASE, task_params: { search: "one-shot" } }],
      ["ceiling=true", { ...BASE, task_params: { ceiling: true } }],
      ["anchor_from", { ...BASE, task_params: { anchor_from: anchor.runDir } }],
      ["effort=none", { ...BASE, agent: { effort: "none" } }],
    ];
    const out = new Map<string, Awaited<ReturnType<typeof runWithServer>>>();
    for (const [name, cfg] of arms) {
      const agent = { trigger: "sleep" as const, context_tokens: 8_000, ...(cfg.agent ?? {}) };
      out.set(name, await runWithServer({ ...cfg, agent }, policyResponder(newsCountPolicy(), "sleep"), { runsDir }));
    }
    const full = out.get("full")!;
    // 7 scored on this window since synth v5 (10 under v4; src/tasks/open-forecast/README.md "Anchors")
    expect(full.results.performance.questions_scored).toBe(7);

    // the resolved config pins the anchor by path and ledger hash
    const anchored = out.get("anchor_from")!;
    const cfg = JSON.parse(readFileSync(join(anchored.runDir, "config.json"), "utf8")) as {
      resolved: { task_params: { anchor_from: string } };
    };
    expect(cfg.resolved.task_params.anchor_from).toMatch(new RegExp(`^${anchor.runDir}@sha256:[0-9a-f]{64}$`));

    // anchor_from: questions open at sim_start score day 0 on the anchor's day-0 forecast, the others as in full
    const a = details(anchor);
    const anchoredD = details(anchored);
    const fullD = details(full);
    let onDay0 = 0;
    for (const [id, d] of anchoredD) {
      if (d.first_day === "2026-03-01") {
        expect(d.day0_score).toBeCloseTo(a.get(id)!.day0_score, 12);
        onDay0++;
      } else expect(d.day0_score).toBeCloseTo(fullD.get(id)!.day0_score, 12);
    }
    expect(onDay0).toBeGreaterThan(0);
    expect(anchored.results.performance.bss_day0).not.toBe(full.results.performance.bss_day0);

    // ceiling: every scored question's day 0 is the day before it resolves (one day per question)
    const r = resolveRun(parseRunConfig({ ...BASE, task_params: { ceiling: true } }), {
      ...options(),
      checkModel: false,
    });
    const world = WorldStore.open(r.worldDir);
    const resolveOf = new Map(
      (world.db.prepare("SELECT id, resolve FROM question").all() as { id: string; resolve: number }[]).map((x) => [
        x.id,
        x.resolve,
      ]),
    );
    world.close();
    const ceiling = details(out.get("ceiling=true")!);
    expect(ceiling.size).toBeGreaterThan(0);
    let moved = 0;
    for (const [id, d] of ceiling) {
      const resolve = resolveOf.get(id)!;
      expect(d.first_day).toBe(isoDay(Math.max(Date.parse(WINDOW.sim_start), resolve - DAY_MS)));
      expect(d.active_days).toBe(1);
      if (d.first_day !== fullD.get(id)!.first_day) moved++;
    }
    // questions open for two days in the full configuration are asked only on their last one
    expect(moved).toBeGreaterThan(0);

    // the report: FutureSim tables with one ablation row per switch
    const built = await buildReport({ inputs: [runsDir] });
    const e = built.data.experiments.find((x) => x.task === "open-forecast")!;
    expect(e.runs).toBe(arms.length);
    const fs = e.futuresim!;
    expect(fs.main).toHaveLength(arms.length);
    const fullRow = fs.main.find(
      (m) => !/news=frozen|search=one-shot|ceiling=true|anchor_from=\/|effort=none/.test(m.arm),
    )!;
    expect(fullRow).toMatchObject({
      runs: 1,
      primary: full.results.performance.primary.value,
      accuracy: full.results.performance.accuracy,
      bss_day0: full.results.performance.bss_day0,
      bss_final: full.results.performance.bss_final,
      steps: full.results.resources.llm_calls,
    });
    expect(fullRow.anytime.map((x) => x.day)).toEqual([1, 2, 3]);
    expect(fs.ablations.map((x) => x.switch.replace(/=\/.*$/, "=RUNDIR")).sort()).toEqual(
      ["anchor_from=RUNDIR", "ceiling=true", "effort=none", "news=frozen", "search=one-shot"].sort(),
    );
    for (const row of fs.ablations) {
      expect(row.pairs).toBe(1);
      const name = row.switch.startsWith("anchor_from=") ? "anchor_from" : row.switch;
      const level = out.get(name)!.results;
      expect(row.delta_primary).toBeCloseTo(
        (level.performance.primary.value as number) - (full.results.performance.primary.value as number),
        9,
      );
      expect(row.delta_bss_day0).toBeCloseTo(
        (level.performance.bss_day0 as number) - (full.results.performance.bss_day0 as number),
        12,
      );
      expect(row.delta_steps).toBe(level.resources.llm_calls - full.results.resources.llm_calls);
    }
    const row = (prefix: string) => fs.ablations.find((x) => x.switch.startsWith(prefix))!;
    // frozen news: questions first seen after day 1 find no news since yesterday (a refused from_date)
    expect(row("news=frozen").delta_primary).not.toBe(0);
    // one-shot: each question costs a refused search_news plus its question_news (one more step per question)
    expect(row("search=one-shot").delta_steps).toBeGreaterThan(0);
    expect(row("anchor_from=").delta_bss_day0).not.toBe(0);
    expect(built.html).toContain("FutureSim ablations: one row per switch");
    expect(built.html).toContain("<code>news=frozen</code>");
  }, 600_000);
});
