import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { getEmbedder } from "../../src/world/embedder.js";
import {
  addFeatures,
  addTokenFeatures,
  featureHash,
  HASHING_EMBEDDER_ID,
  hashTokens,
} from "../../src/world/embedder-hashing.js";
import { RRF_K } from "../../src/world/hybrid-search.js";
import { NEWS_VEC_BLOCK } from "../../src/world/news-vectors.js";
import { WorldBuilder } from "../../src/world/world-builder.js";
import { WorldStore } from "../../src/world/world-store.js";
import {
  buildWorld,
  emptyRows,
  prng,
  randomWorld,
  truncate,
  WORDS,
  type WorldRows,
  workDir,
} from "./world-fixtures.js";

const stores: WorldStore[] = [];
const open = (dir: string) => {
  const w = WorldStore.open(dir);
  stores.push(w);
  return w;
};
afterAll(() => {
  for (const w of stores) w.close();
});

/** The stored (dequantized) vector of every news_order seq, read row by row: an independent path to the scan. */
function storedVectors(w: WorldStore): Float32Array[] {
  const dim = getEmbedder(HASHING_EMBEDDER_ID).dim;
  const rows = (w.db.prepare("SELECT count(*) AS n FROM news_order").get() as { n: number }).n;
  const out = Array.from({ length: rows }, () => new Float32Array(dim));
  const scales = w.db.prepare("SELECT block, data FROM news_vec_scale").all() as { block: number; data: Buffer }[];
  const scaleOf = new Map<number, Buffer>(scales.map((s) => [s.block, s.data]));
  for (const r of w.db.prepare("SELECT key, data FROM news_vec").all() as { key: number; data: Buffer }[]) {
    const j = Math.floor(r.key / (1 << 20));
    const block = r.key % (1 << 20);
    const sc = scaleOf.get(block)!;
    for (let i = 0; i < r.data.length; i++) {
      const v = r.data.readInt8(i);
      out[block * NEWS_VEC_BLOCK + i]![j] = v * sc.readFloatLE(4 * i);
    }
  }
  return out;
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);

describe("feature-hashing embedder", () => {
  const e = getEmbedder(HASHING_EMBEDDER_ID);
  it("is deterministic, 256-dimensional and L2-normalized; empty text is the zero vector", () => {
    const [a, b, z] = e.embed(["Central bank raises rates", "Central bank raises rates", "the of and"]);
    expect(e.dim).toBe(256);
    expect([...a!]).toEqual([...b!]);
    expect(dot(a!, a!)).toBeCloseTo(1, 6);
    expect([...z!].every((x) => x === 0)).toBe(true);
    expect(featureHash("bank")).toBe(featureHash("bank"));
    expect(featureHash("bank")).not.toBe(featureHash("banks"));
  });

  it("tokens: lowercase, stopwords dropped, plural s stripped (not ss/us/is)", () => {
    expect(hashTokens("The Banks raised RATES; status of the class analysis")).toEqual([
      "bank",
      "raised",
      "rate",
      "status",
      "class",
      "analysis",
    ]);
    expect(hashTokens("Zürich Banks")).toEqual(["zürich", "bank"]);
  });

  it("the one-scan ASCII path gives exactly the features of the token path", () => {
    const word = fc.oneof(
      fc.constantFrom("the", "Banks", "rates", "of", "class", "status", "bus", "IS", "news", "a1s", "ss"),
      fc.stringMatching(/^[A-Za-z0-9]{1,9}$/),
    );
    const sep = fc.constantFrom(" ", ", ", ". ", "\n", "-", "'", "  ");
    fc.assert(
      // a power-of-two dim (the mask path) and another (the modulo path)
      fc.property(fc.array(fc.tuple(word, sep), { maxLength: 40 }), fc.constantFrom(64, 100), (parts, dim) => {
        const text = parts.map(([w, s]) => w + s).join("");
        const a = new Float32Array(dim);
        const b = new Float32Array(dim);
        addFeatures(a, text);
        addTokenFeatures(b, hashTokens(text));
        expect([...a]).toEqual([...b]);
      }),
      { numRuns: 300, seed: 3 },
    );
  });

  it("similar texts score higher than unrelated ones; shared word pairs add to shared words", () => {
    const [q, near, pair, far] = e.embed([
      "central bank rate cut",
      "the central bank weighs a rate cut",
      "central bank",
      "storm hits the coast",
    ]);
    expect(dot(q!, near!)).toBeGreaterThan(dot(q!, pair!));
    expect(dot(q!, pair!)).toBeGreaterThan(dot(q!, far!));
  });
});

