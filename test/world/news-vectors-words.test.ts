import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashingEmbedder } from "../../src/world/embedder-hashing.js";
import { ftsIndexTextFast } from "../../src/world/fts-build.js";
import { NewsIndexBuilder } from "../../src/world/news-index-build.js";
import { embedRows } from "../../src/world/news-vectors.js";

/** The vectors a `NewsIndexBuilder` with `vectors` writes for these articles (one block: fewer than 65,536 rows). */
function fromWords(rows: { title: string; text: string }[], batch: number): { q: Buffer[]; scale: Buffer } {
  const b = new NewsIndexBuilder({ vectors: true });
  for (let i = 0; i < rows.length; i += batch) {
    const part = rows.slice(i, i + batch);
    b.addBatch(
      part.map((_, j) => i + j + 1),
      part.map((r) => ftsIndexTextFast(r.title)),
      part.map((r) => ftsIndexTextFast(r.text)),
    );
  }
  const db = new Database(":memory:");
  db.exec("CREATE TABLE world_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  b.write(db, rows.length);
  const q = db.prepare("SELECT data FROM news_vec ORDER BY key").pluck().all() as Buffer[];
  const scale = db.prepare("SELECT data FROM news_vec_scale WHERE block = 0").pluck().get() as Buffer;
  const meta = db.prepare("SELECT value FROM world_meta WHERE key = 'news_vec_rows'").pluck().get();
  db.close();
  expect(meta).toBe(String(rows.length));
  return { q, scale };
}

/** What `buildNewsVectors` stores for them: the embedder over `title + "\n" + text`, quantized by `embedRows`. */
function embedded(rows: { title: string; text: string }[]): { q: Buffer[]; scale: Buffer } {
  const { q, scale } = embedRows(hashingEmbedder(), rows);
  const n = rows.length;
  const cols: Buffer[] = [];
  for (let j = 0; j < 256; j++) cols.push(Buffer.from(q.buffer, q.byteOffset + j * n, n));
  return { q: cols, scale: Buffer.from(scale.buffer, scale.byteOffset, scale.byteLength) };
}

// words and separators that exercise every rule: stopwords, plural "s" (and ss/us/is), digits,
// case, non-ASCII letters and marks, final sigma, the Kelvin sign (lowercases to ASCII "k"),
// dotted capital I, ligatures, CJK, astral characters, newlines
const WORD = fc.oneof(
  fc.constantFrom("the", "Banks", "rates", "of", "class", "status", "bus", "IS", "news", "a1s", "ss", "Rates'"),
  fc.constantFrom(
    "naïve",
    "café",
    "Zürich",
    "ΟΔΟΣ",
    "ΑΣ",
    "σς",
    "\u212Aelvin",
    "İstanbul",
    "ﬁnance",
    "東京",
    "😀s",
    "e\u0301s",
  ),
  fc.stringMatching(/^[A-Za-z0-9]{1,9}$/),
);
const SEP = fc.constantFrom(" ", ", ", ". ", "\n", "-", "'", "  ", "\u00a0", "—");
const TEXT = fc.array(fc.tuple(WORD, SEP), { maxLength: 25 }).map((p) => p.map(([w, s]) => w + s).join(""));

describe("news vectors from the news index's words", () => {
  it("equal the hashing embedder's vectors of title + newline + text, byte for byte", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ title: TEXT, text: TEXT }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 7 }),
        (rows, batch) => {
          expect(fromWords(rows, batch)).toEqual(embedded(rows));
        },
      ),
      { numRuns: 100 },
    );
  });
});
