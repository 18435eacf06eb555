/**
 * Issue 16 "How it will be checked": a grid over `agent.scaffolding.*` × model renders the
 * FutureSim main-table and ablation sections. A real grid (grid config → expandGrid →
 * prepareGridCells → the local pool's job processes) runs two scaffolding switches
 * (`context_feedback`, `guidance`) × two models on the 3-day synthetic open-forecast episode. The
 * models are two loopback OpenAI-compatible servers (`vllm:` and `local:` providers, each capped
 * at one run at a time by the grid's `concurrency`, so each server holds one conversation at a
 * time) priced by the grid's own `model_prices` rows. Each server plays one fixed policy, its own
 * per model, the same in every arm. The report built from the runs directory has the main table
 * (one row per harness arm × model) and the ablation table (one row per switch, paired against
 * the full configuration over the other switch and the models).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LedgerEvent } from "../../src/ledger/events.js";
import { buildReport } from "../../src/report/build-report.js";
import { runGrid } from "../../src/run/grid/run-grid.js";
import { ResultsSchema } from "../../src/run/results.js";
import { policyResponder } from "../agent/support/policy-responder.js";
import { CACHE_DIR, freshRunsDir, RAW_DIR } from "../run/helpers.js";
import { type OpenAITestServer, startOpenAITestServer } from "../support/openai-test-server.js";
import { newsCountPolicy } from "../tasks/open-forecast/news-count-policy.js";

const MODEL_A = "vllm:relive-test-a";
const MODEL_B = "local:relive-test-b";
/** US$ per million tokens: model B costs three times model A at every rate */
const PRICES = {
  [MODEL_A]: { input: 1, cached_input: 0.25, output: 4 },
  [MODEL_B]: { input: 3, cached_input: 0.75, output: 12 },
};

const GRID = {
  name: "scaffolding-x-model",
  base: {
    task: "open-forecast",
    sim_start: "2026-03-01T00:00:00Z",
    sim_end: "2026-03-04T00:00:00Z",
    agent: { trigger: "sleep" },
    model_prices: PRICES,
  },
  axes: {
    models: [MODEL_A, MODEL_B],
    "agent.scaffolding.context_feedback": [false, true],
    "agent.scaffolding.guidance": ["none", "v1"],
  },
  concurrency: { vllm: 1, local: 1 },
};

