import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { FTS_REORDER_WINDOW, ftsIndexTextFast } from "../../src/world/fts-build.js";
import { ftsIndexText } from "../../src/world/fts-text.js";
import type { NewsRow } from "../../src/world/types.js";
import { WorldBuilder } from "../../src/world/world-builder.js";
import { WorldStore } from "../../src/world/world-store.js";
import { newsIndexDump, workDir } from "./world-fixtures.js";

const work = workDir("relive-fts-stream-");
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(work, `w${n++}`);
const META = { name: "t", window: { start: 0, end: 10_000_000 }, builder: "test", builder_version: "1" };
const WORDS = ["storm", "rates", "Oil", "bank", "the", "of", "élan", "ＫＯ", "K", "2025", "naïve", "AND"];
const ASCII_WORDS = [
  "the",
  "The",
  "THE",
  "them",
  "theme",
  "of",
  "Of",
  "a",
  "A",
  "I",
  "is",
  "isn",
  "s",
  "t",
  "don",
  "bank",
];
ASCII_WORDS.push("Rates", "2025", "x1", "a1", "ourselves", "ourselve", "WOULDN", "wouldnt", "y", "yy", "z");

function article(i: number, t: number): NewsRow {
  const w = (k: number) => WORDS[(i * k) % WORDS.length] as string;
  return {
    id: `n${String(i).padStart(5, "0")}`,
    url: `https://x.test/${i}`,
    domain: "x.test",
    title: `${w(3)} ${w(5)}`,
    text: `${w(7)}, ${w(11)}; ${w(13)} item-${i}`,
    published_at: t,
    visible_at: t,
  };
}

/** Builds a world from `rows` and returns its manifest hash, full FTS content, a search and the build stages. */
function build(rows: NewsRow[], streamNewsFts: boolean) {
  const dir = fresh();
  const b = WorldBuilder.create(dir, META, { streamNewsFts });
  for (let i = 0; i < rows.length; i += 1000) b.insert("news", rows.slice(i, i + 1000));
  const manifest = b.finish();
  expect(readdirSync(dir).sort()).toEqual(["truth.db", "world.db", "world.json"]);
  const w = WorldStore.open(dir);
  w.db.exec("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, news_fts, 'instance')");
  const vocab = w.db.prepare("SELECT term, doc, col, offset FROM temp.v ORDER BY term, doc, col, offset").raw().all();
  const index = newsIndexDump(w.db);
  const hits = w
    .at(() => 5_000_000)
    .news.search("storm OR rates", { limit: 50 })
    .hits.map((h) => h.id);
  w.close();
  const rw = new Database(join(dir, "world.db"));
  rw.exec("INSERT INTO news_fts (news_fts, rank) VALUES ('integrity-check', 0)");
  rw.close();
  return { hash: manifest.hash, vocab, index, hits, stages: Object.keys(b.finishTimings) };
}

describe("ftsIndexTextFast", () => {
  it("equals ftsIndexText on any text", () => {
    const chars = fc.constantFrom(..."aZ09 .,-'\n\tÉéİıK\u212aß\u00a0日本\ud83d\ude00ｋﬁ".split(""));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(chars).map((a) => a.join("")),
          fc.array(fc.constantFrom(...WORDS)).map((a) => a.join(" ")),
          // pure ASCII (the fast path): stopwords in any case, words that start or end like one, digits
          fc
            .array(
              fc.tuple(fc.constantFrom(...ASCII_WORDS), fc.constantFrom(" ", ", ", ".", "-", "'", "\n", "  ", "_")),
            )
            .map((a) => a.map(([w, sep]) => w + sep).join("")),
        ),
        (s) => {
          expect(ftsIndexTextFast(s)).toBe(ftsIndexText(s));
        },
      ),
      { numRuns: 2000 },
    );
    expect(ftsIndexTextFast("The Bank of England's RATES, 2025!")).toBe("bank england rates 2025");
  });
});

describe("streamed news FTS build", () => {
  it("gives the same world as the after-load build for nearly ordered input (index adopted)", () => {
    // chronological with local disorder smaller than the reorder window, and equal visible_at ties
    const rows = Array.from({ length: 3 * FTS_REORDER_WINDOW + 77 }, (_, i) =>
      article(i, 1000 * Math.floor(i / 3) + ((i * 7919) % 13) * 1000),
    );
    const a = build(rows, false);
    const b = build(rows, true);
    expect(b.stages).toContain("fts_stream_adopt");
    expect(b.stages).not.toContain("fts_insert");
    expect(b.hash).toBe(a.hash);
    expect(b.vocab.length).toBeGreaterThan(10_000);
    expect(b.vocab).toEqual(a.vocab);
    // the relive news index fed by the stream equals the one built after the load
    expect(b.index.postings.length).toBeGreaterThan(100);
    expect(b.index).toEqual(a.index);
    expect(b.hits).toEqual(a.hits);
    expect(a.hits).toHaveLength(50);
  });

  it("falls back to the after-load build when rows arrive out of order, with the same result", () => {
    const rows = Array.from({ length: 2 * FTS_REORDER_WINDOW + 500 }, (_, i) => article(i, 10_000_000 - i * 1000));
    const a = build(rows, false);
    const b = build(rows, true);
    expect(b.stages).toContain("fts_stream_adopt");
    expect(b.stages).toContain("fts_insert");
    expect(b.hash).toBe(a.hash);
    expect(b.index).toEqual(a.index);
    expect(b.vocab).toEqual(a.vocab);
    expect(b.hits).toEqual(a.hits);
  });

  it("starts its worker under a parent run with --input-type=module (the worker must not inherit it)", () => {
    const builder = pathToFileURL(resolve(import.meta.dirname, "../../src/world/world-builder.ts")).href;
    const dir = fresh();
    const script = `
      const { WorldBuilder } = await import(${JSON.stringify(builder)});
      const b = WorldBuilder.create(${JSON.stringify(dir)}, ${JSON.stringify(META)}, { streamNewsFts: true });
      b.insert("news", [{ id: "a", url: "https://x.test/a", domain: "x.test", title: "storm", text: "rates",
        published_at: 5, visible_at: 5 }]);
      console.log("hash", b.finish().hash);`;
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^hash [0-9a-f]{64}\n$/);
  }, 900_000);

  it("leaves nothing behind when the build is aborted mid-stream", () => {
    const dir = fresh();
    const b = WorldBuilder.create(dir, META, { streamNewsFts: true });
    b.insert("news", [article(1, 5), article(2, 6)]);
    expect(() => b.insert("news", [article(3, 7), article(1, 8)])).toThrow(/duplicate value/);
    b.abort();
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(b.tmpDir)).toBe(false);
  });
});
