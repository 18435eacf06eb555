/**
 * The longest common prefix (in UTF-16 code units) of a text with any text added before: OpenRouter's
 * prefix cache over earlier requests. The texts are kept sorted, and the earlier text sharing the
 * longest prefix with a new one is one of its two neighbours in that order (for a ≤ b ≤ c,
 * lcp(a, c) = min(lcp(a, b), lcp(b, c)) ≤ lcp(b, c)), so each request costs two comparisons and a
 * binary search instead of one comparison with every earlier request (quadratic over a run).
 */
export class PrefixSet {
  private readonly sorted: string[] = [];

  /** Adds `text`; returns its longest common prefix with any earlier text (0 when none). */
  add(text: string): number {
    const s = this.sorted;
    let lo = 0;
    let hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((s[mid] as string) < text) lo = mid + 1;
      else hi = mid;
    }
    const before = lo > 0 ? lcp(s[lo - 1] as string, text) : 0;
    const after = lo < s.length ? lcp(s[lo] as string, text) : 0;
    s.splice(lo, 0, text);
    return Math.max(before, after);
  }
}

export function lcp(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
