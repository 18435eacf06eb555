import { lowerBound, type NewsIndex, type Postings } from "./news-index.js";

/** Corpus statistics of bm25: global (FTS5's) or as of the articles with seq <= `asOf`. */
export type Bm25StatsKind = { kind: "global" } | { kind: "asOf"; asOf: number };

export interface Bm25Stats {
  /** rows counted (0: nothing to rank) */
  rows: number;
  /** tokens / rows */
  avgdl: number;
  /** per phrase: ln((rows − n + 0.5) / (n + 0.5)) by SQLite's ln, 1e-6 when ≤ 0 (FTS5's bm25 IDF) */
  idf: number[];
}

/**
 * The bm25 corpus statistics of a query's phrases (their postings over the whole corpus), as
 * FTS5's bm25 computes them (`news-top-k.ts` explains the formula), under global or as-of counts.
 */
export function bm25Stats(index: NewsIndex, lists: readonly Postings[], stats: Bm25StatsKind): Bm25Stats {
  let rows: number;
  let tokens: number;
  const nHit: number[] = [];
  switch (stats.kind) {
    case "global":
      rows = index.docs;
      tokens = index.tokens;
      for (const p of lists) nHit.push(p.seqs.length);
      break;
    case "asOf": {
      const at = Math.max(0, Math.min(index.docs, stats.asOf));
      rows = at;
      tokens = index.tokensUpTo(at);
      for (const p of lists) nHit.push(lowerBound(p.seqs, at + 1));
      break;
    }
    default: {
      const never: never = stats;
      throw new RangeError(`unknown statistics ${JSON.stringify(never)}`);
    }
  }
  if (rows === 0) return { rows, avgdl: 0, idf: [] };
  const idf = nHit.map((n) => {
    const v = index.lnOf((rows - n + 0.5) / (n + 0.5));
    return v <= 0.0 ? 1e-6 : v;
  });
  return { rows, avgdl: tokens / rows, idf };
}
