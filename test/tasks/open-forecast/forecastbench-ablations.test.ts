/**
 * Issue 16 "How it will be checked", on a real ForecastBench episode: an "LLM" behind the loopback
 * OpenAI test server plays one fixed policy in the full configuration and with one ablation switch
 * each (`news: frozen`, `search: one-shot`, `ceiling`, `anchor_from`, `agent.effort`) on the
 * `forecastbench-2026-01-04` episode, 2026-01-09 → 01-13 (4 simulated days). The world is built by
 * the episode's own builder from six entries of the real set (their rows verbatim: 24 questions,
 * 6 resolving on 2026-01-11 inside the window), so the test stays short. The report has one
 * ablation row per switch; `ceiling` and `anchor_from` change the day-0 forecasts exactly as
 * specified (hand-worked scores); `news: frozen` is checked as a property on that world.
 *
 * A ForecastBench world has no news (tasks.md §9: no corpus covers the period), so on it
 * `news: frozen` and `search: one-shot` change nothing: no news tool exists in either arm, the
 * instructions are the same as the full configuration's, and their ablation rows have Δ = 0 exactly.
 * "Nothing published after day 0" holds because nothing is published at all; the property test
 * below checks the part that can fail on this world: freezing news leaves every other read
 * (questions, their releases, public answers, the crowd values) as it is at every time.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, HOUR_MS } from "../../../src/common/time.js";
import { forecastBenchFiles } from "../../../src/ingest/forecastbench.js";
import { LedgerEvent } from "../../../src/ledger/events.js";
import { buildReport } from "../../../src/report/build-report.js";
import type { RunConfigInput } from "../../../src/run/config.js";
import { ensureRealWorld } from "../../../src/run/world-resolver.js";
import { ablationView, frozenNewsCut } from "../../../src/tasks/open-forecast/ablation-view.js";
import { OpenForecastParams } from "../../../src/tasks/open-forecast/params.js";
import { WorldStore } from "../../../src/world/world-store.js";
import { runWithServer } from "../../agent/support/llm-run.js";
import {
  type PolicyScript,
  policyResponder,
  type Step,
  type ToolOutcome,
} from "../../agent/support/policy-responder.js";
import { freshRunsDir, options, RAW_DIR, REPO, run } from "../../run/helpers.js";
import { harness } from "./fixtures.js";

const FB = join(RAW_DIR, "forecastbench");
const HAVE_RAW = existsSync(FB);
if (!HAVE_RAW) console.warn(`skipping the ForecastBench ablation test: ${FB} not found`);

const DUE = "2026-01-04";
const EPISODE = `forecastbench-${DUE}`;
const WINDOW = { sim_start: "2026-01-09T00:00:00Z", sim_end: "2026-01-13T00:00:00Z" };
const START = Date.parse(WINDOW.sim_start);
const END = Date.parse(WINDOW.sim_end);
const BASE = { task: "open-forecast", episode: EPISODE, ...WINDOW } as const;
/** the set's entries kept: the first two of three data sources (4 resolution rows each) */
const KEEP = { fred: 2, yfinance: 2, dbnomics: 2 } as Record<string, number>;
/** the questions resolving inside the window (2026-01-11) and their answers in the real resolution set */
const SCORED: Record<string, "Yes" | "No"> = {
  "2026-01-04:fred:BAA10Y:2026-01-11": "No",
  "2026-01-04:fred:DFII10:2026-01-11": "No",
  "2026-01-04:yfinance:JBL:2026-01-11": "No",
  "2026-01-04:yfinance:XEL:2026-01-11": "No",
  "2026-01-04:dbnomics:meteofrance_TEMPERATURE_celsius.61996.D:2026-01-11": "Yes",
  "2026-01-04:dbnomics:meteofrance_TEMPERATURE_celsius.07117.D:2026-01-11": "Yes",
};

/** A raw dir holding the kept entries of the real 2026-01-04 set and their resolution rows, in the set's own format. */
function subsetRawDir(): string {
  const raw = mkdtempSync(join(tmpdir(), "relive-fb-raw-"));
  mkdirSync(join(raw, "forecastbench"));
  const src = forecastBenchFiles(RAW_DIR, DUE);
  const qs = JSON.parse(readFileSync(src.questionSet, "utf8")) as { questions: { id: unknown; source: string }[] };
  const rs = JSON.parse(readFileSync(src.resolutionSet, "utf8")) as { resolutions: { id: unknown; source: string }[] };
  const taken: Record<string, number> = {};
  const questions = qs.questions.filter((q) => {
    const want = KEEP[q.source] ?? 0;
    if (typeof q.id !== "string" || (taken[q.source] ?? 0) >= want) return false;
    taken[q.source] = (taken[q.source] ?? 0) + 1;
    return true;
  });
  const keys = new Set(questions.map((q) => `${q.source}:${String(q.id)}`));
  const resolutions = rs.resolutions.filter((r) => keys.has(`${r.source}:${String(r.id)}`));
  const dst = forecastBenchFiles(raw, DUE);
  writeFileSync(dst.questionSet, JSON.stringify({ ...qs, questions }));
  writeFileSync(dst.resolutionSet, JSON.stringify({ ...rs, resolutions }));
  return raw;
}

