import { DAY, HOUR, isoDate, utcDayStart } from "./time.js";
const DIGEST_MIN_CANDIDATES = 10;
const DIGEST_TAIL = 50;
function digestCandidateCounts(w, start, end) {
  const times = /* @__PURE__ */ new Map();
  for (const c of w.reddit_comment) {
    let a = times.get(c.root);
    if (!a) {
      a = [];
      times.set(c.root, a);
    }
    a.push(c.visible_at);
  }
  const reachedAt = /* @__PURE__ */ new Map();
  for (const [root, ts] of times) {
    if (ts.length < DIGEST_TAIL) continue;
    ts.sort((x, y) => x - y);
    reachedAt.set(root, ts[DIGEST_TAIL - 1]);
  }
  const tail = new Set(w.reddit_reveal.filter((r) => r.descendants_24h >= DIGEST_TAIL).map((r) => r.post));
  const out = [];
  for (let d = utcDayStart(start); d < end; d += DAY) {
    const a = d + 12 * HOUR;
    if (a < start || a >= end) continue;
    let count = 0;
    for (const p of w.reddit_post) {
      if (p.created_utc < a - 24 * HOUR || p.created_utc >= a) continue;
      const t50 = reachedAt.get(p.id);
      if (t50 !== void 0 && t50 <= a && tail.has(p.id)) count++;
    }
    out.push({ day: isoDate(d), a, count });
  }
  return out;
}
function assertDigestCandidates(counts) {
  const short = counts.filter((c) => c.count < DIGEST_MIN_CANDIDATES);
  if (short.length > 0) {
    throw new Error(
      `synthetic world violates the daily-digest requirement (\u2265 ${DIGEST_MIN_CANDIDATES} posts past ${DIGEST_TAIL} comments at 12:00 UTC with a 24 h cascade \u2265 ${DIGEST_TAIL}): ${short.map((c) => `${c.day} has ${c.count}`).join(", ")}`
    );
  }
}
export {
  DIGEST_MIN_CANDIDATES,
  DIGEST_TAIL,
  assertDigestCandidates,
  digestCandidateCounts
};
//# sourceMappingURL=digest-check.js.map
