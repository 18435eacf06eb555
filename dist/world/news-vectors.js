import { getEmbedder } from "./embedder.js";
import { l2Normalize } from "./embedder-hashing.js";
const NEWS_VEC_BLOCK = 65536;
const KEY_STRIDE = 1 << 20;
const META_NEWS_VEC_EMBEDDER = "news_vec_embedder";
const META_NEWS_VEC_DIM = "news_vec_dim";
const META_NEWS_VEC_ROWS = "news_vec_rows";
const META_NEWS_VEC_BLOCK = "news_vec_block_rows";
const NEWS_VEC_DDL = `
CREATE TABLE news_vec (key INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE news_vec_scale (block INTEGER PRIMARY KEY, data BLOB NOT NULL);
`;
const EMBED_BATCH = 1024;
const asBuffer = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
function buildNewsVectors(db, embedder) {
  const dim = embedder.dim;
  if (!Number.isInteger(dim) || dim < 1 || dim >= 4096) throw new Error(`embedder ${embedder.id}: bad dim ${dim}`);
  db.exec(NEWS_VEC_DDL);
  const read = db.prepare(
    "SELECT o.seq AS seq, n.title AS title, n.text AS text FROM news_order o JOIN news n ON n.rid = o.rid WHERE o.seq > ? ORDER BY o.seq LIMIT ?"
  );
  const putCol = db.prepare("INSERT INTO news_vec (key, data) VALUES (?, ?)");
  const putScale = db.prepare("INSERT INTO news_vec_scale (block, data) VALUES (?, ?)");
  let rows = 0;
  for (let block = 0; ; block++) {
    const batch = read.all(rows, NEWS_VEC_BLOCK);
    if (batch.length === 0) break;
    const n = batch.length;
    const cols = Array.from({ length: dim }, () => new Int8Array(n));
    const scale = new Float32Array(n);
    for (let off = 0; off < n; off += EMBED_BATCH) {
      const part = batch.slice(off, off + EMBED_BATCH);
      const vecs = embedder.embed(part.map((r) => `${r.title}
${r.text}`));
      for (let k = 0; k < part.length; k++) {
        const r = off + k;
        if (part[k].seq !== rows + r + 1) throw new Error("news_order seqs are not contiguous");
        const v = vecs[k];
        if (!v || v.length !== dim) throw new Error(`embedder ${embedder.id} returned a vector of the wrong length`);
        l2Normalize(v);
        let max = 0;
        for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(v[j]));
        if (max === 0) continue;
        const s = max / 127;
        scale[r] = s;
        for (let j = 0; j < dim; j++) cols[j][r] = Math.round(v[j] / s);
      }
    }
    db.transaction(() => {
      for (let j = 0; j < dim; j++) putCol.run(j * KEY_STRIDE + block, asBuffer(cols[j]));
      putScale.run(block, asBuffer(scale));
    })();
    rows += n;
  }
  const meta = db.prepare("INSERT INTO world_meta (key, value) VALUES (?, ?)");
  meta.run(META_NEWS_VEC_EMBEDDER, embedder.id);
  meta.run(META_NEWS_VEC_DIM, String(dim));
  meta.run(META_NEWS_VEC_ROWS, String(rows));
  meta.run(META_NEWS_VEC_BLOCK, String(NEWS_VEC_BLOCK));
  return rows;
}
class NewsVectors {
  embedder;
  rows;
  dim;
  cols;
  scale;
  acc;
  db;
  constructor(db, embedder, rows) {
    this.db = db;
    this.embedder = embedder;
    this.rows = rows;
    this.dim = embedder.dim;
    this.cols = new Array(this.dim);
    this.scale = new Float32Array(rows);
    this.acc = new Float32Array(rows);
    const blocks = db.prepare("SELECT block, data FROM news_vec_scale ORDER BY block").all();
    for (const b of blocks) this.scale.set(floats(b.data), b.block * NEWS_VEC_BLOCK);
  }
  /** The vectors of a world, or null when it has none (built without an embedder, or before vectors existed). */
  static open(db, meta) {
    const id = meta.get(META_NEWS_VEC_EMBEDDER);
    if (id === void 0) return null;
    const embedder = getEmbedder(id);
    const dim = Number(meta.get(META_NEWS_VEC_DIM));
    const block = Number(meta.get(META_NEWS_VEC_BLOCK));
    if (dim !== embedder.dim || block !== NEWS_VEC_BLOCK)
      throw new Error(`news vectors of this world (${id}, dim ${dim}, block ${block}) do not match this build`);
    return new NewsVectors(db, embedder, Number(meta.get(META_NEWS_VEC_ROWS)));
  }
  /** The query's embedding, L2-normalized (a zero vector when it has no usable words). */
  embedQuery(q) {
    const v = this.embedder.embed([q])[0];
    if (!v || v.length !== this.dim)
      throw new Error(`embedder ${this.embedder.id} returned a vector of the wrong length`);
    return l2Normalize(v);
  }
  /**
   * The `limit` rows with seq in [lo, hi] (1-based, inclusive), not in `skip`, with the highest
   * score > 0 against `query`, best first; ties by seq ascending. Rows outside the range are never
   * read, so the range is the as-of filter and it is applied before ranking.
   */
  topK(query, lo, hi, limit, skip = EMPTY) {
    const a = Math.max(1, lo) - 1;
    const b = Math.min(this.rows, hi);
    if (b <= a || limit < 1) return [];
    const acc = this.acc;
    acc.fill(0, a, b);
    let any = false;
    for (let j = 0; j < this.dim; j++) {
      const w = query[j];
      if (w === 0) continue;
      any = true;
      const col = this.col(j);
      for (let i = a; i < b; i++) acc[i] = acc[i] + w * col[i];
    }
    if (!any) return [];
    const heap = new TopHeap(limit);
    const scale = this.scale;
    for (let i = a; i < b; i++) {
      const s = acc[i] * scale[i];
      if (s > 1e-9 && heap.admits(s, i + 1) && !skip.has(i + 1)) heap.push(s, i + 1);
    }
    return heap.sorted();
  }
  col(j) {
    let c = this.cols[j];
    if (c === void 0) {
      c = new Int8Array(this.rows);
      const get = this.db.prepare("SELECT data FROM news_vec WHERE key = ?");
      const blocks = Math.ceil(this.rows / NEWS_VEC_BLOCK);
      for (let blk = 0; blk < blocks; blk++) {
        const r = get.get(j * KEY_STRIDE + blk);
        if (!r) throw new Error(`news vectors: block ${blk} of dimension ${j} is missing`);
        c.set(new Int8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength), blk * NEWS_VEC_BLOCK);
      }
      this.cols[j] = c;
    }
    return c;
  }
}
const EMPTY = /* @__PURE__ */ new Set();
function floats(b) {
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}
class TopHeap {
  constructor(k) {
    this.k = k;
  }
  k;
  s = [];
  q = [];
  /** worse(a, b): a ranks below b */
  worse(i, j) {
    const a = this.s[i];
    const b = this.s[j];
    return a < b || a === b && this.q[i] > this.q[j];
  }
  admits(score, seq) {
    if (this.s.length < this.k) return true;
    const ms = this.s[0];
    return score > ms || score === ms && seq < this.q[0];
  }
  push(score, seq) {
    if (this.s.length < this.k) {
      this.s.push(score);
      this.q.push(seq);
      let i2 = this.s.length - 1;
      while (i2 > 0) {
        const p = i2 - 1 >> 1;
        if (!this.worse(i2, p)) break;
        this.swap(i2, p);
        i2 = p;
      }
      return;
    }
    this.s[0] = score;
    this.q[0] = seq;
    let i = 0;
    for (; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.s.length && this.worse(l, m)) m = l;
      if (r < this.s.length && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
  swap(i, j) {
    [this.s[i], this.s[j]] = [this.s[j], this.s[i]];
    [this.q[i], this.q[j]] = [this.q[j], this.q[i]];
  }
  sorted() {
    return this.s.map((score, i) => ({ seq: this.q[i], score })).sort((x, y) => y.score - x.score || x.seq - y.seq);
  }
}
export {
  META_NEWS_VEC_BLOCK,
  META_NEWS_VEC_DIM,
  META_NEWS_VEC_EMBEDDER,
  META_NEWS_VEC_ROWS,
  NEWS_VEC_BLOCK,
  NEWS_VEC_DDL,
  NewsVectors,
  buildNewsVectors
};
//# sourceMappingURL=news-vectors.js.map
