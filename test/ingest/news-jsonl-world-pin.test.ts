import { createHash } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { SplitMix32 } from "../../src/common/random.js";
import { importNewsJsonl } from "../../src/ingest/news-jsonl.js";
import { WorldStore } from "../../src/world/world-store.js";
import { workDir } from "../world/world-fixtures.js";

/**
 * Pins the exact world an import builds (manifest hash, every row of every table of world.db and
 * truth.db, FTS and hybrid search results), so a faster importer or vector build must give
 * byte-identical content. Two sizes: below the streamed/parallel FTS threshold and across two
 * news-vector blocks (65,536 rows each) with bad rows, duplicates, non-ASCII and CRLF lines.
 */
const work = workDir("relive-ingest-pin-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const WORDS = (
  "oil rates bank storm election market growth inflation court vote energy climate trade " +
  "the of and a to in is central holds prices jumped policy shares fell rose week report " +
  "naïve café Zürich Ölpreis 東京 crisis talks deal strike data"
).split(" ");

function jsonl(n: number, seed: number): string {
  const rng = new SplitMix32(seed);
  const pick = () => WORDS[Math.floor(rng.next() * WORDS.length)] as string;
  const words = (k: number) => Array.from({ length: k }, pick).join(" ");
  const lines: string[] = [];
  const t0 = Date.UTC(2025, 0, 1);
  for (let i = 0; i < n; i++) {
    const t = t0 + i * 60_000 + Math.floor(rng.next() * 3_600_000) - 1_800_000;
    const r = rng.next();
    if (r < 0.002) lines.push("{broken json");
    else if (r < 0.004)
      lines.push(JSON.stringify({ url: `ftp://x.test/${i}`, title: "t", text: "x", published_at: t }));
    else if (r < 0.006 && i > 0)
      lines.push(JSON.stringify({ url: `https://dup.test/${i - 1}`, title: "d", text: "d", published_at: t }));
    else {
      const row: Record<string, unknown> = {
        url: `https://${i % 7 === 0 ? "www." : ""}site${i % 13}.test/${i}`,
        title: words(1 + (i % 6)),
        published_at: i % 3 === 0 ? new Date(t).toISOString() : i % 3 === 1 ? Math.floor(t / 1000) : t,
      };
      row[i % 5 === 0 ? "body" : "text"] = words(5 + (i % 23));
      if (i % 11 === 0) row.id = `id-${i}`;
      lines.push(JSON.stringify(row));
    }
    if (i % 97 === 0) lines.push("");
  }
  // CRLF endings on the first half of the file
  return `${lines.slice(0, n >> 1).join("\r\n")}\r\n${lines.slice(n >> 1).join("\n")}\n`;
}

/** sha256 over every row of every table (schema order by name, rows by rowid or all columns). */
function dbDigest(path: string): string {
  const db = new Database(path, { readonly: true });
  const h = createHash("sha256");
  const tables = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type IN ('table','index','view','trigger') ORDER BY name")
    .all() as { name: string; sql: string | null }[];
  for (const t of tables) {
    h.update(`${t.name}\u0001${t.sql ?? ""}\u0002`);
    const isTable = db.prepare("SELECT type FROM sqlite_master WHERE name = ?").pluck().get(t.name) === "table";
    if (!isTable || (t.sql ?? "").startsWith("CREATE VIRTUAL")) continue;
    const cols = (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(t.name) as string[])
      .map((c) => `"${c}"`)
      .join(", ");
    for (const row of db.prepare(`SELECT ${cols} FROM "${t.name}" ORDER BY ${cols}`).raw().iterate()) {
      for (const v of row as unknown[])
        h.update(Buffer.isBuffer(v) ? Buffer.concat([Buffer.from("b"), v]) : `${typeof v}:${String(v)}\u0003`);
      h.update("\u0004");
    }
  }
  db.close();
  return h.digest("hex");
}

async function importPinned(n: number, seed: number) {
  const file = join(work, `news-${n}.jsonl`);
  writeFileSync(file, jsonl(n, seed));
  const dir = join(work, `w-${n}`);
  const res = await importNewsJsonl([file], dir, { name: "pin" });
  const w = WorldStore.open(dir);
  const end = res.manifest.window.end;
  const fts = w
    .at(() => end)
    .news.search("oil OR storm", { limit: 20 })
    .hits.map((x) => x.id);
  const hybrid = w
    .at(() => end)
    .news.hybridSearch("central bank rates", { limit: 20 })
    .hits.map((x) => x.id);
  w.close();
  return {
    accepted: res.accepted,
    rejected: res.rejected.length,
    hash: res.manifest.hash,
    world: dbDigest(join(dir, "world.db")),
    truth: dbDigest(join(dir, "truth.db")),
    fts: createHash("sha256").update(fts.join(",")).digest("hex").slice(0, 16),
    hybrid: createHash("sha256").update(hybrid.join(",")).digest("hex").slice(0, 16),
  };
}

describe("importNewsJsonl: pinned world content", () => {
  it("a small import (FTS built after the load)", async () => {
    expect(await importPinned(400, 1)).toEqual({
      accepted: 397,
      rejected: 3,
      hash: "2ea9f6a9b3b9577a43a6275e97ecc4df1a17aa11c56b1c71c5ef2310e458503f",
      world: "9c9470f71d041ffe584307bba6674e422c50f41c1fe49d47a902307dbd994c4d",
      truth: "2418ea50c6c31767a103939b27a7eac878797dcf72ac9b63597cf272070d7595",
      fts: "2176982c14938055",
      hybrid: "dff230ab93dcef76",
    });
  });
  it("70,000 lines across two vector blocks (streamed FTS, parallel paths)", { timeout: 900_000 }, async () => {
    expect(await importPinned(70_000, 2)).toEqual({
      accepted: 69726,
      rejected: 274,
      hash: "1a36e430398f327361de5dac8f19f3fcf8721fac5f2c29afb361ca7632477f8f",
      world: "1f70d27a42b81def01e8e3acfc89201e79768bf797fbde26857c92aebc7b8c40",
      truth: "2418ea50c6c31767a103939b27a7eac878797dcf72ac9b63597cf272070d7595",
      fts: "9e04d5b81e749bf0",
      hybrid: "eb10aa837d660b3f",
    });
  });
});
