/**
 * World recipes (issue 12 §2): the shipped recipes, a recipe for a company and a question set no
 * test or code names (built and run with no code change), bad recipes (file and field named, no
 * world left), the cache key, and the guard that no shipped episode, world or source name is in src/.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureRecipeWorld } from "../../src/recipes/recipe-build.js";
import { listRecipes } from "../../src/recipes/recipe-catalog.js";
import { SHIPPED_RECIPE_DIR } from "../../src/recipes/recipe-dirs.js";
import { loadRecipe, RecipeError, recipeFilesIn } from "../../src/recipes/recipe-file.js";
import { rebuildRecipeWorld } from "../../src/recipes/recipe-rebuild.js";
import { sourcePaths } from "../../src/recipes/recipe-schema.js";
import { parseRunConfig } from "../../src/run/config.js";
import { loadProjectConfig } from "../../src/run/project-config.js";
import { taskEpisodes } from "../../src/run/recipe-episodes.js";
import { resolveRun } from "../../src/run/resolve-run.js";
import { getTask } from "../../src/tasks/registry.js";
import { exportLabelsOnly } from "../../src/world/labels-export.js";
import { freshRunsDir, RAW_DIR, REPO, run } from "../run/helpers.js";

const relive = (args: string[], cwd = REPO) =>
  spawnSync(process.execPath, [join(REPO, "bin/relive.js"), ...args], { encoding: "utf8", cwd });

const MURPHY = join(RAW_DIR, "edgar-submissions-murphy-raw/CIK0000717423.json");
const HAVE_MURPHY = existsSync(MURPHY);
if (!HAVE_MURPHY) console.warn(`skipping the EDGAR recipe CLI test: ${MURPHY} not found`);

/** A recipe for a company no test or code names: Murphy Oil, submissions only (no companyfacts). */
const murphyRecipe = (streams = "[company, filing, broker_event]") => `recipe: 1
name: edgar-murphy-2022-08
description: Murphy Oil EDGAR submissions (no companyfacts), held 2022-08-01 → 08-11
window: { start: 2022-08-01, end: 2022-08-12 }
streams: ${streams}
sources:
  - importer: edgar
    submissions: edgar-submissions-murphy-raw/CIK0000717423.json
episode:
  id: murphy-2022-08
  tasks:
    filing-tracker:
      params: { portal_mode: api }
`;

/** A ForecastBench set no other test, recipe or code names (due 2024-07-21), in the 2024 file shapes. */
function writeForecastBenchSet(dir: string): void {
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
  const questions = [q("d1", "acled", {}), q("d2", "fred", { resolution_dates: ["2024-07-28"] })];
  const resolutions = [
    { id: "d1", source: "acled", direction: null, resolution_date: "2024-07-28", resolved_to: 0.0, resolved: true },
    { id: "d1", source: "acled", direction: null, resolution_date: "2024-08-20", resolved_to: 1.0, resolved: true },
    { id: "d2", source: "fred", direction: null, resolution_date: "2024-07-28", resolved_to: 1.0, resolved: true },
  ];
  mkdirSync(join(dir, "sets"), { recursive: true });
  writeFileSync(
    join(dir, "sets/q.json"),
    JSON.stringify({ forecast_due_date: "2024-07-21", question_set: "2024-07-21-llm.json", questions }),
  );
  writeFileSync(
    join(dir, "sets/r.json"),
    JSON.stringify({ forecast_due_date: "2024-07-21", question_set: "2024-07-21-llm.json", resolutions }),
  );
}

const FB_RECIPE = `recipe: 1
name: fb-summer-2024
data_dir: .
streams: [question, question_resolution]
sources:
  - { importer: forecastbench, questions: sets/q.json, resolutions: sets/r.json }
episode:
  id: fb-summer-2024
  window: { start: 2024-07-21, end: 2024-08-21 }
  tasks: [open-forecast]
`;

