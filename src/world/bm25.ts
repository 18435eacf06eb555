/**
 * The term factor of FTS5's bm25(), in FTS5's own floating-point evaluation order, shared by the
 * news index build (block maxima) and its top-k (scores and bounds) so both compute identical
 * doubles: (f·(k1 + 1)) / (f + k1·(1 − b + b·D/avgdl)) with k1 = 1.2, b = 0.75, f the
 * column-weighted occurrence count and D the row's token count.
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export function bm25Tf(f: number, d: number, avgdl: number): number {
  return (f * (BM25_K1 + 1.0)) / (f + bm25Norm(d, avgdl));
}

/** The length part of `bm25Tf`'s denominator, k1·(1 − b + b·D/avgdl) (the phrase bounds' per-length table). */
export function bm25Norm(d: number, avgdl: number): number {
  return BM25_K1 * (1 - BM25_B + (BM25_B * d) / avgdl);
}