describe("news vectors: exact column scan over the as-of seq range", () => {
  it("topK equals a brute-force ranking of the stored vectors over [lo, hi] minus skip; int8 stays within 0.02 of float cosine", () => {
    const rows = randomWorld(11, false);
    for (let i = 0; i < 300; i++) {
      const r = prng(1000 + i);
      rows.news.push({
        id: `x${i}`,
        url: `https://x.test/${i}`,
        domain: "x.test",
        title: Array.from({ length: 4 }, () => r.pick(WORDS)).join(" "),
        text: Array.from({ length: 20 }, () => r.pick(WORDS)).join(" "),
        published_at: r.int(0, 1000),
        visible_at: 0,
      });
      rows.news[rows.news.length - 1]!.visible_at = rows.news[rows.news.length - 1]!.published_at;
    }
    const dir = join(workDir(), "w");
    buildWorld(dir, rows);
    const w = open(dir);
    const vectors = w.newsVectors()!;
    const stored = storedVectors(w);
    const e = getEmbedder(HASHING_EMBEDDER_ID);
    const texts = w.db
      .prepare("SELECT n.title AS title, n.text AS text FROM news_order o JOIN news n ON n.rid = o.rid ORDER BY o.seq")
      .all() as { title: string; text: string }[];
    const exact = e.embed(texts.map((t) => `${t.title}\n${t.text}`));
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: stored.length }),
        fc.integer({ min: 1, max: stored.length }),
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.integer({ min: 1, max: stored.length }), { maxLength: 10 }),
        (words, a, b, k, skipList) => {
          const q = vectors.embedQuery(words.join(" "));
          const [lo, hi] = [Math.min(a, b), Math.max(a, b)];
          const skip = new Set(skipList);
          const brute = stored
            .map((v, i) => ({ seq: i + 1, score: dot(q, v) }))
            .filter((x) => x.seq >= lo && x.seq <= hi && !skip.has(x.seq) && x.score > 1e-9)
            .sort((x, y) => y.score - x.score || x.seq - y.seq)
            .slice(0, k);
          const got = vectors.topK(q, lo, hi, k, skip);
          expect(got.map((x) => x.seq)).toEqual(brute.map((x) => x.seq));
          for (let i = 0; i < got.length; i++) expect(got[i]!.score).toBeCloseTo(brute[i]!.score, 4);
          for (const x of got) expect(Math.abs(x.score - dot(q, exact[x.seq - 1]!))).toBeLessThan(0.02);
        },
      ),
      { numRuns: 200, seed: 5 },
    );
  });

  it("a world built without an embedder has no vectors and hybrid search says so", () => {
    const rows = emptyRows();
    rows.news.push({ id: "n1", url: "u", domain: "d", title: "bank", text: "bank", published_at: 1, visible_at: 1 });
    const dir = join(workDir(), "w");
    const b = WorldBuilder.create(
      dir,
      { name: "t", window: { start: 0, end: 10 }, builder: "t", builder_version: "1" },
      { newsEmbedder: null },
    );
    b.insert("news", rows.news);
    b.finish();
    const w = open(dir);
    expect(w.newsVectors()).toBeNull();
    expect(() => w.at(() => 5).news.hybridSearch("bank")).toThrow(/no news vectors/);
  });
});

type Hit = ReturnType<ReturnType<WorldStore["at"]>["news"]["hybridSearch"]>["hits"][number];

/** The fused score a hit must have from its two ranks (reciprocal rank fusion, k = 60). */
const fused = (h: Hit) =>
  (h.bm25_rank ? 1 / (RRF_K + h.bm25_rank) : 0) + (h.vector_rank ? 1 / (RRF_K + h.vector_rank) : 0);

