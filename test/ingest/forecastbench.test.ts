import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forecastBenchFiles, mapForecastBench, QUESTION_UNSCORABLE_LABEL } from "../../src/ingest/forecastbench.js";
import { taskEpisodes } from "../../src/run/recipe-episodes.js";
import { ensureRealWorld } from "../../src/run/world-resolver.js";
import { openForecastTask } from "../../src/tasks/open-forecast/index.js";
import { UNSCORABLE_LABEL } from "../../src/tasks/open-forecast/scorer.js";
import { readQuestionLint } from "../../src/world/question-lint.js";
import { WorldStore } from "../../src/world/world-store.js";
import { CACHE_DIR, RAW_DIR, run } from "../run/helpers.js";

const HAVE_RAW = existsSync(join(RAW_DIR, "forecastbench"));
if (!HAVE_RAW) console.warn(`skipping the ForecastBench real-data tests: ${join(RAW_DIR, "forecastbench")} not found`);

const DAY = 86_400_000;
const load = (f: string) => JSON.parse(readFileSync(f, "utf8")) as unknown;

function question(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    source: "fred",
    question: "Will X on {resolution_date} be above its value on {forecast_due_date}?",
    resolution_criteria: "Resolves on {resolution_date}.",
    background: "bg",
    market_info_open_datetime: "N/A",
    market_info_close_datetime: "N/A",
    market_info_resolution_criteria: "N/A",
    url: "https://example.test/x",
    freeze_datetime: "2025-12-25T00:00:00+00:00",
    freeze_datetime_value: "4.5",
    freeze_datetime_value_explanation: "The latest value.",
    source_intro: "Intro.",
    resolution_dates: ["2026-01-11", "2026-02-03"],
    ...extra,
  };
}
const set = (questions: unknown[], due = "2026-01-04") => ({ forecast_due_date: due, question_set: "x", questions });
const res = (resolutions: unknown[], due = "2026-01-04") => ({
  forecast_due_date: due,
  question_set: "x",
  resolutions,
});
const row = (id: string, date: string, resolved_to: number, resolved = true, source = "fred") => ({
  id,
  source,
  direction: null,
  resolution_date: date,
  resolved_to,
  resolved,
});

describe("ForecastBench mapping (tasks.md §9)", () => {
  it("one question per resolution row, placeholders filled, Yes/No answers public the day after, unscorable rows labelled", () => {
    const m = mapForecastBench(
      set([
        question("A"),
        question("B"),
        question("M", {
          source: "polymarket",
          resolution_dates: "N/A",
          market_info_close_datetime: "2026-06-30T12:00:00+00:00",
          freeze_datetime_value: "0.25",
        }),
        question("C", { id: ["c1", "c2"] }),
        question("A"),
      ]),
      res([
        row("A", "2026-01-11", 1),
        row("A", "2026-02-03", 0, false),
        row("M", "2026-03-15", 1, true, "polymarket"),
        row("Z", "2026-01-11", 1),
        row("A", "2026-01-11", 1),
        row("B", "2026-01-11", 0.5),
      ]),
    );
    expect(m.questions.map((q) => q.id)).toEqual([
      "2026-01-04:fred:A:2026-01-11",
      "2026-01-04:fred:A:2026-02-03",
      "2026-01-04:fred:B:2026-01-11",
      "2026-01-04:polymarket:M:2026-06-30",
    ]);
    const a = m.questions[0]!;
    expect(a.title).toBe("Will X on 2026-01-11 be above its value on 2026-01-04?");
    expect(a.criteria).toBe("Resolves on 2026-01-11.");
    expect(a.background).toContain("Value at the freeze date (2025-12-25): 4.5 (The latest value.)");
    expect(a).toMatchObject({
      open: Date.parse("2026-01-04T00:00:00Z"),
      visible_at: Date.parse("2026-01-04T00:00:00Z"),
    });
    expect(a.resolve).toBe(Date.parse("2026-01-11T00:00:00Z"));
    // the market question resolves at its scheduled close (its real resolution date would leak the outcome)
    expect(m.questions[3]!.resolve).toBe(Date.parse("2026-06-30T12:00:00Z"));
    expect(m.answers).toEqual([
      { question: "2026-01-04:fred:A:2026-01-11", answer: "Yes", resolved_at: Date.parse("2026-01-11T00:00:00Z") },
      {
        question: "2026-01-04:polymarket:M:2026-06-30",
        answer: "Yes",
        resolved_at: Date.parse("2026-03-15T00:00:00Z"),
      },
    ]);
    expect(m.resolutions.map((r) => [r.question, r.visible_at - r.resolved_at])).toEqual([
      ["2026-01-04:fred:A:2026-01-11", DAY],
      ["2026-01-04:polymarket:M:2026-06-30", DAY],
    ]);
    expect(m.labels.map((l) => [l.key, String(l.value.reason).split(":")[0]])).toEqual([
      ["2026-01-04:fred:A:2026-02-03", "resolved=false"],
      ["2026-01-04:fred:B:2026-01-11", "resolved_to 0.5 is not 0 or 1"],
    ]);
    expect(m.prices).toEqual([
      {
        market: "2026-01-04:polymarket:M:2026-06-30",
        outcome: "Yes",
        t: Date.parse("2025-12-25T00:00:00Z"),
        p: 0.25,
        visible_at: Date.parse("2025-12-25T00:00:00Z"),
      },
    ]);
    expect(m.rejected.map((r) => r.reason)).toEqual([
      "combination question (array id): not supported",
      "duplicate question fred:A",
      "no question fred:Z in the set",
      "duplicate resolution row for fred:A on 2026-01-11",
    ]);
    expect(m.window).toEqual({ start: Date.parse("2026-01-04T00:00:00Z"), end: Date.parse("2026-03-16T00:00:00Z") });
    expect(QUESTION_UNSCORABLE_LABEL).toBe(UNSCORABLE_LABEL);
  });

  it("an entry without any resolution row is one not-scorable question; mismatched sets are refused", () => {
    const m = mapForecastBench(set([question("A")]), res([]));
    expect(m.questions.map((q) => q.id)).toEqual(["2026-01-04:fred:A:2026-01-11"]);
    expect(m.labels[0]?.value).toEqual({ reason: "no resolution row" });
    expect(() => mapForecastBench(set([]), res([], "2026-01-18"))).toThrow(/due date 2026-01-18/);
    expect(() => mapForecastBench({ questions: [] }, res([]))).toThrow(/not a ForecastBench question set/);
  });
});

