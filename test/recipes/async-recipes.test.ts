/**
 * Recipes of the streamed importers (WARC, Polymarket, Reddit, JSONL news, events): the build
 * path awaited by `relive data build` and by `prepareRunWorld` before the synchronous resolve, the
 * same world hash as `relive data import` over the same files and parameters, a recipe episode
 * of an events world run through the runner, the label-only export rebuilt to the same hash, and
 * bad recipes (file and field named, nothing left in the cache).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importRedditDumps } from "../../src/ingest/reddit-ndjson.js";
import { importWarcNews } from "../../src/ingest/warc-news.js";
import { ensureRecipeWorld, ensureRecipeWorldAsync } from "../../src/recipes/recipe-build.js";
import { SHIPPED_RECIPE_DIR } from "../../src/recipes/recipe-dirs.js";
import { loadRecipe, RecipeError } from "../../src/recipes/recipe-file.js";
import { rebuildRecipeWorld } from "../../src/recipes/recipe-rebuild.js";
import { parseRunConfig } from "../../src/run/config.js";
import { prepareRunWorld } from "../../src/run/prepare-run-world.js";
import { resolveRun } from "../../src/run/resolve-run.js";
import { runFromConfig } from "../../src/run/runner.js";
import { exportLabelsOnly } from "../../src/world/labels-export.js";
import { readWorldManifest } from "../../src/world/world-store.js";
import { freshRunsDir, RAW_DIR, REPO } from "../run/helpers.js";
import { EXAMPLE_DIR, EXAMPLE_TASK, importExample } from "../tasks/event-response/example-world.js";

const relive = (args: string[]) =>
  spawnSync(process.execPath, [join(REPO, "bin/relive.js"), ...args], { encoding: "utf8", cwd: REPO });

const BOW = join(RAW_DIR, "polymarket-betting-on-war");
const HAVE_RAW = existsSync(BOW);
if (!HAVE_RAW) console.warn(`skipping the real-sample recipe tests: ${BOW} not found (../shared/data/raw is absent)`);

const shipped = (name: string) => loadRecipe(join(SHIPPED_RECIPE_DIR, `${name}.yaml`));
const tmp = (p: string) => mkdtempSync(join(tmpdir(), `relive-arcp-${p}-`));
const worldsLeft = (cache: string) => (existsSync(join(cache, "worlds")) ? readdirSync(join(cache, "worlds")) : []);
const hashOf = (out: string) => /hash ([0-9a-f]{64})/.exec(out)?.[1];

/** An events recipe over the shipped example log with an event-response episode. */
const eventsRecipe = (extra = "") => `recipe: 1
name: oncall-recipe-world
data_dir: ${EXAMPLE_DIR}
window: { start: 2026-03-02, end: 2026-03-05 } # the log's whole UTC days (checked at build)
streams: [event]
sources:
  - { importer: events, files: [oncall.jsonl], time_field: ts, kind_field: type, id_field: id${extra} }
episode:
  id: oncall-recipe
  tasks:
    event-response:
      params: { task_file: ${EXAMPLE_TASK} }
`;