describe("hybrid search: date filter before ranking, fused by reciprocal rank, no leakage", () => {
  for (const lagged of [false, true]) {
    it(`${lagged ? "lagged" : "exact"} worlds: hits are visible and in bounds, ordered by fused score, k filled, and equal to the truncated world's`, () => {
      let checked = 0;
      for (let seed = 1; seed <= 12; seed++) {
        const rows: WorldRows = randomWorld(seed, lagged);
        if (rows.news.length === 0) continue;
        const dir = join(workDir(), "full");
        buildWorld(dir, rows);
        const full = open(dir);
        const vectors = full.newsVectors()!;
        const r = prng(seed * 7);
        for (let c = 0; c < 4; c++) {
          const now = r.int(0, 1050);
          const q = Array.from({ length: r.int(1, 3) }, () =>
            r.pick(WORDS.filter((x) => !["the", "of", "and"].includes(x))),
          ).join(" ");
          const o: { from?: number; to?: number; limit: number } = { limit: r.int(1, 30) };
          if (r.next() < 0.4) o.from = r.int(0, 1000);
          if (r.next() < 0.4) o.to = r.int(0, 1100);
          const res = full.at(() => now).news.hybridSearch(q, o);
          const to = Math.min(o.to ?? now, now);
          const byId = new Map(rows.news.map((n) => [n.id, n]));
          for (const h of res.hits) {
            const n = byId.get(h.id)!;
            expect(n.visible_at).toBeLessThanOrEqual(now);
            expect(n.published_at).toBeLessThanOrEqual(to);
            if (o.from !== undefined) expect(n.published_at).toBeGreaterThanOrEqual(o.from);
          }
          for (let i = 1; i < res.hits.length; i++)
            expect(fused(res.hits[i - 1]!)).toBeGreaterThanOrEqual(fused(res.hits[i]!));
          // k filled: every in-bound visible article with a positive similarity is a candidate
          const qv = vectors.embedQuery(q);
          const texts = getEmbedder(HASHING_EMBEDDER_ID);
          const eligible = rows.news.filter(
            (n) =>
              n.visible_at <= now &&
              n.published_at <= to &&
              (o.from === undefined || n.published_at >= o.from) &&
              dot(qv, texts.embed([`${n.title}\n${n.text}`])[0]!) > 0.02,
          ).length;
          expect(res.hits.length).toBeGreaterThanOrEqual(Math.min(o.limit, eligible));
          // leakage: a world built from the rows visible now gives the same vector ranks and, with every candidate
          // on the page, the same hits (BM25 corpus statistics may differ: DESIGN invariant 2)
          const cutDir = join(workDir(), "cut");
          buildWorld(cutDir, truncate(rows, now));
          const cut = open(cutDir);
          const all = { ...o, limit: 100 };
          const a = full.at(() => now).news.hybridSearch(q, all);
          const b = cut.at(() => now).news.hybridSearch(q, all);
          const ranks = (x: typeof a) => new Map(x.hits.map((h) => [h.id, h.vector_rank]));
          expect(ranks(b)).toEqual(ranks(a));
          expect(new Set(b.hits.map((h) => h.id))).toEqual(new Set(a.hits.map((h) => h.id)));
          expect(b.capped_to).toBe(a.capped_to);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(25);
    });
  }

  it("offset pages through the fused list; bad limits and unusable queries give the search errors", () => {
    const dir = join(workDir(), "w");
    buildWorld(dir, randomWorld(3, false));
    const v = open(dir).at(() => 1000);
    const all = v.news.hybridSearch("alpha beta", { limit: 10 }).hits.map((h) => h.id);
    expect(v.news.hybridSearch("alpha beta", { limit: 5, offset: 5 }).hits.map((h) => h.id)).toEqual(all.slice(5, 10));
    expect(() => v.news.hybridSearch("alpha", { limit: 0 })).toThrow(RangeError);
    expect(() => v.news.hybridSearch('"the of"')).toThrow(/SearchQueryError|no usable|search/i);
  });
});