describe.skipIf(!HAVE_RAW)("ForecastBench real sets (../shared/data/raw/forecastbench)", () => {
  it("maps both sets: counts, ids, no placeholders left, crowd values for market questions, episode windows", () => {
    const expected = {
      "2026-01-04": { questions: 1214, scorable: 1018, unresolved: 162, no_row: 34 },
      "2026-01-18": { questions: 1227, scorable: 1034, unresolved: 164, no_row: 29 },
    } as const;
    for (const due of ["2026-01-04", "2026-01-18"] as const) {
      const f = forecastBenchFiles(RAW_DIR, due);
      const m = mapForecastBench(load(f.questionSet), load(f.resolutionSet));
      expect(m.rejected).toEqual([]);
      expect({
        questions: m.questions.length,
        scorable: m.counts.scorable,
        unresolved: m.counts.unresolved,
        no_row: m.counts.no_row,
      }).toEqual(expected[due]);
      expect(m.answers.every((a) => a.answer === "Yes" || a.answer === "No")).toBe(true);
      for (const q of m.questions) {
        expect(q.id).toMatch(new RegExp(`^${due}:[a-z]+:.+:\\d{4}-\\d{2}-\\d{2}$`));
        expect(`${q.title}${q.background}${q.criteria}`).not.toMatch(/\{(resolution_date|forecast_due_date)\}/);
        expect(q.open).toBe(Date.parse(`${due}T00:00:00Z`));
      }
      // every market question (no resolution dates in the set) shows its freeze value as the crowd forecast
      expect(m.prices).toHaveLength(250);
      expect(m.prices.every((p) => p.p >= 0 && p.p <= 1 && p.visible_at < Date.parse(`${due}T00:00:00Z`))).toBe(true);
      const ep = taskEpisodes(openForecastTask).find((e) => e.name === `forecastbench-${due}`)!;
      expect({ start: ep.sim_start, end: ep.sim_end }).toEqual(m.window);
    }
  });

  it("builds the world, prints its leak lint, and the heuristic, crowd and oracle policies run on the episode", async () => {
    const logs: string[] = [];
    const dir = ensureRealWorld("forecastbench-2026-01-04", { cacheDir: CACHE_DIR, rawDir: RAW_DIR }, (m) =>
      logs.push(m),
    );
    expect(logs.some((l) => l.startsWith("question lint: 1214 questions, 1018 with answers"))).toBe(true);
    expect(readQuestionLint(dir)).toMatchObject({
      questions: 1214,
      answers: 1018,
      leak_count: 0,
      released_before_open: [],
    });
    const w = WorldStore.open(dir);
    expect(w.manifest.streams).toMatchObject({ question: 1214, question_resolution: 1018, market_price: 250, news: 0 });
    w.close();
    // the first horizon (2026-01-11) resolves inside this short window: 236 scored questions
    const window = { sim_start: "2026-01-04T00:00:00Z", sim_end: "2026-01-13T00:00:00Z" };
    const base = { task: "open-forecast", episode: "forecastbench-2026-01-04", ...window } as const;
    const h = await run({ ...base, agent: { model: "scripted:base-rate-news" } });
    const c = await run({ ...base, agent: { model: "scripted:crowd" } });
    const o = await run({ ...base, agent: { model: "scripted:oracle" } });
    const n = h.results.performance.questions_scored as number;
    expect(n).toBeGreaterThan(200);
    expect(o.results.performance.primary.value).toBe(100 * n);
    expect(h.results.performance.primary.value).toBeGreaterThan(0);
    // crowd forecasts every open market question at the start; none resolves in this short window
    expect(c.results.performance.forecasts_accepted).toBeGreaterThan(200);
    expect(c.results.performance.forecasts_rejected).toBe(0);
    expect(h.results.not_scorable.some((x) => x.reason.startsWith("resolved=false"))).toBe(true);
  }, 900_000);
});