describe.skipIf(!HAVE_RAW)("shipped recipes of the streamed importers, on the real samples", () => {
  it("Polymarket CSV: relive data build and relive data import give one hash; the recipe's bp / price delay are the flags'", () => {
    const dir = tmp("pm");
    const files = ["polymarket_markets.csv", "polymarket_prices.csv"].map((f) => join(BOW, f));
    const imp = relive(["data", "import", "--polymarket", ...files, "-o", join(dir, "imported")]);
    expect(imp.status, imp.stderr).toBe(0);
    const built = relive(["data", "build", "polymarket-betting-on-war", "--cache", join(dir, "cache")]);
    expect(built.status, built.stderr).toBe(0);
    const h = readWorldManifest(join(dir, "imported")).hash;
    expect(hashOf(built.stdout)).toBe(h);
    expect(built.stdout).toMatch(/breakpoints 61, t_det 4, forecast_questions 4/);
    expect(built.stdout).toMatch(/polymarket_markets\.csv:\d+: market \d+: no price rows/);
    // other truth parameters: the recipe fields and the import flags move the hash alike
    const impBp = relive([
      "data",
      "import",
      "--polymarket",
      ...files,
      "--bp",
      "z=3",
      "--bp",
      "min_move=0.1",
      "--price-delay-min",
      "5",
      "-o",
      join(dir, "imported-bp"),
    ]);
    expect(impBp.status, impBp.stderr).toBe(0);
    writeFileSync(
      join(dir, "bp.yaml"),
      `recipe: 1
name: pm-bp
data_dir: ${BOW}
streams: [market, market_price, market_resolution]
sources:
  - { importer: polymarket, files: [polymarket_markets.csv, polymarket_prices.csv], bp: { z: 3, min_move: 0.1 }, price_delay_min: 5 }
`,
    );
    const builtBp = relive(["data", "build", join(dir, "bp.yaml"), "--cache", join(dir, "cache")]);
    expect(builtBp.status, builtBp.stderr).toBe(0);
    const hBp = readWorldManifest(join(dir, "imported-bp")).hash;
    expect(hBp).not.toBe(h);
    expect(hashOf(builtBp.stdout)).toBe(hBp);
  }, 300_000);

  it("Polymarket Gamma + CLOB: the label-only export rebuilds to the same hash; a changed file is refused", async () => {
    const dir = tmp("pm-export");
    const w = await ensureRecipeWorldAsync(shipped("polymarket-wom-api"), { cacheDir: join(dir, "cache") });
    expect(w.manifest.streams).toMatchObject({ market: 616, market_price: 882, market_resolution: 299 });
    exportLabelsOnly(w.dir, join(dir, "export"));
    const r = await rebuildRecipeWorld(join(dir, "export"), RAW_DIR, join(dir, "rebuilt"));
    expect(r.manifest.hash).toBe(w.manifest.hash);
    // the CLI dispatches the recipe export to the recipe rebuild
    const cli = relive(["data", "rebuild", join(dir, "export"), "--raw", RAW_DIR, "-o", join(dir, "rebuilt-cli")]);
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(`hash ${w.manifest.hash} (matches the export)`);
  }, 300_000);

  it("Reddit and WARC recipes: the world `relive data import` writes from the same files", async () => {
    const dir = tmp("rw");
    const rd = await ensureRecipeWorldAsync(shipped("reddit-arcticshift-sample"), { cacheDir: join(dir, "cache") });
    expect(rd.built).toBe(true);
    expect(rd.manifest.streams).toMatchObject({ reddit_post: 31, reddit_reveal: 31 });
    expect(rd.rejected).toHaveLength(27);
    const sample = join(RAW_DIR, "reddit-arcticshift-pushshift-importer");
    const direct = await importRedditDumps(
      ["test_submissions.json", "test_comments.json"].map((f) => join(sample, f)),
      join(dir, "reddit-imported"),
      { name: "reddit" },
    );
    expect(rd.manifest.hash).toBe(direct.manifest.hash);
    const wr = await ensureRecipeWorldAsync(shipped("warc-ccmain-sample"), { cacheDir: join(dir, "cache") });
    expect(wr.manifest.streams.news).toBe(11);
    const wd = await importWarcNews(
      [join(RAW_DIR, "warc-ccmain-resiliparse/warcfile.warc.gz")],
      join(dir, "warc-imported"),
      { name: "warc", nearDuplicateJaccard: 0.8 },
    );
    expect(wr.manifest.hash).toBe(wd.manifest.hash);
    // found in the cache the second time, and then also by the synchronous path of this process
    const again = await ensureRecipeWorldAsync(shipped("warc-ccmain-sample"), { cacheDir: join(dir, "cache") });
    expect(again).toMatchObject({ built: false, dir: wr.dir });
    expect(ensureRecipeWorld(shipped("warc-ccmain-sample"), { cacheDir: join(dir, "cache") }).dir).toBe(wr.dir);
  }, 300_000);
});

