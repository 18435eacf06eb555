import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listForecastBenchSets, parseForecastBenchBuilder } from "../../src/ingest/forecastbench-sets.js";
import { ensureRealWorld } from "../../src/run/world-resolver.js";
import { TruthStore } from "../../src/world/truth-store.js";
import { WorldStore } from "../../src/world/world-store.js";
import { RAW_DIR as DEFAULT_RAW } from "../run/helpers.js";

const RAW_DIR = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const HAVE_RAW = existsSync(join(RAW_DIR, "forecastbench"));
if (!HAVE_RAW) console.warn(`skipping the ForecastBench set listing on real data: ${RAW_DIR} not found`);

/**
 * A set no other test (and no code) names: due 2024-07-21, written in the shapes of the datasets
 * repository's 2024 files (`combination_of`, string freeze values, a combination question with an
 * array id, `direction: null`), under both the llm and the human question-file names.
 */
function writeSet(raw: string): void {
  const q = (id: string, source: string, extra: Record<string, unknown>) => ({
    id,
    source,
    question: `Question ${id} by {resolution_date}?`,
    resolution_criteria: "Resolves per the source.",
    background: "",
    market_info_open_datetime: "N/A",
    market_info_close_datetime: "N/A",
    market_info_resolution_criteria: "N/A",
    url: `https://example.test/${id}`,
    freeze_datetime: "2024-07-11T00:00:00+00:00",
    freeze_datetime_value: "0.42",
    freeze_datetime_value_explanation: "The market value.",
    source_intro: "Intro.",
    combination_of: "N/A",
    resolution_dates: ["2024-07-28", "2024-08-20"],
    ...extra,
  });
  const questions = [
    q("d1", "acled", {}),
    q("m1", "manifold", {
      resolution_dates: "N/A",
      market_info_close_datetime: "2024-12-31T23:59:00+00:00",
    }),
    { ...q("c1", "acled", {}), id: ["d1", "d2"], combination_of: ["d1", "d2"] },
  ];
  const resolutions = [
    { id: "d1", source: "acled", direction: null, resolution_date: "2024-07-28", resolved_to: 0.0, resolved: true },
    { id: "d1", source: "acled", direction: null, resolution_date: "2024-08-20", resolved_to: 1.0, resolved: true },
    {
      id: "m1",
      source: "manifold",
      direction: null,
      resolution_date: "2024-08-20",
      resolved_to: 0.37,
      resolved: false,
    },
  ];
  mkdirSync(join(raw, "forecastbench"), { recursive: true });
  const qs = (name: string) => JSON.stringify({ forecast_due_date: "2024-07-21", question_set: name, questions });
  writeFileSync(join(raw, "forecastbench/2024-07-21-llm.json"), qs("2024-07-21-llm.json"));
  writeFileSync(join(raw, "forecastbench/2024-07-21-human.json"), qs("2024-07-21-human.json"));
  writeFileSync(
    join(raw, "forecastbench/2024-07-21_resolution_set.json"),
    JSON.stringify({ forecast_due_date: "2024-07-21", question_set: "2024-07-21-llm.json", resolutions }),
  );
  // a question file without its resolution set is not a set
  writeFileSync(join(raw, "forecastbench/2024-08-04-llm.json"), qs("2024-08-04-llm.json"));
}

describe("ForecastBench: any set by its file names", () => {
  it("names: forecastbench-<due>[-human]", () => {
    expect(parseForecastBenchBuilder("forecastbench-2024-07-21")).toEqual({ due: "2024-07-21", kind: "llm" });
    expect(parseForecastBenchBuilder("forecastbench-2024-07-21-human")).toEqual({ due: "2024-07-21", kind: "human" });
    expect(parseForecastBenchBuilder("forecastbench-2024-13-45")).toBeNull();
    expect(parseForecastBenchBuilder("forecastbench-latest")).toBeNull();
    expect(parseForecastBenchBuilder("edgar-tesla-2022")).toBeNull();
  });

  it("a set no code names builds through the resolver (llm and human), with its rejected rows reported", () => {
    const raw = mkdtempSync(join(tmpdir(), "relive-fb-raw-"));
    writeSet(raw);
    expect(listForecastBenchSets(raw).map((s) => s.builder)).toEqual([
      "forecastbench-2024-07-21-human",
      "forecastbench-2024-07-21",
    ]);
    const cache = mkdtempSync(join(tmpdir(), "relive-fb-cache-"));
    const dir = ensureRealWorld("forecastbench-2024-07-21", { cacheDir: cache, rawDir: raw });
    const w = WorldStore.open(dir);
    expect(w.manifest.name).toBe("forecastbench-2024-07-21");
    expect(w.manifest.window).toEqual({
      start: Date.parse("2024-07-21T00:00:00Z"),
      end: Date.parse("2024-08-21T00:00:00Z"),
    });
    // d1 × 2 dates, m1 once (unresolved: at its market close)
    expect(w.manifest.streams.question).toBe(3);
    expect(w.manifest.sources.map((s) => [s.path, s.rows, s.rejected])).toEqual([
      ["forecastbench/2024-07-21-llm.json", 2, 1],
      ["forecastbench/2024-07-21_resolution_set.json", 3, 0],
    ]);
    w.close();
    const truth = TruthStore.open(dir);
    expect(truth.labels("question_unscorable").map((l) => l.key)).toEqual(["2024-07-21:manifold:m1:2024-12-31"]);
    truth.close();
    const human = ensureRealWorld("forecastbench-2024-07-21-human", { cacheDir: cache, rawDir: raw });
    const h = WorldStore.open(human);
    expect(h.manifest.name).toBe("forecastbench-2024-07-21-human");
    expect(h.manifest.sources[0]!.path).toBe("forecastbench/2024-07-21-human.json");
    h.close();
  });

  it("a set whose files are absent is refused naming the paths and the pull command; an empty set is refused", () => {
    const raw = mkdtempSync(join(tmpdir(), "relive-fb-raw-"));
    writeSet(raw);
    const cache = mkdtempSync(join(tmpdir(), "relive-fb-cache-"));
    expect(() => ensureRealWorld("forecastbench-2024-08-04", { cacheDir: cache, rawDir: raw })).toThrow(
      /ForecastBench files not found: .*2024-08-04_resolution_set\.json \(fetch them with `relive data pull forecastbench --due 2024-08-04`\)/,
    );
    writeFileSync(
      join(raw, "forecastbench/2024-09-01-llm.json"),
      JSON.stringify({ forecast_due_date: "2024-09-01", question_set: "x", questions: [{ id: ["a", "b"] }] }),
    );
    writeFileSync(
      join(raw, "forecastbench/2024-09-01_resolution_set.json"),
      JSON.stringify({ forecast_due_date: "2024-09-01", question_set: "x", resolutions: [] }),
    );
    expect(() => ensureRealWorld("forecastbench-2024-09-01", { cacheDir: cache, rawDir: raw })).toThrow(
      /2024-09-01-llm\.json: no usable question \(1 in the set, 1 rejected; first: \[0\] combination question/,
    );
    expect(existsSync(join(cache, "worlds", "forecastbench-2024-09-01"))).toBe(false);
  });

  it.skipIf(!HAVE_RAW)("the shared samples are found as two sets", () => {
    expect(listForecastBenchSets(RAW_DIR).map((s) => s.builder)).toEqual([
      "forecastbench-2026-01-04",
      "forecastbench-2026-01-18",
    ]);
  });
});