/** Every .ts file under src/. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("shipped recipes", () => {
  it("are valid, define svb-2023, tesla-2022, the two ForecastBench episodes and the Polymarket week, and the tasks list them", () => {
    const shipped = recipeFilesIn(SHIPPED_RECIPE_DIR).map(loadRecipe);
    expect(shipped.flatMap((r) => (r.recipe.episode ? [r.recipe.episode.id] : [])).sort()).toEqual([
      "forecastbench-2026-01-04",
      "forecastbench-2026-01-18",
      "polymarket-wom-2026-01",
      "svb-2023",
      "tesla-2022",
    ]);
    // the other streamed importers' shipped recipes build worlds only (recipes/README.md says why)
    expect(
      shipped
        .filter((r) => !r.recipe.episode)
        .map((r) => r.recipe.name)
        .sort(),
    ).toEqual(["polymarket-betting-on-war", "reddit-arcticshift-sample", "warc-ccmain-sample"]);
    const eps = (task: string) => taskEpisodes(getTask(task)).map((e) => `${e.name}:${e.world.kind}`);
    expect(eps("price-check")).toContain("svb-2023:recipe");
    expect(eps("risk-portfolio")).toContain("svb-2023:recipe");
    expect(eps("filing-tracker")).toContain("tesla-2022:recipe");
    expect(eps("forecast-portfolio")).toContain("polymarket-wom-2026-01:recipe");
    expect(eps("open-forecast")).toEqual(
      expect.arrayContaining(["forecastbench-2026-01-04:recipe", "forecastbench-2026-01-18:recipe"]),
    );
  });

  it("no episode id, world name or source file of a shipped recipe appears in src/ code", () => {
    const names = new Set<string>();
    for (const r of listRecipes()) {
      names.add(r.recipe.name);
      if (r.recipe.episode) names.add(r.recipe.episode.id);
      for (const p of sourcePaths(r.recipe.sources)) names.add(p.split("/").pop() as string);
    }
    const hits: string[] = [];
    for (const f of sourceFiles(join(REPO, "src"))) {
      const text = readFileSync(f, "utf8");
      for (const n of names) if (text.includes(n)) hits.push(`${relative(REPO, f)}: ${n}`);
    }
    expect(hits).toEqual([]);
  });
});

describe("a recipe no code names", () => {
  it.skipIf(!HAVE_MURPHY)(
    "an EDGAR company: `relive data build` builds it, `relive run --episode --recipes` runs it with the recipe's default params",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "relive-recipe-"));
      const cache = join(dir, "cache");
      writeFileSync(join(dir, "murphy.yaml"), murphyRecipe());
      const b = relive(["data", "build", join(dir, "murphy.yaml"), "--data", RAW_DIR, "--cache", cache]);
      if (b.status !== 0) console.error(b.stdout, b.stderr);
      expect(b.status).toBe(0);
      expect(b.stdout).toMatch(/world edgar-murphy-2022-08 built: /);
      expect(b.stdout).toContain("CIK 0000717423: no companyfacts (10-Q/10-K values not scorable, 8-K duties scored)");
      expect(b.stdout).toContain(`relive run --task filing-tracker --episode murphy-2022-08 --recipes ${dir}`);
      // built again: found in the cache
      expect(relive(["data", "build", join(dir, "murphy.yaml"), "--data", RAW_DIR, "--cache", cache]).stdout).toMatch(
        /world edgar-murphy-2022-08 cached: /,
      );
      const r = relive([
        "run",
        "--task",
        "filing-tracker",
        "--episode",
        "murphy-2022-08",
        "--recipes",
        dir,
        "--raw",
        RAW_DIR,
        "--cache",
        cache,
        "--runs",
        join(dir, "runs"),
        "-m",
        "scripted:perfect-client",
        "--json",
        "-q",
      ]);
      expect(r.status).toBe(0);
      const res = JSON.parse(r.stdout) as {
        episode: string;
        outcomes: { key: string; status: string }[];
        not_scorable: { reason: string }[];
      };
      expect(res.episode).toBe("murphy-2022-08");
      // the 8-K with item 2.02 of 08-04 is scored; the 10-Q's values have no gold without companyfacts
      expect(res.outcomes.map((o) => [o.key, o.status])).toContainEqual(["MUR:0000717423-22-000059", "ok"]);
      const cfgFile = (readdirSync(join(dir, "runs"), { recursive: true }) as string[]).find((p) =>
        p.endsWith("config.json"),
      );
      const cfg = JSON.parse(readFileSync(join(dir, "runs", cfgFile as string), "utf8")) as {
        resolved: { task_params: { portal_mode: string } };
      };
      expect(cfg.resolved.task_params.portal_mode).toBe("api");
    },
    900_000,
  );

  it("a ForecastBench set: its recipe (data_dir beside it) builds and open-forecast runs on it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-recipe-fb-"));
    writeForecastBenchSet(dir);
    writeFileSync(join(dir, "fb.yaml"), FB_RECIPE);
    const cache = join(dir, "cache");
    const w = ensureRecipeWorld(loadRecipe(join(dir, "fb.yaml")), { cacheDir: cache, dataDir: "/nonexistent" });
    expect(w.built).toBe(true);
    expect(w.manifest.name).toBe("fb-summer-2024");
    expect(w.manifest.streams).toMatchObject({ question: 3, question_resolution: 3 });
    const o = { runsDir: freshRunsDir(), cacheDir: cache, recipeDirs: [dir], allowOracle: true };
    const oracle = await run(
      { task: "open-forecast", episode: "fb-summer-2024", agent: { model: "scripted:oracle" } },
      o,
    );
    expect(oracle.results.episode).toBe("fb-summer-2024");
    expect(oracle.results.performance.questions_scored).toBe(3);
    expect(oracle.results.performance.primary.value).toBe(300);
  }, 900_000);
});

describe("recipe search path", () => {
  it("relive.config recipe_dirs (relative to the file) are searched; --recipes first; a folder's duplicate ids are refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-recipe-project-"));
    mkdirSync(join(dir, "recipes"));
    writeFileSync(join(dir, "recipes/fb.yaml"), FB_RECIPE);
    writeFileSync(join(dir, "relive.config.json"), JSON.stringify({ recipe_dirs: ["./recipes"] }));
    const ids = () => taskEpisodes(getTask("open-forecast")).map((e) => e.name);
    try {
      await loadProjectConfig({ dir });
      expect(ids()).toContain("fb-summer-2024");
      // a --recipes folder comes first: its recipe of the same id wins
      const other = mkdtempSync(join(tmpdir(), "relive-recipe-first-"));
      writeFileSync(
        join(other, "fb.yaml"),
        FB_RECIPE.replace("end: 2024-08-21 }", "end: 2024-08-01 }").replace("name: fb-summer-2024", "name: fb-other"),
      );
      const ep = taskEpisodes(getTask("open-forecast"), [other]).find((e) => e.name === "fb-summer-2024");
      expect(ep?.sim_end).toBe(Date.parse("2024-08-01T00:00:00Z"));
      writeFileSync(join(other, "fb2.yaml"), FB_RECIPE.replace("name: fb-summer-2024", "name: fb-third"));
      expect(() => taskEpisodes(getTask("open-forecast"), [other])).toThrow(
        /fb\.yaml and .*fb2\.yaml both define episode "fb-summer-2024" for open-forecast: rename one/,
      );
    } finally {
      await loadProjectConfig({ dir: mkdtempSync(join(tmpdir(), "relive-no-project-")) });
    }
    expect(ids()).not.toContain("fb-summer-2024");
  });
});

describe("recipe cache", () => {
  it("keys on the recipe's world content and its input files, not on its episode text", () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-recipe-key-"));
    writeForecastBenchSet(dir);
    const cache = join(dir, "cache");
    const build = (text: string) => {
      writeFileSync(join(dir, "fb.yaml"), text);
      return ensureRecipeWorld(loadRecipe(join(dir, "fb.yaml")), { cacheDir: cache });
    };
    const a = build(FB_RECIPE);
    expect(build(FB_RECIPE)).toMatchObject({ dir: a.dir, built: false });
    // a description is not world content
    expect(build(FB_RECIPE.replace("name: fb-summer-2024", "name: fb-summer-2024\ndescription: x"))).toMatchObject({
      dir: a.dir,
      built: false,
    });
    // a changed input file is a new world
    const r = JSON.parse(readFileSync(join(dir, "sets/r.json"), "utf8"));
    r.resolutions[2].resolved_to = 0.0;
    writeFileSync(join(dir, "sets/r.json"), JSON.stringify(r));
    const c = build(FB_RECIPE);
    expect(c.built).toBe(true);
    expect(c.dir).not.toBe(a.dir);
    expect(c.manifest.hash).not.toBe(a.manifest.hash);
    // the input files gone: the world built before from the same recipe content is used
    const moved = mkdtempSync(join(tmpdir(), "relive-recipe-moved-"));
    cpSync(join(dir, "fb.yaml"), join(moved, "fb.yaml"));
    // two worlds of this content exist (a and c): which one is a guess, so it is refused
    expect(() => ensureRecipeWorld(loadRecipe(join(moved, "fb.yaml")), { cacheDir: cache })).toThrow(
      /ForecastBench files not found/,
    );
    // one world of this content: used (the recipe's data is gone, its world is not)
    const single = join(dir, "cache-single");
    const only = ensureRecipeWorld(loadRecipe(join(dir, "fb.yaml")), { cacheDir: single });
    expect(ensureRecipeWorld(loadRecipe(join(moved, "fb.yaml")), { cacheDir: single })).toMatchObject({
      dir: only.dir,
      built: false,
    });
  });
});

describe("label-only export and rebuild of a recipe world", () => {
  it.skipIf(!HAVE_MURPHY)(
    "an EDGAR world rebuilds from the raw files to the same world hash",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "relive-recipe-export-"));
      writeFileSync(join(dir, "murphy.yaml"), murphyRecipe());
      const w = ensureRecipeWorld(loadRecipe(join(dir, "murphy.yaml")), {
        cacheDir: join(dir, "cache"),
        dataDir: RAW_DIR,
      });
      exportLabelsOnly(w.dir, join(dir, "export"));
      expect(existsSync(join(dir, "export/recipe-build.json"))).toBe(true);
      const r = await rebuildRecipeWorld(join(dir, "export"), RAW_DIR, join(dir, "rebuilt"));
      expect(r.manifest.hash).toBe(w.manifest.hash);
      expect(r.manifest.sources.map((x) => x.path)).toEqual(w.manifest.sources.map((x) => x.path));
      // the CLI dispatches a recipe export to the recipe rebuild
      const cli = relive(["data", "rebuild", join(dir, "export"), "--raw", RAW_DIR, "-o", join(dir, "rebuilt-cli")]);
      expect(cli.status).toBe(0);
      expect(cli.stdout).toContain(`hash ${w.manifest.hash} (matches the export)`);
    },
    300_000,
  );

  it("a ForecastBench world: same hash from the files; a changed file is refused and nothing is kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-recipe-export-fb-"));
    writeForecastBenchSet(dir);
    writeFileSync(join(dir, "fb.yaml"), FB_RECIPE);
    const w = ensureRecipeWorld(loadRecipe(join(dir, "fb.yaml")), { cacheDir: join(dir, "cache") });
    exportLabelsOnly(w.dir, join(dir, "export"));
    // pulled again elsewhere: found by name below the raw dir
    const pulled = mkdtempSync(join(tmpdir(), "relive-recipe-pulled-"));
    cpSync(join(dir, "sets"), join(pulled, "deep/er"), { recursive: true });
    const r = await rebuildRecipeWorld(join(dir, "export"), pulled, join(dir, "rebuilt"));
    expect(r.manifest.hash).toBe(w.manifest.hash);
    const rr = JSON.parse(readFileSync(join(pulled, "deep/er/r.json"), "utf8"));
    rr.resolutions[0].resolved_to = 1.0;
    writeFileSync(join(pulled, "deep/er/r.json"), JSON.stringify(rr));
    await expect(rebuildRecipeWorld(join(dir, "export"), pulled, join(dir, "rebuilt-2"))).rejects.toThrow(
      /r\.json: .* has sha256 [0-9a-f]{64}, the world was built from/,
    );
    expect(existsSync(join(dir, "rebuilt-2"))).toBe(false);
  });
});

describe("bad recipes", () => {
  const worldsLeft = (cache: string) => (existsSync(join(cache, "worlds")) ? readdirSync(join(cache, "worlds")) : []);

  it("a schema error names the file and the field, and what to write", () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-recipe-bad-"));
    const f = join(dir, "bad.yaml");
    writeFileSync(
      f,
      `recipe: 1
name: bad-candles
window: { start: 2023-03-01, end: 2023-02-01 }
streams: [candle]
sources:
  - { importer: kraken-ohlcvt, path: x.csv, venue: kraken, symbol: BTC-USD, interval: 1 hour }
  - { importer: edgar, submissions: s.json }
episode: { id: bad, tasks: [price-check] }
`,
    );
    let msg = "";
    try {
      loadRecipe(f);
    } catch (e) {
      expect(e).toBeInstanceOf(RecipeError);
      msg = (e as Error).message;
    }
    expect(msg).toContain(`recipe ${f} is invalid`);
    expect(msg).toMatch(/window: end must be after start/);
    expect(msg).toMatch(/sources\.0\.interval: not a duration: "1 hour" \(write e\.g\. 1h, 15m, 1d\)/);
    // cross-field rules are checked once the fields themselves are valid
    writeFileSync(
      join(dir, "mixed.yaml"),
      `recipe: 1
name: mixed
window: { start: 2023-03-01, end: 2023-03-02 }
streams: [candle]
sources:
  - { importer: kraken-ohlcvt, path: x.csv, venue: kraken, symbol: BTC-USD, interval: 1h }
  - { importer: edgar, submissions: s.json }
  - { importer: polymarket, files: [m.json] }
  - { importer: forecastbench, questions: q.json, resolutions: r.json }
`,
    );
    // candles and EDGAR compose; ForecastBench and Polymarket both write market and market_price
    expect(() => loadRecipe(join(dir, "mixed.yaml"))).toThrow(
      /mixed\.yaml is invalid:\n {2}sources\.3\.importer: sources\.3 \(importer forecastbench, forecastbench family\) and sources\.2 \(importer polymarket, polymarket family\) both write the streams market, market_price/,
    );
    // the CLI exits 2 with the same message and builds nothing
    const cache = join(dir, "cache");
    const r = relive(["data", "build", f, "--cache", cache]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("sources.0.interval");
    expect(worldsLeft(cache)).toEqual([]);
  });

  it.skipIf(!HAVE_MURPHY)("a declared stream the sources do not fill refuses the build and leaves no world", () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-recipe-streams-"));
    const f = join(dir, "murphy.yaml");
    writeFileSync(f, murphyRecipe("[company, filing, xbrl_fact, broker_event]"));
    const cache = join(dir, "cache");
    expect(() => ensureRecipeWorld(loadRecipe(f), { cacheDir: cache, dataDir: RAW_DIR })).toThrow(
      new RegExp(`recipe ${f}: streams: the built world has no rows of xbrl_fact .*nothing was kept`),
    );
    expect(worldsLeft(cache)).toEqual([]);
  });

  it("a missing input names the source field and the data root; a bad task param names the episode field", () => {
    const dir = mkdtempSync(join(tmpdir(), "relive-recipe-missing-"));
    const f = join(dir, "m.yaml");
    writeFileSync(f, FB_RECIPE);
    const cache = join(dir, "cache");
    expect(() => ensureRecipeWorld(loadRecipe(f), { cacheDir: cache })).toThrow(
      /input files missing under the data root .*\n {2}sources\.0: ForecastBench files not found: .*sets\/q\.json/,
    );
    expect(worldsLeft(cache)).toEqual([]);
    writeForecastBenchSet(dir);
    writeFileSync(
      f,
      FB_RECIPE.replace("tasks: [open-forecast]", "tasks: { open-forecast: { params: { no_such: 1 } } }"),
    );
    const r = relive(["data", "build", f, "--cache", cache]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`recipe ${f}: episode.tasks.open-forecast.params is invalid`);
    expect(worldsLeft(cache)).toEqual([]);
    // and a run of it says the same before any world is built
    expect(() =>
      resolveRun(parseRunConfig({ task: "open-forecast", episode: "fb-summer-2024" }), {
        runsDir: freshRunsDir(),
        cacheDir: cache,
        recipeDirs: [dir],
      }),
    ).toThrow(/with the defaults of episode fb-summer-2024/);
    expect(worldsLeft(cache)).toEqual([]);
  });
});
