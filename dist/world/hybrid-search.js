import { makeSnippet } from "./snippet.js";
const RRF_K = 60;
const HYBRID_CANDIDATES = 50;
const MAX_DEPTH = 100;
function checkInt(name, v, min, max) {
  if (!Number.isInteger(v) || v < min || v > max) {
    throw new RangeError(`${name} must be an integer in [${min}, ${max}], got ${String(v)}`);
  }
  return v;
}
function visibleSeqRange(b, now, to, from) {
  const maxSeq = (t) => b.stmt("SELECT seq FROM news_order WHERE visible_at <= @t ORDER BY visible_at DESC, seq DESC LIMIT 1").get({ t })?.seq ?? null;
  const minSeq = (t) => b.stmt("SELECT seq FROM news_order WHERE visible_at >= @t ORDER BY visible_at, seq LIMIT 1").get({ t })?.seq ?? null;
  const pv = b.newsLagPubOverVis;
  const vp = b.newsLagVisOverPub;
  const exact = pv === 0 && vp === 0;
  const hiVis = Math.min(now, exact ? to : to + vp);
  const hi = maxSeq(hiVis);
  if (hi === null) return null;
  const lo = from === null ? 1 : minSeq(exact ? from : from - pv);
  if (lo === null || lo > hi) return null;
  const skip = /* @__PURE__ */ new Set();
  if (!exact) {
    const edge = b.stmt(
      "SELECT seq FROM news_order WHERE visible_at > @a AND visible_at <= @b AND published_at > @to AND seq BETWEEN @lo AND @hi"
    );
    for (const r of edge.all({ a: to - pv, b: hiVis, to, lo, hi })) skip.add(r.seq);
    if (from !== null) {
      const low = b.stmt(
        "SELECT seq FROM news_order WHERE visible_at >= @a AND visible_at < @b AND published_at < @from AND seq BETWEEN @lo AND @hi"
      );
      for (const r of low.all({ a: from - pv, b: from + vp, from, lo, hi })) skip.add(r.seq);
    }
  }
  return { lo, hi, skip };
}
function hybridSearch(b, bm25, now, q, opts) {
  const limit = checkInt("limit", opts.limit ?? 10, 1, MAX_DEPTH);
  const offset = checkInt("offset", opts.offset ?? 0, 0, MAX_DEPTH - 1);
  const vectors = b.newsVectors?.() ?? null;
  if (vectors === null)
    throw new Error("this world has no news vectors for hybrid search: rebuild it (worlds built now include them)");
  const depth = Math.min(MAX_DEPTH, Math.max(HYBRID_CANDIDATES, offset + limit));
  const base = {
    ...opts.from !== void 0 ? { from: opts.from } : {},
    ...opts.to !== void 0 ? { to: opts.to } : {}
  };
  const lexical = bm25(q, { ...base, limit: depth });
  const to = lexical.to;
  const range = visibleSeqRange(b, now, to, opts.from ?? null);
  const vec = range === null ? [] : vectors.topK(vectors.embedQuery(q), range.lo, range.hi, depth, range.skip);
  const fused = /* @__PURE__ */ new Map();
  const add = (seq, rank, list) => {
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
  const ranked = [...fused.entries()].sort((x, y) => y[1].score - x[1].score || x[0] - y[0]).slice(offset, offset + limit);
  const bySeq = b.stmt(
    "SELECT n.id, n.title, n.domain, n.published_at, n.text FROM news_order o JOIN news n ON n.rid = o.rid WHERE o.seq = @seq AND n.visible_at <= @now"
  );
  const hits = [];
  for (const [seq, e] of ranked) {
    const row = bySeq.get({ seq, now });
    if (!row) continue;
    hits.push({
      id: row.id,
      title: row.title,
      domain: row.domain,
      published_at: row.published_at,
      snippet: makeSnippet(row.text, lexical.terms),
      bm25_rank: e.bm25,
      vector_rank: e.vector
    });
  }
  return { hits, capped_to: to };
}
export {
  HYBRID_CANDIDATES,
  RRF_K,
  hybridSearch,
  visibleSeqRange
};
//# sourceMappingURL=hybrid-search.js.map
