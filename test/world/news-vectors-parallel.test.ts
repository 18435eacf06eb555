import { createHash } from "node:crypto";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { getEmbedder } from "../../src/world/embedder.js";
import { HASHING_EMBEDDER_ID } from "../../src/world/embedder-hashing.js";
import { NewsVectorsJob } from "../../src/world/news-vectors-parallel.js";
import type { NewsRow } from "../../src/world/types.js";
import { WorldBuilder } from "../../src/world/world-builder.js";
import { workDir } from "./world-fixtures.js";

const work = workDir("relive-vec-par-");
afterAll(() => rmSync(work, { recursive: true, force: true }));
const META = { name: "t", window: { start: 0, end: 10_000_000 }, builder: "test", builder_version: "1" };
const WORDS = "storm rates oil bank vote court trade energy naïve café growth the of deal".split(" ");
/** three vector chunks (8,192 rows each), the last one partial */
const ROWS = 17_000;

function rows(): NewsRow[] {
  return Array.from({ length: ROWS }, (_, i) => ({
    id: `n${i}`,
    url: `https://x.test/${i}`,
    domain: "x.test",
    title: `${WORDS[i % 14]} ${WORDS[(i * 7) % 15]}`,
    text: i % 500 === 0 ? "" : `${WORDS[(i * 3) % 15]} ${WORDS[(i * 5) % 13]} ${WORDS[(i * 11) % 15]} item${i % 97}`,
    published_at: 1000 + ((i * 7919) % ROWS) * 100,
    visible_at: 1000 + ((i * 7919) % ROWS) * 100,
  }));
}

function vecDigest(dir: string): string {
  const db = new Database(join(dir, "world.db"), { readonly: true });
  const h = createHash("sha256");
  for (const r of db.prepare("SELECT key, data FROM news_vec ORDER BY key").raw().iterate())
    h.update(String((r as unknown[])[0])).update((r as unknown[])[1] as Buffer);
  for (const r of db.prepare("SELECT block, data FROM news_vec_scale ORDER BY block").raw().iterate())
    h.update(String((r as unknown[])[0])).update((r as unknown[])[1] as Buffer);
  for (const r of db
    .prepare("SELECT key, value FROM world_meta WHERE key LIKE 'news_vec%' ORDER BY key")
    .raw()
    .iterate())
    h.update((r as unknown[]).join("="));
  db.close();
  return h.digest("hex");
}

/** with `vectorsFromIndex` false: the texts embedded again (this thread or vector workers) */
let builds = 0;
function build(vectorWorkers: number, vectorsFromIndex = false, parallelIndexMinRows?: number) {
  const dir = join(work, `w${builds++}`);
  const b = WorldBuilder.create(dir, META, {
    vectorWorkers,
    parallelVectorsMinRows: 1,
    vectorsFromIndex,
    ...(parallelIndexMinRows === undefined ? {} : { parallelIndexMinRows, parallelFtsMinRows: 1 }),
  });
  const all = rows();
  for (let i = 0; i < all.length; i += 5000) b.insert("news", all.slice(i, i + 5000));
  const manifest = b.finish();
  return { hash: manifest.hash, vec: vecDigest(dir), workerPath: "news_vectors_join" in b.finishTimings };
}

describe("news vectors built by worker threads", () => {
  it("give the same bytes as the main-thread build for 1, 2 and 3 workers", { timeout: 900_000 }, () => {
    const main = build(0);
    expect(main.workerPath).toBe(false);
    for (const n of [1, 2, 3]) {
      const w = build(n);
      expect(w.workerPath).toBe(true);
      expect({ hash: w.hash, vec: w.vec }).toEqual({ hash: main.hash, vec: main.vec });
    }
  });

  it("built from the news index's words (the default), they are the same bytes as embedding the texts", () => {
    const embedded = build(0);
    // the index (and so the vectors) built on this thread, then by the index worker
    for (const fromIndex of [build(2, true), build(2, true, 1)]) {
      expect(fromIndex.workerPath).toBe(false);
      expect({ hash: fromIndex.hash, vec: fromIndex.vec }).toEqual({ hash: embedded.hash, vec: embedded.vec });
    }
  });

  it("a worker's error is thrown with its message and leaves no world and no temp dir", { timeout: 900_000 }, () => {
    const real = NewsVectorsJob.start.bind(NewsVectorsJob);
    const spy = vi
      .spyOn(NewsVectorsJob, "start")
      .mockImplementation((_path, embedder, n, workers) =>
        real(join(work, "missing", "world.db"), embedder, n, workers),
      );
    try {
      const dir = join(work, "failing");
      const b = WorldBuilder.create(dir, META, {
        vectorWorkers: 2,
        parallelVectorsMinRows: 1,
        vectorsFromIndex: false,
      });
      b.insert("news", rows().slice(0, 9000));
      expect(() => b.finish()).toThrow(/news vectors: a worker failed: .*(unable to open|does not exist)/);
      b.abort();
      expect(existsSync(dir)).toBe(false);
      expect(readdirSync(work).filter((f) => f.startsWith("failing"))).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it("refuses an embedder a worker cannot rebuild from its id", () => {
    const custom = { ...getEmbedder(HASHING_EMBEDDER_ID), id: "custom-test-embedder" };
    expect(NewsVectorsJob.supports(custom)).toBe(false);
    expect(() => NewsVectorsJob.start(join(work, "x.db"), custom, 10, 1)).toThrow(/cannot run in a worker thread/);
  });
});
