import type { AsOfView } from "./as-of-view.js";
import { makeSnippet } from "./snippet.js";
import type { ViewBackend } from "./sqlite-as-of-view.js";

/** reciprocal-rank-fusion constant: a hit at rank r in a list adds 1 / (RRF_K + r) */
export const RRF_K = 60;
/** candidates taken from each list before fusing (more when offset + limit needs more) */
export const HYBRID_CANDIDATES = 50;
const MAX_DEPTH = 100;

type HybridResult = ReturnType<AsOfView["news"]["hybridSearch"]>;
/** The view's BM25 ranking alone (seqs best first, the as-of bound inside its query; same errors as search). */
export type Bm25Rank = (
  q: string,
  opts: { from?: number; to?: number; limit: number },
) => { ranked: { seq: number }[]; to: number; terms: string[] };

function checkInt(name: string, v: number, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new RangeError(`${name} must be an integer in [${min}, ${max}], got ${String(v)}`);
  }
  return v;
}

/**
 * The news_order seq range holding exactly the articles visible at `now` with published_at in
 * [from, to] (`to` already ≤ now), plus the seqs inside the range to leave out. seq is monotone in
 * visible_at, so "visible now" is `seq <= hi`. When every article has published_at == visible_at
 * the published bounds are seq bounds too; otherwise the range is widened by the world's recorded
 * lags and the few articles near its edges whose published_at falls outside [from, to] are listed
 * in `skip` (found through the visible_at index: only the lag-wide edge windows are read).
 */
export function visibleSeqRange(
  b: ViewBackend,
  now: number,
  to: number,
  from: number | null,
): { lo: number; hi: number; skip: Set<number> } | null {
  const maxSeq = (t: number) =>
    (
      b
        .stmt("SELECT seq FROM news_order WHERE visible_at <= @t ORDER BY visible_at DESC, seq DESC LIMIT 1")
        .get({ t }) as { seq: number } | undefined
    )?.seq ?? null;
  const minSeq = (t: number) =>
    (
      b.stmt("SELECT seq FROM news_order WHERE visible_at >= @t ORDER BY visible_at, seq LIMIT 1").get({ t }) as
        | { seq: number }
        | undefined
    )?.seq ?? null;
  const pv = b.newsLagPubOverVis;
  const vp = b.newsLagVisOverPub;
  const exact = pv === 0 && vp === 0;
  const hiVis = Math.min(now, exact ? to : to + vp);
  const hi = maxSeq(hiVis);
  if (hi === null) return null;
  const lo = from === null ? 1 : minSeq(exact ? from : from - pv);
  if (lo === null || lo > hi) return null;
  const skip = new Set<number>();
  if (!exact) {
    const edge = b.stmt(
      "SELECT seq FROM news_order WHERE visible_at > @a AND visible_at <= @b AND published_at > @to AND seq BETWEEN @lo AND @hi",
    );
    for (const r of edge.all({ a: to - pv, b: hiVis, to, lo, hi }) as { seq: number }[]) skip.add(r.seq);
    if (from !== null) {
      const low = b.stmt(
        "SELECT seq FROM news_order WHERE visible_at >= @a AND visible_at < @b AND published_at < @from AND seq BETWEEN @lo AND @hi",
      );
      for (const r of low.all({ a: from - pv, b: from + vp, from, lo, hi }) as { seq: number }[]) skip.add(r.seq);
    }
  }
  return { lo, hi, skip };
}

/**
 * Hybrid news search (spec/data.md, Search): the BM25 top list of the view's own search and the
 * vector top list of the world's news vectors over the same as-of range, fused by reciprocal rank
 * (score = Σ 1 / (60 + rank)); ties by news_order seq (older first). Both lists are filtered by
 * date before they are ranked, so k results are filled from the visible past whenever k visible
 * articles match either list. Vector matches need a positive similarity.
 */
export function hybridSearch(
  b: ViewBackend,
  bm25: Bm25Rank,
  now: number,
  q: string,
  opts: { from?: number; to?: number; offset?: number; limit?: number; queryVector?: Float32Array },
): HybridResult {
  const limit = checkInt("limit", opts.limit ?? 10, 1, MAX_DEPTH);
  const offset = checkInt("offset", opts.offset ?? 0, 0, MAX_DEPTH - 1);
  const vectors = b.newsVectors?.() ?? null;
  if (vectors === null)
    throw new Error("this world has no news vectors for hybrid search: rebuild it (worlds built now include them)");
  const depth = Math.min(MAX_DEPTH, Math.max(HYBRID_CANDIDATES, offset + limit));
  const base = {
    ...(opts.from !== undefined ? { from: opts.from } : {}),
    ...(opts.to !== undefined ? { to: opts.to } : {}),
  };
  // the BM25 list validates the query and the bounds (same errors as search)
  const lexical = bm25(q, { ...base, limit: depth });
  const to = lexical.to;
  const range = visibleSeqRange(b, now, to, opts.from ?? null);
  const qv = opts.queryVector ?? null;
  if (qv !== null && qv.length !== vectors.dim)
    throw new Error(`query vector of ${qv.length} dimensions; the world's vectors have ${vectors.dim}`);
  const vec = range === null ? [] : vectors.topK(qv ?? vectors.embedQuery(q), range.lo, range.hi, depth, range.skip);

  const fused = new Map<number, { score: number; bm25: number | null; vector: number | null }>();
  const add = (seq: number, rank: number, list: "bm25" | "vector") => {
    let e = fused.get(seq);
    if (!e) {
      e = { score: 0, bm25: null, vector: null };
      fused.set(seq, e);
    }
    e.score += 1 / (RRF_K + rank);
    e[list] = rank;
  };
  for (const [i, r] of lexical.ranked.entries()) add(r.seq, i + 1, "bm25");
  for (const [i, v] of vec.entries()) add(v.seq, i + 1, "vector");
  const ranked = [...fused.entries()]
    .sort((x, y) => y[1].score - x[1].score || x[0] - y[0])
    .slice(offset, offset + limit);
  const bySeq = b.stmt(
    "SELECT n.id, n.title, n.domain, n.published_at, n.text FROM news_order o JOIN news n ON n.rid = o.rid" +
      " WHERE o.seq = @seq AND n.visible_at <= @now",
  );
  const hits: HybridResult["hits"] = [];
  for (const [seq, e] of ranked) {
    const row = bySeq.get({ seq, now }) as
      | { id: string; title: string; domain: string; published_at: number; text: string }
      | undefined;
    if (!row) continue;
    hits.push({
      id: row.id,
      title: row.title,
      domain: row.domain,
      published_at: row.published_at,
      snippet: makeSnippet(row.text, lexical.terms),
      bm25_rank: e.bm25,
      vector_rank: e.vector,
    });
  }
  return { hits, capped_to: to };
}