type Listed = {
  id: string;
  resolve: string;
  crowd?: { p_yes: number };
  your_forecast: Record<string, number> | null;
};

/** p(Yes) of the fixed policy for a question resolving `resolve` seen at `now`: the crowd's, else 0.2 + 0.1 per day left (≤ 0.9) */
function policyP(q: Listed, now: number): number {
  if (q.crowd) return q.crowd.p_yes;
  const daysLeft = Math.ceil((Date.parse(q.resolve) - now) / DAY_MS);
  return Math.round(Math.min(0.9, 0.2 + 0.1 * daysLeft) * 100) / 100;
}

/**
 * The fixed policy: at each daily wake, every open question (all pages) without a standing forecast
 * (an injected anchor included) gets {Yes: p, No: 1 − p} with p from `policyP`.
 */
function fixedPolicy(): PolicyScript {
  return {
    cron: [],
    nextWake: (now) => (now + DAY_MS < END ? now + DAY_MS : null),
    *act(now: number): Generator<Step, void, ToolOutcome> {
      const open: Listed[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const page = yield { tool: "list_questions", args: { offset } };
        if (!page.ok) return;
        const v = page.value as { questions: Listed[]; next_offset: number | null };
        open.push(...v.questions);
        offset = v.next_offset;
      }
      for (const q of open) {
        if (q.your_forecast !== null) continue;
        const p = policyP(q, now);
        yield {
          tool: "submit_forecasts",
          args: { question_id: q.id, outcomes: { Yes: p, No: Math.round((1 - p) * 100) / 100 } },
        };
      }
    },
  };
}

/** tasks.md §9 score of {Yes: y, No: 1 − y} against the answer */
const brier = (yes: number, answer: "Yes" | "No") => {
  const no = Math.round((1 - yes) * 100) / 100;
  return 1 - ((yes - (answer === "Yes" ? 1 : 0)) ** 2 + (no - (answer === "No" ? 1 : 0)) ** 2);
};

type Detail = { question: string; first_day: string; active_days: number; day0_score: number; mean_score: number };
const details = (r: { results: { outcomes: { detail: Record<string, unknown> }[] } }) =>
  new Map(r.results.outcomes.map((o) => [(o.detail as Detail).question, o.detail as Detail]));

/** accepted submit_forecasts commitments of a run: question → [{at, outcomes}] in ledger order */
function commitments(runDir: string): Map<string, { at: string; outcomes: Record<string, number> }[]> {
  const out = new Map<string, { at: string; outcomes: Record<string, number> }[]>();
  for (const line of readFileSync(join(runDir, "ledger.jsonl"), "utf8").trim().split("\n")) {
    const e = LedgerEvent.parse(JSON.parse(line));
    if (e.type !== "commitment" || e.tool !== "submit_forecasts") continue;
    const a = e.args as { question_id: string; outcomes: Record<string, number> };
    out.set(a.question_id, [
      ...(out.get(a.question_id) ?? []),
      { at: new Date(e.t).toISOString(), outcomes: a.outcomes },
    ]);
  }
  return out;
}

const systemOf = (requests: { body: { messages?: unknown } }[]) =>
  (requests[0]!.body.messages as { role: string; content: string }[]).find((m) => m.role === "system")!.content;
