/**
 * Recipes composing several importer families into one world (src/recipes/recipe-compose.ts):
 * one atomic build (a broken later source leaves no world and no temp dir), a world independent
 * of the sources' order in the recipe, a per-source report, and real news attached to a
 * ForecastBench questions world that open-forecast's base-rate-news heuristic reads.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { buildForecastBenchWorld } from "../../src/ingest/forecastbench.js";
import { ensureRecipeWorldAsync } from "../../src/recipes/recipe-build.js";
import { formatPartReports } from "../../src/recipes/recipe-compose.js";
import { loadRecipe } from "../../src/recipes/recipe-file.js";
import { searchQuery } from "../../src/tasks/open-forecast/policies.js";
import { RAW_DIR as DEFAULT_RAW, run } from "../run/helpers.js";

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `relive-compose-${p}-`));
const DAY = 86_400_000;

const newsLine = (i: number, t: string, title = `Story ${i} on harbour works`) =>
  JSON.stringify({
    url: `https://example.org/a/${i}`,
    title,
    text: `${title}. Body of article ${i}.`,
    published_at: t,
  });
const eventLine = (i: number, t: string) => JSON.stringify({ at: t, type: i % 2 ? "page" : "ack", n: i });

function fixtures(dir: string) {
  writeFileSync(
    join(dir, "news.jsonl"),
    `${[0, 1, 2].map((i) => newsLine(i, `2026-02-0${i + 1}T10:00:00Z`)).join("\n")}\n`,
  );
  writeFileSync(
    join(dir, "events.jsonl"),
    `${[0, 1, 2, 3].map((i) => eventLine(i, `2026-02-0${i + 1}T08:00:00Z`)).join("\n")}\n`,
  );
  writeFileSync(join(dir, "broken.jsonl"), "not json\n{also not\n");
}

const NEWS = (f: string) => `  - { importer: news-jsonl, files: [${f}] }\n`;
const EVENTS = (f: string) => `  - { importer: events, files: [${f}], time_field: at, kind_field: type }\n`;
function recipe(dir: string, file: string, name: string, sources: string[], streams = "[news, event]"): string {
  const f = join(dir, file);
  writeFileSync(f, `recipe: 1\nname: ${name}\ndata_dir: .\nstreams: ${streams}\nsources:\n${sources.join("")}`);
  return f;
}
const cacheEntries = (cache: string) => (existsSync(join(cache, "worlds")) ? readdirSync(join(cache, "worlds")) : []);

describe("composed recipes", () => {
  it("a broken later source leaves no world and no temp dir; the error names the source", async () => {
    const dir = tmp("atomic");
    fixtures(dir);
    // events are imported first (FAMILY_ORDER), so the build has rows when the news source fails
    const f = recipe(dir, "bad.yaml", "bad", [EVENTS("events.jsonl"), NEWS("broken.jsonl")]);
    const cache = join(dir, "cache");
    await expect(ensureRecipeWorldAsync(loadRecipe(f), { cacheDir: cache })).rejects.toThrow(
      /sources\.1 \(news-jsonl\): nothing to import: every one of the 2 source row\(s\) was rejected/,
    );
    expect(cacheEntries(cache)).toEqual([]);
  });

  it("the world does not depend on the order of the sources; relive data build reports each source", async () => {
    const dir = tmp("order");
    fixtures(dir);
    const a = loadRecipe(recipe(dir, "a.yaml", "both", [NEWS("news.jsonl"), EVENTS("events.jsonl")]));
    const b = loadRecipe(recipe(dir, "b.yaml", "both", [EVENTS("events.jsonl"), NEWS("news.jsonl")]));
    const wa = await ensureRecipeWorldAsync(a, { cacheDir: join(dir, "ca") });
    const wb = await ensureRecipeWorldAsync(b, { cacheDir: join(dir, "cb") });
    expect(wa.manifest.streams.news).toBe(3);
    expect(wa.manifest.streams.event).toBe(4);
    expect(wa.manifest.hash).toBe(wb.manifest.hash);
    expect(wa.manifest.sources).toEqual(wb.manifest.sources);
    // the window spans both parts: events are whole UTC days, news [first, last] article
    expect(wa.manifest.window).toEqual({ start: Date.parse("2026-02-01"), end: Date.parse("2026-02-05") });
    const rows = (d: string) => {
      const db = new Database(join(d, "world.db"), { readonly: true });
      const r = [
        db.prepare("SELECT rowid AS r_, * FROM news ORDER BY rowid").all(),
        db.prepare("SELECT rowid AS r_, * FROM event ORDER BY rowid").all(),
      ];
      db.close();
      return r;
    };
    expect(rows(wa.dir)).toEqual(rows(wb.dir));
    expect(formatPartReports(wa.parts ?? [])).toEqual([
      "sources.1 (events) [events]: 4 row(s) accepted (event 4), 0 rejected",
      "sources.0 (news-jsonl) [news-jsonl]: 3 row(s) accepted (news 3), 0 rejected",
    ]);
  });

  it("a recipe window bounds every part: a part's data outside it is refused naming the source", async () => {
    const dir = tmp("window");
    fixtures(dir);
    const f = join(dir, "w.yaml");
    writeFileSync(
      f,
      `recipe: 1\nname: w\ndata_dir: .\nwindow: { start: 2026-02-01, end: 2026-02-03 }\nstreams: [news, event]\nsources:\n${NEWS("news.jsonl")}${EVENTS("events.jsonl")}`,
    );
    const cache = join(dir, "cache");
    await expect(ensureRecipeWorldAsync(loadRecipe(f), { cacheDir: cache })).rejects.toThrow(
      /sources\.1 \(events\): the events data spans 2026-02-01T00:00:00Z → 2026-02-05T00:00:00Z, outside the recipe's window/,
    );
    expect(cacheEntries(cache)).toEqual([]);
  });
});

const RAW_DIR = process.env.RELIVE_RAW_DIR ?? DEFAULT_RAW;
const FB = join(RAW_DIR, "forecastbench");
const DUE = "2026-01-04";
const QS = join(FB, `${DUE}-llm.json`);
const RS = join(FB, `${DUE}_resolution_set.json`);
const fbPresent = existsSync(QS) && existsSync(RS);
if (!fbPresent) console.warn(`skipping ForecastBench + news composition: set ${DUE} not found under ${FB}`);

describe.skipIf(!fbPresent)("ForecastBench 2026-01-04 composed with JSONL news", () => {
  it("open-forecast's base-rate-news reads the attached news: pinned, and unlike the run without news", async () => {
    const dir = tmp("fb-news");
    const sim_start = `${DUE}T00:00:00Z`;
    const sim_end = new Date(Date.parse(sim_start) + 9 * DAY).toISOString();
    // the questions world alone, to choose the news' topics from its questions
    const alone = join(dir, "alone");
    buildForecastBenchWorld({ questionSet: QS, resolutionSet: RS }, alone, { name: `forecastbench-${DUE}` });
    const db = new Database(join(alone, "world.db"), { readonly: true });
    const qs = db
      .prepare(
        "SELECT id, title FROM question WHERE answer_type = 'binary' AND resolve < ? AND id NOT IN (SELECT id FROM market) ORDER BY id LIMIT 12",
      )
      .all(Date.parse(sim_end)) as { id: string; title: string }[];
    db.close();
    expect(qs.length).toBe(12);
    // one article a question, the day after the due date, naming its key words with a strong cue
    const lines = qs
      .filter((q) => searchQuery(q.title) !== "")
      .map((q, i) => newsLine(i, `${DUE}T12:00:00Z`, `${searchQuery(q.title)}: officials confirms it goes ahead`));
    mkdirSync(join(dir, "data"));
    writeFileSync(join(dir, "data", "fb-news.jsonl"), `${lines.join("\n")}\n`);
    const f = join(dir, "fb-news.yaml");
    writeFileSync(
      f,
      `recipe: 1
name: forecastbench-${DUE}-with-news
data_dir: data
streams: [question, question_resolution, news]
sources:
  - { importer: news-jsonl, files: [fb-news.jsonl] }
  - { importer: forecastbench, questions: ${QS}, resolutions: ${RS} }
`,
    );
    const w = await ensureRecipeWorldAsync(loadRecipe(f), { cacheDir: join(dir, "cache") });
    expect(w.manifest.streams.news).toBe(lines.length);
    // the news lies inside the set's window: the composed world keeps the set's window
    expect(w.manifest.window).toEqual(readWindow(alone));
    const score = async (world: string) => {
      const r = (
        await run({
          task: "open-forecast",
          world: { dir: world },
          sim_start,
          sim_end,
          agent: { model: "scripted:base-rate-news" },
        })
      ).results;
      return [r.performance.questions_scored, r.performance.primary.value];
    };
    const withNews = await score(w.dir);
    const without = await score(alone);
    expect(without).toEqual([236, 11800]); // as test/tasks/open-forecast/forecastbench-real.test.ts pins
    expect(withNews).toEqual([236, PINNED_WITH_NEWS]);
    expect(withNews).not.toEqual(without);
  }, 900_000);
});

// the 12 articles push their questions to ~0.97 Yes; most resolved No, so the score falls: news is read
const PINNED_WITH_NEWS = 2608.430457142857;

const readWindow = (world: string): { start: number; end: number } =>
  JSON.parse(readFileSync(join(world, "world.json"), "utf8")).window;
