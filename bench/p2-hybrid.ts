/**
 * The hybrid part of P2 (bench/p2-search.ts calls it on the same 1M-article world and queries):
 * as-of hybrid news search (BM25 and the world's feature-hashing vectors, fused by reciprocal rank)
 * against BM25 alone, side by side per query (the engine that runs first alternates), by the same
 * document-frequency bands, plus a band of 3-term queries (terms from the ≤1% band: the shape of
 * an agent's query, which touches more vector dimensions). Reports p50/p99 per band, the
 * hybrid/BM25 latency ratio, the share of queries returning fewer than k hits although BM25 alone
 * returns k, and what the vectors cost at build time and in memory.
 */
import type { WorldStore } from "../src/world/world-store.js";

export interface HybridQuery {
  band: string;
  term: string;
  now: number;
  from?: number;
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
}

const r3 = (x: number) => Number(x.toFixed(3));

/** mulberry32 (bench-only seeded PRNG) */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function measureHybrid(o: {
  store: WorldStore;
  queries: readonly HybridQuery[];
  /** the ≤1% band's terms, for the 3-term queries */
  narrowTerms: readonly string[];
  bands: readonly string[];
  k: number;
  seed: number;
  /** finish() stage timings of the world build (news_vectors is the vector build) */
  buildStagesMs: Record<string, number>;
  multiTermQueries?: number;
}) {
  const { store, k } = o;
  const vectors = store.newsVectors();
  if (vectors === null) throw new Error("the bench world has no news vectors");
  const rand = rng(o.seed ^ 0x5bd1e995);
  const multi: HybridQuery[] = [];
  const source = o.queries.filter((q) => q.band === "<=1%");
  for (let i = 0; i < (o.multiTermQueries ?? 250) && source.length > 0 && o.narrowTerms.length > 2; i++) {
    const base = source[Math.floor(rand() * source.length)] as HybridQuery;
    const terms = [base.term];
    while (terms.length < 3) terms.push(o.narrowTerms[Math.floor(rand() * o.narrowTerms.length)] as string);
    multi.push({ ...base, band: "3 terms", term: terms.join(" ") });
  }
  const all = [...o.queries, ...multi];
  let now = 0;
  const view = store.at(() => now);
  const opts = (q: HybridQuery) => (q.from === undefined ? { limit: k } : { from: q.from, limit: k });
  const time = (f: () => { hits: unknown[] }) => {
    const s = process.hrtime.bigint();
    const r = f();
    return { ms: Number(process.hrtime.bigint() - s) / 1e6, n: r.hits.length };
  };
  // warm-up: page cache, statement cache, and the vector columns the queries touch
  const w0 = performance.now();
  for (const q of all) {
    now = q.now;
    view.news.hybridSearch(q.term, opts(q));
  }
  const warmS = (performance.now() - w0) / 1e3;
  const hyb = new Map<string, number[]>();
  const bm = new Map<string, number[]>();
  const ratio = new Map<string, number[]>();
  const short = new Map<string, number>();
  const push = (m: Map<string, number[]>, key: string, v: number) => {
    const a = m.get(key);
    if (a) a.push(v);
    else m.set(key, [v]);
  };
  all.forEach((q, i) => {
    now = q.now;
    let h: { ms: number; n: number };
    let b: { ms: number; n: number };
    if (i % 2 === 0) {
      b = time(() => view.news.search(q.term, opts(q)));
      h = time(() => view.news.hybridSearch(q.term, opts(q)));
    } else {
      h = time(() => view.news.hybridSearch(q.term, opts(q)));
      b = time(() => view.news.search(q.term, opts(q)));
    }
    push(hyb, q.band, h.ms);
    push(bm, q.band, b.ms);
    push(ratio, q.band, h.ms / b.ms);
    if (b.n >= k && h.n < k) short.set(q.band, (short.get(q.band) ?? 0) + 1);
  });
  const bands: Record<string, unknown> = {};
  const lines: string[] = [];
  for (const band of [...o.bands, "3 terms"]) {
    const hs = [...(hyb.get(band) ?? [])].sort((x, y) => x - y);
    const bs = [...(bm.get(band) ?? [])].sort((x, y) => x - y);
    const rs = [...(ratio.get(band) ?? [])].sort((x, y) => x - y);
    if (hs.length === 0) continue;
    const e = {
      queries: hs.length,
      hybrid_p50_ms: r3(pct(hs, 0.5)),
      hybrid_p99_ms: r3(pct(hs, 0.99)),
      bm25_p50_ms: r3(pct(bs, 0.5)),
      bm25_p99_ms: r3(pct(bs, 0.99)),
      ratio_of_p50: r3(pct(hs, 0.5) / pct(bs, 0.5)),
      median_per_query_ratio: r3(pct(rs, 0.5)),
      short_share: (short.get(band) ?? 0) / hs.length,
    };
    bands[band] = e;
    lines.push(
      `${band.padEnd(8)} ${String(e.queries).padStart(7)} ${e.hybrid_p50_ms.toFixed(2).padStart(9)} ${e.hybrid_p99_ms.toFixed(2).padStart(9)} ${e.bm25_p50_ms.toFixed(2).padStart(9)} ${e.bm25_p99_ms.toFixed(2).padStart(9)} ${e.ratio_of_p50.toFixed(2).padStart(9)} ${e.median_per_query_ratio.toFixed(2).padStart(8)} ${e.short_share.toFixed(4).padStart(8)}`,
    );
  }
  // vectors built on the main thread have their own stage; built by worker threads, only the main
  // thread's wait for them at the join is recorded; built by the news index builder from its words
  // (the default for the hashing embedder since ingest3), neither stage exists
  const onMain = o.buildStagesMs.news_vectors;
  const join = o.buildStagesMs.news_vectors_join;
  const built =
    onMain !== undefined
      ? `vectors built in ${(onMain / 1e3).toFixed(1)} s`
      : join !== undefined
        ? `vectors built by worker threads beside the index build (main thread waited ${(join / 1e3).toFixed(1)} s at the join)`
        : "vectors built by the news index builder from its words (inside the news index stages)";
  const loaded = store.db.prepare("SELECT count(*) AS n FROM news_vec").get() as { n: number };
  const printed = [
    `relive hybrid (BM25 + ${vectors.embedderId} vectors, reciprocal rank fusion k = 60), limit ${k}; ${built}`,
    "band     queries   hyb p50   hyb p99  bm25 p50  bm25 p99 p50 ratio  q ratio    short",
    ...lines,
  ];
  const result = {
    embedder: vectors.embedderId,
    dim: vectors.dim,
    storage: "int8 column blocks of 65,536 rows + one float32 scale per row (news_vec, news_vec_scale)",
    vector_build_seconds: onMain === undefined ? null : r3(onMain / 1e3),
    vector_join_wait_seconds: join === undefined ? null : r3(join / 1e3),
    vector_blobs: loaded.n,
    warmup_seconds: r3(warmS),
    query:
      "view.news.hybridSearch(q, {from?, limit: k}): BM25 top 50 and vector top 50 over the as-of seq range (filtered before ranking), fused by reciprocal rank (k = 60), vs view.news.search(q, {from?, limit: k})",
    ratio_note: "ratio = hybrid / BM25-only (> 1: hybrid slower); measured side by side per query, order alternating",
    short_share_note: "share of queries returning fewer than k hits although BM25 alone returns k",
    bands,
  };
  return { result, lines: printed };
}
