import type Database from "better-sqlite3";
import type { Embedder } from "./embedder.js";
import { addWordFeatures, HASHING_DIM, HASHING_EMBEDDER_ID, l2Normalize } from "./embedder-hashing.js";
import { NEWS_VEC_BLOCK, NEWS_VEC_DDL, quantizeRow, writeNewsVecBlock, writeNewsVecMeta } from "./news-vectors.js";

/**
 * The news vectors of the offline hashing embedder (`hash-unibi-256-v1`), built from the words the
 * news index already cut (`NewsIndexBuilder`), so the texts are not read and tokenized a second
 * time: the same bytes as `buildNewsVectors` with `hashingEmbedder()`.
 *
 * Why the words suffice: the embedder hashes the content tokens of `title + "\n" + text` (lowercase
 * letter/digit runs without stopwords, a plural "s" stripped), and the index's words are the
 * content tokens of the title followed by those of the text (`ftsIndexText` = content tokens joined
 * by spaces; the newline between title and text is a token boundary like the end of a string). So
 * the index keeps each word id's feature hash (`wordFeature`, computed once per distinct word) next
 * to its term and an article's vector is `addWordFeatures` over its word ids, normalized as `hashingEmbedder().embed`
 * does, then quantized by `quantizeRow` as `embedRows` does. Property-tested against the embedder
 * on random texts (unicode included) and by building worlds both ways.
 *
 * Vectors are kept per block of `NEWS_VEC_BLOCK` rows (16 MiB a block at 256 dimensions) until
 * `write`, which stores them after the index tables. A block fills row by row (each row's 256
 * bytes together: column-major stores would touch 256 pages 64 KiB apart per row) and is turned
 * column-major at `write`, 64 rows at a time.
 */
export class WordVectors {
  private readonly v = new Float32Array(HASHING_DIM);
  private readonly blocks: { q: Int8Array; scale: Float32Array }[] = [];
  private q = new Int8Array(NEWS_VEC_BLOCK * HASHING_DIM);
  private scale = new Float32Array(NEWS_VEC_BLOCK);
  private inBlock = 0;
  private rows = 0;

  /** Whether `embedder` is the one these vectors reproduce. */
  static supports(embedder: Embedder): boolean {
    return embedder.id === HASHING_EMBEDDER_ID && embedder.dim === HASHING_DIM;
  }

  /** Articles added so far. */
  get size(): number {
    return this.rows;
  }

  /**
   * Adds the next article: its words are `wids[from, to)` (title words, then text words, no empty
   * word), word w's feature hash (`wordFeature`) at `feats[2w + 1]`.
   */
  addDoc(feats: Int32Array, wids: Uint32Array, from: number, to: number): void {
    const v = this.v;
    v.fill(0);
    addWordFeatures(v, feats, wids, from, to);
    l2Normalize(v); // as hashingEmbedder().embed returns it
    quantizeRow(v, this.q, 1, this.inBlock * HASHING_DIM, this.scale, this.inBlock);
    this.rows++;
    if (++this.inBlock === NEWS_VEC_BLOCK) {
      this.blocks.push({ q: this.q, scale: this.scale });
      this.q = new Int8Array(NEWS_VEC_BLOCK * HASHING_DIM);
      this.scale = new Float32Array(NEWS_VEC_BLOCK);
      this.inBlock = 0;
    }
  }

  /** Writes `news_vec`, `news_vec_scale` and the vectors' world_meta rows into `db` (as `buildNewsVectors` does). */
  write(db: Database.Database, embedder: Embedder): number {
    db.exec(NEWS_VEC_DDL);
    const dim = HASHING_DIM;
    const cols = new Int8Array(NEWS_VEC_BLOCK * dim);
    this.blocks.forEach((b, i) => {
      columnMajor(b.q, NEWS_VEC_BLOCK, cols);
      writeNewsVecBlock(db, dim, i, NEWS_VEC_BLOCK, cols, b.scale);
    });
    const n = this.inBlock;
    if (n > 0) {
      // the last block holds n rows: its columns are n long
      const q = cols.subarray(0, n * dim);
      columnMajor(this.q, n, q);
      writeNewsVecBlock(db, dim, this.blocks.length, n, q, this.scale.subarray(0, n));
    }
    writeNewsVecMeta(db, embedder, this.rows);
    return this.rows;
  }
}

/** `out[j · n + r]` = `rows[r · HASHING_DIM + j]` for the first n rows, 64 rows at a time (cache-sized tiles). */
function columnMajor(rows: Int8Array, n: number, out: Int8Array): void {
  const dim = HASHING_DIM;
  for (let r0 = 0; r0 < n; r0 += 64) {
    const r1 = Math.min(n, r0 + 64);
    for (let j = 0; j < dim; j++) {
      const col = j * n;
      for (let r = r0; r < r1; r++) out[col + r] = rows[r * dim + j] as number;
    }
  }
}