function llmCalls(runDir: string) {
  return readFileSync(join(runDir, "ledger.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => LedgerEvent.parse(JSON.parse(l)))
    .filter((e) => e.type === "llm_call");
}

describe("a grid over agent.scaffolding.* × model", () => {
  const servers: OpenAITestServer[] = [];
  const saved = { VLLM_BASE_URL: process.env.VLLM_BASE_URL, LOCAL_BASE_URL: process.env.LOCAL_BASE_URL };
  beforeAll(async () => {
    const a = await startOpenAITestServer();
    const b = await startOpenAITestServer();
    a.respond(policyResponder(newsCountPolicy(0.25), "sleep"));
    b.respond(policyResponder(newsCountPolicy(0.45), "sleep"));
    servers.push(a, b);
    // the coordinator and the forked job processes read the endpoints from the environment
    process.env.VLLM_BASE_URL = a.url;
    process.env.LOCAL_BASE_URL = b.url;
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    for (const s of servers) await s.close();
  });

  it("renders the FutureSim main table (harness arm × model) and one ablation row per switch", async () => {
    const runsDir = freshRunsDir();
    const outcomes = await runGrid(GRID, {
      workers: 2,
      retries: 0,
      run: { runsDir, cacheDir: CACHE_DIR, rawDir: RAW_DIR, modelTimeoutMs: 600_000 },
    });
    expect(outcomes.map((o) => [o.status, o.error])).toEqual(outcomes.map(() => ["done", undefined]));
    expect(outcomes).toHaveLength(8);
    const keyOf = (model: string, cf: boolean | string, g: string) => `${model} ${String(cf)} ${g}`;
    const results = new Map(
      outcomes.map((o) => {
        const sc = o.cell.config.agent.scaffolding!;
        return [
          keyOf(o.cell.model, sc.context_feedback, sc.guidance),
          ResultsSchema.parse(JSON.parse(readFileSync(join(o.cell.runDir, "results.json"), "utf8"))),
        ];
      }),
    );
    // every model call is priced at its model's row of the grid's price table
    for (const o of outcomes) {
      const p = PRICES[o.cell.model as keyof typeof PRICES];
      const calls = llmCalls(o.cell.runDir);
      expect(calls.length).toBeGreaterThan(0);
      for (const c of calls) {
        if (c.type !== "llm_call") continue;
        const expected =
          ((c.input_tokens - c.cached_input_tokens) * p.input +
            c.cached_input_tokens * p.cached_input +
            c.output_tokens * p.output) /
          1e6;
        expect(c.cost_usd).toBeCloseTo(expected, 12);
      }
    }
    // each server saw only its own model, and the switches reached the model: the context line, the guidance line
    const sent = (s: OpenAITestServer) =>
      s.requests.map((r) => r.body as { model: string; messages: { content?: string }[] });
    expect(new Set(sent(servers[0]!).map((b) => b.model))).toEqual(new Set(["relive-test-a"]));
    expect(new Set(sent(servers[1]!).map((b) => b.model))).toEqual(new Set(["relive-test-b"]));
    const text = (b: { messages: { content?: string }[] }) => b.messages.map((m) => m.content ?? "").join("\n");
    for (const s of servers) {
      expect(sent(s).some((b) => /\n\(context: \d+ tokens used of \d+, \d+ left\)/.test(text(b)))).toBe(true);
      expect(sent(s).some((b) => text(b).includes("(guidance: your goal is"))).toBe(true);
    }

    const built = await buildReport({ inputs: [runsDir] });
    const e = built.data.experiments.find((x) => x.task === "open-forecast")!;
    expect(e.runs).toBe(8);
    const fs = e.futuresim!;
    // main table: 4 harness arms × 2 models, one run each, figures as the run's results give them
    const arms = [
      "sleep · context_feedback=false · guidance=none",
      "sleep · context_feedback=false · guidance=v1",
      "sleep · context_feedback=true · guidance=none",
      "sleep · context_feedback=true · guidance=v1",
    ];
    expect(fs.main.map((m) => `${m.model} | ${m.arm}`).sort()).toEqual(
      [MODEL_A, MODEL_B].flatMap((m) => arms.map((a) => `${m} | ${a}`)).sort(),
    );
    const labelOf = (model: string, arm: string) => {
      const [, cf, g] = /context_feedback=(\w+) · guidance=(\w+)/.exec(arm)!;
      return keyOf(model, cf!, g!);
    };
    for (const m of fs.main) {
      const r = results.get(labelOf(m.model, m.arm));
      expect(r, `${m.model} ${m.arm}`).toBeDefined();
      expect(m).toMatchObject({
        runs: 1,
        primary: r!.performance.primary.value,
        accuracy: r!.performance.accuracy,
        bss_day0: r!.performance.bss_day0,
        bss_final: r!.performance.bss_final,
        steps: r!.resources.llm_calls,
      });
      expect(m.anytime.map((x) => x.day)).toEqual([1, 2, 3]);
    }
    // the two models play different policies: their scores differ in every arm
    for (const arm of arms) {
      const [a, b] = [MODEL_A, MODEL_B].map((m) => fs.main.find((x) => x.model === m && x.arm === arm)!.primary);
      expect(a).not.toBe(b);
    }
    // ablation table: one row per switch, baseline = the full configuration (off / none), 4 pairs each
    // (2 models × the other switch's 2 levels); a fixed policy ignores both switches, so every Δ is 0
    expect(fs.ablations.map((a) => [a.switch, a.baseline, a.pairs])).toEqual([
      ["context_feedback=true", "false", 4],
      ["guidance=v1", "none", 4],
    ]);
    for (const a of fs.ablations)
      expect(a).toMatchObject({
        delta_primary: 0,
        delta_accuracy: 0,
        delta_bss_day0: 0,
        delta_bss_final: 0,
        delta_steps: 0,
      });
    // what the switches do change is what the model is sent: in every pair the switched-on run sends more input tokens
    const inputTokens = (model: string, cf: boolean, g: string) => {
      const o = outcomes.find(
        (x) =>
          keyOf(
            x.cell.model,
            x.cell.config.agent.scaffolding!.context_feedback,
            x.cell.config.agent.scaffolding!.guidance,
          ) === keyOf(model, cf, g),
      )!;
      return llmCalls(o.cell.runDir).reduce((s, c) => s + (c.type === "llm_call" ? c.input_tokens : 0), 0);
    };
    for (const m of [MODEL_A, MODEL_B])
      for (const g of ["none", "v1"]) expect(inputTokens(m, true, g)).toBeGreaterThan(inputTokens(m, false, g));
    for (const m of [MODEL_A, MODEL_B])
      for (const cf of [false, true]) expect(inputTokens(m, cf, "v1")).toBeGreaterThan(inputTokens(m, cf, "none"));
    // and the paired-delta table pairs the same runs, with their spend
    for (const axis of ["agent.scaffolding.context_feedback", "agent.scaffolding.guidance"]) {
      const d = e.deltas.filter((x) => x.axis === axis);
      expect(d, axis).toHaveLength(1);
      expect(d[0]).toMatchObject({ pairs: 4, mean_delta: 0 });
      expect(d[0]!.cost_multiplier).toBeCloseTo(d[0]!.level_spend_mean_usd! / d[0]!.baseline_spend_mean_usd!, 12);
    }

    // the HTML: both sections once, in order, with their rows and columns
    const html = built.html;
    const h3 = [...html.matchAll(/<h3>([^<]*)<\/h3>/g)].map((m) => m[1]!);
    const main = "FutureSim results: harness arm × model";
    const abl = "FutureSim ablations: one row per switch, paired Δ against the full configuration";
    expect(h3.filter((h) => h === main)).toHaveLength(1);
    expect(h3.filter((h) => h === abl)).toHaveLength(1);
    expect(h3.indexOf(abl)).toBe(h3.indexOf(main) + 1);
    // no heading is repeated within the experiment's section
    expect(new Set(h3).size).toBe(h3.length);
    const section = (title: string) => {
      const from = html.indexOf(`<h3>${title}</h3>`);
      return html.slice(from, html.indexOf("<h3>", from + 4));
    };
    const headers = (s: string) => [...s.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]!);
    const bodyRows = (s: string) => (s.split("<tbody>")[1] ?? "").split("<tr>").slice(1);
    const mainHtml = section(main);
    expect(headers(mainHtml)).toEqual([
      "harness arm",
      "model",
      "runs",
      "tw_score",
      "top-1 accuracy",
      "BSS day 0",
      "BSS final",
      "steps",
      "anytime (per day)",
    ]);
    expect(bodyRows(mainHtml)).toHaveLength(8);
    for (const m of [MODEL_A, MODEL_B])
      for (const a of arms)
        expect(
          bodyRows(mainHtml).some((r) => r.includes(`>${a}<`) && r.includes(`>${m}<`)),
          `${m} ${a}`,
        ).toBe(true);
    const ablHtml = section(abl);
    expect(headers(ablHtml)).toEqual([
      "switch",
      "full configuration",
      "pairs",
      "Δ tw_score",
      "95% CI",
      "Δ accuracy (pts)",
      "Δ BSS day 0",
      "Δ BSS final",
      "Δ steps",
    ]);
    const ablRows = bodyRows(ablHtml);
    expect(ablRows).toHaveLength(2);
    expect(ablRows[0]).toContain("<code>context_feedback=true</code>");
    expect(ablRows[1]).toContain("<code>guidance=v1</code>");
    for (const r of ablRows) expect(r).toContain(">+0.00<");
  }, 900_000);
});