describe("an events recipe episode through the run path", () => {
  it("relive run's path builds it; resolveRun alone says what to run, then finds what prepareRunWorld built", async () => {
    const recipes = tmp("ev-recipes");
    writeFileSync(join(recipes, "oncall.yaml"), eventsRecipe());
    const cfg = parseRunConfig({
      task: "event-response",
      episode: "oncall-recipe",
      agent: { model: "scripted:poll-15m" },
    });
    // the runner (runFromConfig: relive run, the library's run()) awaits the build itself
    const ran = { runsDir: freshRunsDir(), cacheDir: tmp("ev-cache-run"), recipeDirs: [recipes], allowOracle: true };
    const res = await runFromConfig(cfg, ran);
    // the same world and policy as test/tasks/event-response/run.test.ts's --world run
    expect(res.results.performance.primary).toEqual({ name: "on_time_rate", value: 0.8, direction: "higher" });
    // the synchronous resolve alone cannot run the streamed importer: it says what to do, builds nothing
    const cacheDir = tmp("ev-cache");
    const o = { runsDir: freshRunsDir(), cacheDir, recipeDirs: [recipes], allowOracle: true };
    expect(() => resolveRun(cfg, o)).toThrow(/asynchronous events importer.*relive data build .*oncall\.yaml/s);
    expect(worldsLeft(cacheDir)).toEqual([]);
    await prepareRunWorld(cfg, o);
    const r = resolveRun(cfg, o);
    expect(r.worldHash).toBe(readWorldManifest(await importExample()).hash);
    // a run window past the recipe world's is refused like a --world one's, naming the recipe
    const late = parseRunConfig({
      task: "event-response",
      episode: "oncall-recipe",
      sim_start: "2026-03-02T00:00:00Z",
      sim_end: "2026-03-07T00:00:00Z",
    });
    expect(() => resolveRun(late, o)).toThrow(
      /the world of recipe .*oncall\.yaml \(episode oncall-recipe\) \(world "oncall-recipe-world"\) cannot serve task event-response:\n {2}- it does not cover the episode window/,
    );
  }, 900_000);

  it("a recipe episode listing a task whose streams the recipe does not fill is refused at build", () => {
    const recipes = tmp("ev-bad-task");
    writeFileSync(
      join(recipes, "oncall.yaml"),
      eventsRecipe().replace("    event-response:\n", "    daily-digest:\n      params: {}\n    event-response:\n"),
    );
    const out = relive(["data", "build", join(recipes, "oncall.yaml"), "--cache", join(recipes, "cache")]);
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(
      /oncall\.yaml: episode\.tasks\.daily-digest: task daily-digest needs the streams reddit_post, reddit_comment, reddit_reveal; the recipe's streams \[event\] lack/,
    );
    expect(worldsLeft(join(recipes, "cache"))).toEqual([]);
  });
});

