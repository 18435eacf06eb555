import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { SplitMix32 } from "../../src/common/random.js";
import { ftsIndexTextFast } from "../../src/world/fts-build.js";
import { NewsIndexBuilder } from "../../src/world/news-index-build.js";
import { NewsIndexJob } from "../../src/world/news-index-parallel.js";
import type { NewsRow } from "../../src/world/types.js";
import { WorldBuilder } from "../../src/world/world-builder.js";
import { workDir } from "./world-fixtures.js";

const work = workDir("relive-news-index-parallel-");
afterAll(() => rmSync(work, { recursive: true, force: true }));
let k = 0;
const fresh = (name: string) => join(work, `${name}-${k++}`);

const VOCAB = (
  "storm rates oil bank election market growth inflation court vote energy climate trade central holds " +
  "prices jumped policy shares fell rose week report naïve café Zürich Ölpreis 東京 ＫＯ ﬁnance 2025 " +
  "running runs ran the of and a to in is"
).split(" ");

function texts(n: number, seed: number): { title: string[]; body: string[] } {
  const rng = new SplitMix32(seed);
  const words = (m: number) =>
    Array.from({ length: m }, () => VOCAB[Math.floor(rng.next() * VOCAB.length)] as string).join(" ");
  const title: string[] = [];
  const body: string[] = [];
  for (let i = 0; i < n; i++) {
    // some empty titles and bodies, and words only seen late (new words in later batches)
    title.push(i % 17 === 0 ? "" : `${words(1 + (i % 5))} w${Math.floor(i / 300)}`);
    body.push(i % 23 === 0 ? "" : `${words(3 + (i % 19))}, item-${i % 97}; v${i}`);
  }
  return { title, body };
}

/** Every row (rowid included) of every index table and the index's world_meta rows. */
function dump(db: Database.Database): unknown {
  return {
    postings: db.prepare("SELECT rowid, * FROM news_postings ORDER BY rowid").raw().all(),
    doclen: db.prepare("SELECT rowid, * FROM news_doclen ORDER BY rowid").raw().all(),
    positions: db.prepare("SELECT rowid, * FROM news_positions ORDER BY rowid").raw().all(),
    vectors: db.prepare("SELECT name FROM sqlite_master WHERE name = 'news_vec'").get()
      ? [
          db.prepare("SELECT rowid, * FROM news_vec ORDER BY rowid").raw().all(),
          db.prepare("SELECT rowid, * FROM news_vec_scale ORDER BY rowid").raw().all(),
        ]
      : null,
    meta: db.prepare("SELECT rowid, key, value FROM world_meta ORDER BY rowid").raw().all(),
    tables: db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid").raw().all(),
  };
}

type Feed = Pick<NewsIndexBuilder, "addBatch" | "write">;
const META_DDL = "CREATE TABLE world_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)";

function writeWith(feed: Feed, n: number): unknown {
  const { title, body } = texts(n, 5);
  const batch = 700;
  for (let i = 0; i < n; i += batch) {
    const seq = Array.from({ length: Math.min(batch, n - i) }, (_, j) => i + j + 1);
    feed.addBatch(seq, title.slice(i, i + batch).map(ftsIndexTextFast), body.slice(i, i + batch).map(ftsIndexTextFast));
  }
  // a file: the worker writes into it through its own connection
  const db = new Database(`${fresh("index")}.db`);
  db.exec(META_DDL);
  db.prepare("INSERT INTO world_meta (key, value) VALUES ('before', 'x')").run();
  feed.write(db, n);
  const out = dump(db);
  db.close();
  return out;
}

describe("NewsIndexJob (the news index on a worker thread)", () => {
  it("writes exactly the tables of an in-thread NewsIndexBuilder (rowids and meta order included)", () => {
    const n = 6000;
    const local = writeWith(new NewsIndexBuilder(), n);
    const job = new NewsIndexJob(1000);
    let sawThread = false;
    const parallel = writeWith(
      {
        addBatch: (seq, title, body) => {
          job.addBatch(seq, title, body);
          sawThread ||= job.parallel;
        },
        write: (db, docs) => job.write(db, docs),
      },
      n,
    );
    expect(sawThread).toBe(true);
    expect((local as { postings: unknown[] }).postings.length).toBeGreaterThan(500);
    expect(parallel).toEqual(local);
    // below its threshold the job never starts a thread and builds the same index here
    const held = new NewsIndexJob(1e9);
    expect(writeWith(held, n)).toEqual(local);
  });

  it("throws the worker's error by the next call and writes nothing", () => {
    const job = new NewsIndexJob(1);
    job.addBatch([2], ["storm"], ["rates"]); // seq must start at 1
    const db = new Database(`${fresh("index")}.db`);
    db.exec(META_DDL);
    expect(() => job.write(db, 1)).toThrow(/news index build failed: news index: seq 2 after 0/);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'news_postings'").pluck().get()).toBe(0);
    db.close();
  });

  it("an error while the worker writes into the database is thrown with its message, and the worker is stopped", () => {
    const job = new NewsIndexJob(1);
    const { title, body } = texts(50, 3);
    job.addBatch(
      title.map((_, i) => i + 1),
      title.map(ftsIndexTextFast),
      body.map(ftsIndexTextFast),
    );
    const path = `${fresh("index")}.db`;
    const db = new Database(path);
    db.exec(META_DDL);
    rmSync(path); // the worker opens the file by its path (it must exist): gone
    expect(() => job.write(db, 50)).toThrow(/news index build failed: .*unable to open database file/);
    expect(job.parallel).toBe(false);
    db.close();
  });

  it("a world built with the index worker equals one built without (streamed, fallback and after-load FTS)", () => {
    const META = { name: "t", window: { start: 0, end: 100_000_000 }, builder: "test", builder_version: "1" };
    const { title, body } = texts(2500, 9);
    const row = (i: number, t: number): NewsRow => ({
      id: `n${String(i).padStart(5, "0")}`,
      url: `https://x.test/${i}`,
      domain: "x.test",
      title: title[i] as string,
      text: body[i] as string,
      published_at: t,
      visible_at: t,
    });
    const ordered = Array.from({ length: 2500 }, (_, i) => row(i, 1000 * Math.floor(i / 3) + ((i * 7919) % 13) * 1000));
    const reversed = Array.from({ length: 2500 }, (_, i) => row(i, 90_000_000 - i * 1000));
    for (const [rows, streamNewsFts] of [
      [ordered, true],
      [reversed, true],
      [ordered, false],
    ] as const) {
      const build = (parallelIndexMinRows: number) => {
        const dir = fresh("w");
        const b = WorldBuilder.create(dir, META, { streamNewsFts, parallelFtsMinRows: 1, parallelIndexMinRows });
        for (let i = 0; i < rows.length; i += 1000) b.insert("news", rows.slice(i, i + 1000));
        const hash = b.finish().hash;
        const db = new Database(join(dir, "world.db"), { readonly: true });
        const out = { hash, index: dump(db) };
        db.close();
        return out;
      };
      const a = build(1e9);
      expect(build(1)).toEqual(a);
    }
  }, 900_000);
});