const toolNamesOf = (requests: { body: { tools?: unknown } }[]) =>
  ((requests[0]!.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();

describe.skipIf(!HAVE_RAW)("open-forecast ablations on a ForecastBench episode through an LLM test server", () => {
  let rawDir = "";
  let cacheDir = "";
  let worldDir = "";
  let recipeDir = "";
  beforeAll(() => {
    rawDir = subsetRawDir();
    cacheDir = mkdtempSync(join(tmpdir(), "relive-fb-cache-"));
    // the shipped recipe of the episode, its window cut to the subset's (whose last row resolves 2026-07-03)
    // and its streams to the subset's (no market questions): a recipe folder searched first shadows the
    // shipped recipe of the same episode id
    recipeDir = mkdtempSync(join(tmpdir(), "relive-fb-recipes-"));
    writeFileSync(
      join(recipeDir, `${EPISODE}.yaml`),
      readFileSync(join(REPO, "recipes", `${EPISODE}.yaml`), "utf8")
        .replace("window: { start: 2026-01-04, end: 2026-07-17 }", "window: { start: 2026-01-04, end: 2026-07-04 }")
        .replace(
          "streams: [question, question_resolution, market, market_price]",
          "streams: [question, question_resolution]",
        ),
    );
    worldDir = ensureRealWorld(EPISODE, { cacheDir, rawDir, recipeDirs: [recipeDir] });
  });
  const where = () => ({ cacheDir, rawDir, recipeDirs: [recipeDir] });

  it("one ablation row per switch; ceiling and anchor_from change the day-0 forecasts as specified", async () => {
    const w = WorldStore.open(worldDir);
    expect(w.manifest.streams).toMatchObject({ question: 24, question_resolution: 24, news: 0 });
    w.close();
    const runsDir = freshRunsDir();
    // the anchor: the base-rate heuristic's day-0 forecasts (no public answer yet: {Yes: 0.5, No: 0.5}), another runs folder
    const anchor = await run({ ...BASE, agent: { model: "scripted:base-rate-news" } }, { ...options(), ...where() });
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
      const agent = { trigger: "sleep" as const, ...(cfg.agent ?? {}) };
      out.set(
        name,
        await runWithServer({ ...cfg, agent }, policyResponder(fixedPolicy(), "sleep"), { runsDir, ...where() }),
      );
    }
    const full = out.get("full")!;
    const get = (name: string) => out.get(name)!;

    // full: every question gets the policy's forecast on day 0 (2026-01-09): 0.4 for the six resolving on 01-11
    const fullC = commitments(full.runDir);
    expect(fullC.size).toBe(24);
    for (const id of Object.keys(SCORED))
      expect(fullC.get(id)).toEqual([{ at: "2026-01-09T00:00:00.000Z", outcomes: { Yes: 0.4, No: 0.6 } }]);
    const fullD = details(full);
    expect([...fullD.keys()].sort()).toEqual(Object.keys(SCORED).sort());
    for (const [id, ans] of Object.entries(SCORED))
      expect(fullD.get(id)).toMatchObject({ first_day: "2026-01-09", active_days: 2, day0_score: brier(0.4, ans) });
    // 4 × 0.68 + 2 × 0.28
    expect(full.results.performance.primary.value).toBeCloseTo(328, 9);

    // ceiling: each question is released one day before it resolves, so its day 0 is 2026-01-10 and the policy,
    // seeing one day left, forecasts 0.3; questions resolving after the window are never released in it
    const ceilC = commitments(get("ceiling=true").runDir);
    expect([...ceilC.keys()].sort()).toEqual(Object.keys(SCORED).sort());
    for (const id of Object.keys(SCORED))
      expect(ceilC.get(id)).toEqual([{ at: "2026-01-10T00:00:00.000Z", outcomes: { Yes: 0.3, No: 0.7 } }]);
    const ceilD = details(get("ceiling=true"));
    for (const [id, ans] of Object.entries(SCORED))
      expect(ceilD.get(id)).toMatchObject({ first_day: "2026-01-10", active_days: 1, day0_score: brier(0.3, ans) });
    // 4 × 0.82 + 2 × 0.02
    expect(get("ceiling=true").results.performance.primary.value).toBeCloseTo(332, 9);

    // anchor_from: the anchor's day-0 forecasts stand at sim_start, so the policy (which keeps standing forecasts)
    // submits nothing; day 0 scores the anchor's {Yes: 0.5, No: 0.5}
    const anchorC = commitments(anchor.runDir);
    expect(anchorC.size).toBe(24);
    for (const id of Object.keys(SCORED)) expect(anchorC.get(id)!.at(-1)!.outcomes).toEqual({ Yes: 0.5, No: 0.5 });
    const anchored = get("anchor_from");
    expect(commitments(anchored.runDir).size).toBe(0);
    const anchoredD = details(anchored);
    for (const [id, ans] of Object.entries(SCORED))
      expect(anchoredD.get(id)).toMatchObject({ first_day: "2026-01-09", active_days: 2, day0_score: brier(0.5, ans) });
    expect(anchored.results.performance.primary.value).toBeCloseTo(300, 9);
    expect(anchored.results.performance.forecasts_accepted).toBe(0);

    // a news-less world: frozen news and one-shot search change nothing the model sees, nor what it does
    for (const name of ["news=frozen", "search=one-shot", "effort=none"]) {
      const r = get(name);
      expect(systemOf(r.requests)).toBe(systemOf(full.requests));
      expect(toolNamesOf(r.requests)).toEqual(toolNamesOf(full.requests));
      expect(toolNamesOf(r.requests)).not.toContain("search_news");
      expect(toolNamesOf(r.requests)).not.toContain("question_news");
      expect(commitments(r.runDir)).toEqual(fullC);
    }
    // effort: sent to the model on every request, and only there
    expect(get("effort=none").requests.every((q) => q.body.reasoning_effort === "none")).toBe(true);
    expect(full.requests.some((q) => "reasoning_effort" in q.body)).toBe(false);

    // the report: FutureSim main table, one ablation row per switch, paired deltas against the full configuration
    const built = await buildReport({ inputs: [runsDir] });
    const e = built.data.experiments.find((x) => x.task === "open-forecast")!;
    expect(e.runs).toBe(arms.length);
    const fs = e.futuresim!;
    expect(fs.main).toHaveLength(arms.length);
    expect(fs.ablations.map((x) => x.switch.replace(/=\/.*$/, "=RUNDIR")).sort()).toEqual(
      ["anchor_from=RUNDIR", "ceiling=true", "effort=none", "news=frozen", "search=one-shot"].sort(),
    );
    const row = (prefix: string) => fs.ablations.find((x) => x.switch.startsWith(prefix))!;
    for (const a of fs.ablations) expect(a.pairs).toBe(1);
    for (const name of ["news=frozen", "search=one-shot", "effort=none"])
      expect(row(name)).toMatchObject({ delta_primary: 0, delta_bss_day0: 0, delta_bss_final: 0, delta_steps: 0 });
    expect(row("ceiling=true").delta_primary).toBeCloseTo(332 - 328, 9);
    expect(row("anchor_from=").delta_primary).toBeCloseTo(300 - 328, 9);
    // the anchored run makes no forecast: its steps are the wakes' list_questions and sleeps only
    expect(row("anchor_from=").delta_steps).toBe(
      anchored.results.resources.llm_calls - full.results.resources.llm_calls,
    );
    expect(row("anchor_from=").delta_steps).toBe(-24);
    for (const [name, prefix] of [
      ["ceiling=true", "ceiling=true"],
      ["anchor_from", "anchor_from="],
    ] as const)
      expect(row(prefix).delta_bss_day0).toBeCloseTo(
        (get(name).results.performance.bss_day0 as number) - (full.results.performance.bss_day0 as number),
        12,
      );
    expect(built.html).toContain("FutureSim ablations: one row per switch");
    expect(built.html).toContain("<code>ceiling=true</code>");
  }, 900_000);

  describe("news: frozen on the ForecastBench world", () => {
    const open: ReturnType<typeof harness>[] = [];
    afterAll(() => {
      for (const h of open.splice(0)) h.close();
    });

    it("property: no news after day 0 can be read, and every other read is the live one, at any time of the window", async () => {
      const make = (params: Record<string, unknown>) => {
        const h = harness(worldDir, { now: START, start: START, end: END, params });
        open.push(h);
        return h;
      };
      const frozen = make({ news: "frozen" });
      const live = make({});
      expect(frozen.tools).toEqual(live.tools);
      expect(frozen.tools).not.toContain("search_news");
      const cut = frozenNewsCut(START);
      const world = WorldStore.open(worldDir);
      const ids = (world.db.prepare("SELECT id FROM question ORDER BY id").all() as { id: string }[]).map((r) => r.id);
      let t = START;
      const view = ablationView(
        world.at(() => t),
        OpenForecastParams.parse({ news: "frozen" }),
        START,
      );
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.integer({ min: 0, max: (END - START) / HOUR_MS }),
            fc.constantFrom("open", "closed", "resolved", "all"),
            fc.constantFrom(...ids),
            async (hours, status, id) => {
              t = START + hours * HOUR_MS;
              frozen.setNow(t);
              live.setNow(t);
              // nothing published after the cut is reachable (this world publishes none at all)
              expect(view.news.arrivals(cut, t)).toEqual([]);
              for (const n of view.news.arrivals(0, t)) expect(n.visible_at).toBeLessThanOrEqual(cut);
              // questions, releases, public answers and crowd values are the live ones
              for (const [tool, args] of [
                ["list_questions", { status }],
                ["get_question", { id }],
                ["get_forecasts", {}],
              ] as const)
                expect(await frozen.call(tool, args)).toEqual(await live.call(tool, args));
              expect(frozen.run.wakeNote({ at: t, reason: "start" })).toEqual(
                live.run.wakeNote({ at: t, reason: "start" }),
              );
            },
          ),
          { numRuns: 60, seed: 16 },
        );
      } finally {
        world.close();
      }
    });
  });
});