describe("bad recipes of the streamed importers", () => {
  const write = (dir: string, body: string) => {
    const f = join(dir, "bad.yaml");
    writeFileSync(f, `recipe: 1\nname: bad\nstreams: [market]\n${body}`);
    return f;
  };

  it("a wrong field is named with the file before anything is read", () => {
    const dir = tmp("bad-field");
    const cases: [string, RegExp][] = [
      ["sources:\n  - { importer: polymarket, files: [a.csv], bp: { zz: 3 } }\n", /bad\.yaml.*sources\.0\.bp.*zz/s],
      ["sources:\n  - { importer: polymarket, files: [a.csv], bp: { z: -1 } }\n", /bad\.yaml.*sources\.0\.bp\.z/s],
      [
        "sources:\n  - { importer: polymarket, files: [a.csv], price_delay_min: -5 }\n",
        /bad\.yaml.*sources\.0\.price_delay_min: minutes ≥ 0/s,
      ],
      [
        "sources:\n  - { importer: warc, files: [a.warc], near_dup: 2 }\n",
        /bad\.yaml.*sources\.0\.near_dup: a similarity in \(0, 1\]/s,
      ],
      [
        "sources:\n  - { importer: reddit, files: [] }\n",
        /bad\.yaml.*sources\.0\.files: list at least one input file/s,
      ],
      [
        "sources:\n  - { importer: events, files: [e.jsonl], time_field: t, kind_field: t }\n",
        /bad\.yaml.*sources\.0.*time_field, kind_field and id_field must be different/s,
      ],
      [
        "sources:\n  - { importer: reddit, files: [a.ndjson] }\n  - { importer: reddit, files: [b.ndjson] }\n",
        /bad\.yaml.*sources\.1: a recipe has one reddit source/s,
      ],
      [
        "sources:\n  - { importer: news-jsonl, files: [a.jsonl] }\n  - { importer: reddit, files: [a.ndjson] }\n  - { importer: warc, files: [b.warc] }\n",
        /bad\.yaml.*sources\.2\.importer: sources\.2 \(importer warc, warc family\) and sources\.0 \(importer news-jsonl, news-jsonl family\) both write the stream news/s,
      ],
    ];
    for (const [body, re] of cases) {
      const f = write(dir, body);
      expect(() => loadRecipe(f), body).toThrow(RecipeError);
      expect(() => loadRecipe(f), body).toThrow(re);
    }
  });

  it("a missing file names the source and the data root; an importer's refusal names its rows; no world is left", async () => {
    const dir = tmp("bad-files");
    const cache = join(dir, "cache");
    const missing = write(
      dir,
      "sources:\n  - { importer: polymarket, files: [pm/markets.csv], clob: [{ token: '1', file: pm/nope.json }] }\n",
    );
    await expect(ensureRecipeWorldAsync(loadRecipe(missing), { cacheDir: cache, dataDir: dir })).rejects.toThrow(
      /bad\.yaml: input files missing under the data root .*\n {2}sources\.0 \(polymarket\): not found: .*pm\/markets\.csv, .*pm\/nope\.json/,
    );
    mkdirSync(join(dir, "pm"));
    writeFileSync(join(dir, "pm/summary.csv"), "market_id,volume\n1,2\n");
    const refused = write(dir, "sources:\n  - { importer: polymarket, files: [pm/summary.csv] }\n");
    await expect(ensureRecipeWorldAsync(loadRecipe(refused), { cacheDir: cache, dataDir: dir })).rejects.toThrow(
      /bad\.yaml: the polymarket importer refused the sources: nothing to import.*\n {2}.*pm\/summary\.csv:1: CSV header/s,
    );
    // a stream the world does not fill: built whole, then refused and removed
    writeFileSync(join(dir, "ev.jsonl"), '{"ts":"2026-03-02T10:00:00Z","type":"alert","id":"a1"}\n');
    const noStream = join(dir, "ev.yaml");
    writeFileSync(
      noStream,
      "recipe: 1\nname: ev\nstreams: [event, news]\nsources:\n  - { importer: events, files: [ev.jsonl], time_field: ts, kind_field: type }\n",
    );
    await expect(ensureRecipeWorldAsync(loadRecipe(noStream), { cacheDir: cache, dataDir: dir })).rejects.toThrow(
      /ev\.yaml: streams: the built world has no rows of news \(its streams with rows: event\)/,
    );
    // a window the data does not span
    const badWindow = join(dir, "ev-window.yaml");
    writeFileSync(
      badWindow,
      "recipe: 1\nname: ev\nwindow: { start: 2026-03-01, end: 2026-03-05 }\nstreams: [event]\nsources:\n  - { importer: events, files: [ev.jsonl], time_field: ts, kind_field: type }\n",
    );
    await expect(ensureRecipeWorldAsync(loadRecipe(badWindow), { cacheDir: cache, dataDir: dir })).rejects.toThrow(
      /ev-window\.yaml: window: the events data spans 2026-03-02T00:00:00Z → 2026-03-03T00:00:00Z/,
    );
    expect(worldsLeft(cache)).toEqual([]);
  });
});
